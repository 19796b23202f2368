"""import compares a file already in the project by meaning, not by text: one that means what import
would write is unchanged (exit 0, untouched) however it is formatted; one that differs is kept and
named with its first differing field (exit 1), and rewritten only with --force."""

from __future__ import annotations

from pathlib import Path

import boto3
import pytest

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import copy_example, gluecat, write_project


def _snapshot(root: Path) -> dict[Path, bytes]:
    """Every file of the project but the sandbox's own state."""
    return {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and ".gluecat" not in p.parts}


def _applied_example(tmp_path: Path, server: LocalGlue) -> Path:
    """The example catalog, applied to the embedded sandbox the test session runs."""
    example = copy_example(tmp_path / "example")
    catalog = (example / "catalog.yaml").read_text()
    (example / "catalog.yaml").write_text(catalog.replace("sandbox: true", f"endpoint_url: {server.endpoint_url}"))
    boto3.client("s3", endpoint_url=server.endpoint_url, region_name="us-east-1").create_bucket(Bucket="example-lake")
    applied = gluecat("apply", str(example), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    planned = gluecat("plan", str(example), "--detailed-exitcode")
    assert planned.exit_code == 0 and "No changes" in planned.stdout, planned.output
    return example


@pytest.mark.parametrize("partitions", [(), ("--partitions",)], ids=["tables", "with-partitions"])
def test_import_into_the_applied_example_leaves_every_file_unchanged(
    tmp_path: Path, server: LocalGlue, partitions: tuple[str, ...]
) -> None:
    example = _applied_example(tmp_path, server)
    before = _snapshot(example)

    imported = gluecat("import", str(example), *partitions)

    assert imported.exit_code == 0, imported.output
    assert "kept" not in imported.output and "differs" not in imported.output
    assert imported.stdout.startswith("Imported 9 tables: 0 files written, 12 unchanged, 0 differ, 0 skipped.\n")
    assert "  9 table files: 0 written, 9 unchanged, 0 differ\n" in imported.stdout
    assert "  3 database files: 0 written, 3 unchanged, 0 differ\n" in imported.stdout
    assert _snapshot(example) == before


ORDERS = """\
description: Orders
storage: parquet
columns:
  - {name: order_id, type: bigint}
  - {name: amount, type: "decimal(12,2)"}
  - {name: placed_at, type: timestamp, comment: when it was placed}
partition_keys:
  - {name: dt, type: string}
partitions:
  - expand:
      dt: {from: 2024-01-01, to: 2024-01-03}
parameters:
  classification: parquet
  skip.header.line.count: "1"
"""
SALES = "location: s3://lake/sales/\nparameters: {owner_team: commerce}\n"


def _applied_sales(tmp_path: Path, server: LocalGlue) -> Path:
    root = write_project(
        tmp_path / "project",
        server.endpoint_url,
        {"sales/database.yaml": SALES, "sales/tables/orders.yaml": ORDERS},
        "vars:\n  lake: s3://lake\n",
    )
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    return root


# The same table as ORDERS, written by hand: keys reordered, comments, block and flow style mixed,
# numbers and booleans unquoted where ORDERS quotes them, defaults spelled out, the formats the
# `parquet` shorthand stands for, a column name in another case, the default location spelled
# out with a trailing slash and a var, and the partitions listed one by one.
HAND_WRITTEN_ORDERS = """\
# Orders, as the shop's team keeps them.
name: orders
format: hive
table_type: EXTERNAL_TABLE   # the default, said out loud
location: ${var.lake}/sales/orders/
columns: [
  {type: bigint, name: order_id},
  {name: Amount, type: 'decimal(12, 2)'},
  {name: placed_at, comment: "when it was placed", type: TIMESTAMP, parameters: {}},
]
parameters: {skip.header.line.count: 1, classification: "parquet"}
input_format: org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat
output_format: org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat
serde:
  library: org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe
  parameters:
    serialization.format: 1
partition_keys:
- name: dt
  type: string
partitions:
- values: {dt: 2024-01-01}
- values: {dt: "2024-01-02"}
- {values: {dt: '2024-01-03'}, location: "s3://lake/sales/orders/dt=2024-01-03/"}
partition_schema: keep
description: >-
  Orders
"""
HAND_WRITTEN_SALES = """\
parameters:
  owner_team: "commerce"   # who to ask
location: "${var.lake}/sales"
name: sales
"""


@pytest.mark.parametrize("partitions", [(), ("--partitions",)], ids=["tables", "with-partitions"])
def test_a_hand_formatted_file_that_means_the_live_table_is_unchanged(
    tmp_path: Path, server: LocalGlue, partitions: tuple[str, ...]
) -> None:
    root = _applied_sales(tmp_path, server)
    (root / "sales" / "tables" / "orders.yaml").write_text(HAND_WRITTEN_ORDERS)
    (root / "sales" / "database.yaml").write_text(HAND_WRITTEN_SALES)
    planned = gluecat("plan", str(root), "--detailed-exitcode")
    assert planned.exit_code == 0, planned.output  # the plan reads them the same way
    before = _snapshot(root)

    imported = gluecat("import", str(root), *partitions)

    assert imported.exit_code == 0, imported.output
    assert "1 table file: 0 written, 1 unchanged, 0 differ" in imported.stdout
    assert "1 database file: 0 written, 1 unchanged, 0 differ" in imported.stdout
    assert _snapshot(root) == before


def test_a_file_that_differs_in_meaning_is_kept_and_named_then_rewritten_with_force(
    tmp_path: Path, server: LocalGlue
) -> None:
    root = _applied_sales(tmp_path, server)
    orders = root / "sales" / "tables" / "orders.yaml"
    edited = ORDERS.replace('"decimal(12,2)"', '"decimal(14,2)"')
    orders.write_text(edited)
    before = _snapshot(root)

    kept = gluecat("import", str(root))

    assert kept.exit_code == 1, kept.output
    assert (
        f"kept {orders}: it differs from the live catalog"
        " (columns.amount.type: 'decimal(14,2)' in the file, 'decimal(12,2)' live); pass --force to overwrite it"
    ) in kept.stderr
    assert "Imported 1 table: 0 files written, 1 unchanged, 1 differ (kept), 0 skipped." in kept.stdout
    assert "1 table file: 0 written, 0 unchanged, 1 differ" in kept.stdout
    assert _snapshot(root) == before

    forced = gluecat("import", str(root), "--force")

    assert forced.exit_code == 0, forced.output
    assert f"overwrote {orders}: it differs from the live catalog (columns.amount.type:" in forced.stderr
    assert "1 table file: 1 written (1 over a file that differed), 0 unchanged, 0 differ" in forced.stdout
    rewritten = orders.read_text()
    assert rewritten.startswith("# Written by gluecat import.") and "decimal(12,2)" in rewritten
    assert "decimal(14,2)" not in rewritten
    assert (root / "sales" / "database.yaml").read_bytes() == before[root / "sales" / "database.yaml"]
    again = gluecat("import", str(root))
    assert again.exit_code == 0 and "0 files written, 2 unchanged, 0 differ" in again.stdout, again.output


def test_partitions_are_compared_only_when_import_reads_them(tmp_path: Path, server: LocalGlue) -> None:
    root = _applied_sales(tmp_path, server)
    orders = root / "sales" / "tables" / "orders.yaml"
    orders.write_text(ORDERS.replace("to: 2024-01-03", "to: 2024-01-02"))  # one live partition left out
    before = _snapshot(root)

    tables_only = gluecat("import", str(root))
    assert tables_only.exit_code == 0, tables_only.output

    with_partitions = gluecat("import", str(root), "--partitions")
    assert with_partitions.exit_code == 1
    assert "(partitions.dt=2024-01-03: absent in the file, present live)" in with_partitions.stderr
    assert _snapshot(root) == before


def test_a_file_that_does_not_load_is_kept_with_its_error(tmp_path: Path, server: LocalGlue) -> None:
    root = _applied_sales(tmp_path, server)
    orders = root / "sales" / "tables" / "orders.yaml"
    orders.write_text(ORDERS.replace("storage: parquet", "storage: parquet\n  oops: [", 1))
    unresolved = root / "sales" / "database.yaml"
    unresolved.write_text("location: ${var.nowhere}/sales/\n")

    imported = gluecat("import", str(root))

    assert imported.exit_code == 1
    assert f"kept {orders}: it does not load ({orders}:" in imported.stderr
    assert f"kept {unresolved}: it does not load ({unresolved}:1:11: undefined var 'nowhere'" in imported.stderr
    assert "0 files written, 0 unchanged, 2 differ (kept)" in imported.stdout


def test_a_secret_parameter_is_compared_through_its_reference_and_never_shown(
    tmp_path: Path, server: LocalGlue, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _applied_sales(tmp_path, server)
    monkeypatch.setenv("ORDERS_DB_PASSWORD", "hunter2-is-secret")
    orders = root / "sales" / "tables" / "orders.yaml"
    orders.write_text(ORDERS + "  jdbc.password: ${env.ORDERS_DB_PASSWORD}\n")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    before = _snapshot(root)

    same = gluecat("import", str(root))  # import writes its own reference; both read the same value
    assert same.exit_code == 0, same.output
    assert _snapshot(root) == before

    monkeypatch.setenv("ORDERS_DB_PASSWORD", "another-secret-value")
    differs = gluecat("import", str(root))
    assert differs.exit_code == 1
    assert "(parameters.jdbc.password: '(sensitive)' in the file, '(sensitive)' live)" in differs.stderr
    assert "hunter2" not in differs.output and "another-secret-value" not in differs.output

    monkeypatch.delenv("ORDERS_DB_PASSWORD")  # unset: what it will hold cannot be told apart from Glue's
    unset = gluecat("import", str(root))
    assert unset.exit_code == 0, unset.output
    assert _snapshot(root) == before
