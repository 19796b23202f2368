"""import --dry-run says, file by file, what import would write (new, unchanged, differs, overwrite)
and writes nothing; its outcome and exit code are the ones import itself then has."""

from __future__ import annotations

from pathlib import Path

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

ORDERS = """\
description: Orders
storage: parquet
columns:
  - {name: order_id, type: bigint}
  - {name: amount, type: "decimal(12,2)"}
partition_keys:
  - {name: dt, type: string}
"""
CUSTOMERS = "storage: csv\ncolumns:\n  - {name: customer_id, type: bigint}\n"
SALES = "location: s3://lake/sales/\n"


def _files(root: Path) -> dict[Path, bytes]:
    """Every file of the project but the sandbox's own state."""
    return {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and ".gluecat" not in p.parts}


def _applied(tmp_path: Path, server: LocalGlue) -> Path:
    root = write_project(
        tmp_path / "project",
        server.endpoint_url,
        {"sales/database.yaml": SALES, "sales/tables/orders.yaml": ORDERS, "sales/tables/customers.yaml": CUSTOMERS},
    )
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    return root


def test_dry_run_names_each_file_writes_nothing_and_import_then_does_what_it_said(
    tmp_path: Path, server: LocalGlue
) -> None:
    root = _applied(tmp_path, server)
    orders = root / "sales" / "tables" / "orders.yaml"
    orders.write_text(ORDERS.replace("decimal(12,2)", "decimal(14,2)"))  # differs from Glue
    (root / "sales" / "tables" / "customers.yaml").unlink()  # import would write it anew
    before = _files(root)

    dry = gluecat("import", str(root), "--dry-run")

    assert dry.exit_code == 1, dry.output  # a file differs: import would keep it and exit 1
    assert _files(root) == before, "a dry run writes nothing"
    lines = dry.stdout.splitlines()
    assert lines[:3] == [
        f"unchanged {root / 'sales' / 'database.yaml'}",
        f"new       {root / 'sales' / 'tables' / 'customers.yaml'}",
        f"differs   {orders}: it differs from the live catalog"
        " (columns.amount.type: 'decimal(14,2)' in the file, 'decimal(12,2)' live); pass --force to overwrite it",
    ]
    assert lines[3:] == [
        "Would import 2 tables: 1 file to write, 1 unchanged, 1 differ (kept), 0 skipped.",
        "  2 table files: 1 to write, 0 unchanged, 1 differ",
        "  1 database file: 0 to write, 1 unchanged, 0 differ",
        "Dry run: nothing was written.",
    ]
    assert "kept" not in dry.stderr, "the file-by-file lines say it once"

    real = gluecat("import", str(root))

    assert real.exit_code == dry.exit_code
    assert real.stdout.startswith("Imported 2 tables: 1 file written, 1 unchanged, 1 differ (kept), 0 skipped.\n")
    assert (root / "sales" / "tables" / "customers.yaml").is_file()
    assert orders.read_text() == before[orders].decode()


def test_dry_run_with_force_says_what_it_would_overwrite(tmp_path: Path, server: LocalGlue) -> None:
    root = _applied(tmp_path, server)
    orders = root / "sales" / "tables" / "orders.yaml"
    orders.write_text(ORDERS.replace("Orders", "Old orders"))
    before = _files(root)

    dry = gluecat("import", str(root), "--dry-run", "--force")

    assert dry.exit_code == 0, dry.output
    assert _files(root) == before
    assert (
        f"overwrite {orders}: it differs from the live catalog (description: 'Old orders' in the file, 'Orders' live)\n"
        in dry.stdout
    )
    assert "  2 table files: 1 to write (1 over a file that differed), 1 unchanged, 0 differ\n" in dry.stdout


def test_dry_run_of_an_applied_project_is_all_unchanged_and_exit_0(tmp_path: Path, server: LocalGlue) -> None:
    root = _applied(tmp_path, server)
    before = _files(root)

    dry = gluecat("import", str(root), "--dry-run")

    assert dry.exit_code == 0, dry.output
    assert _files(root) == before
    assert [line.split()[0] for line in dry.stdout.splitlines()[:3]] == ["unchanged"] * 3
    assert "Would import 2 tables: 0 files to write, 3 unchanged, 0 differ, 0 skipped.\n" in dry.stdout


def test_dry_run_into_an_empty_directory_creates_nothing(tmp_path: Path, server: LocalGlue) -> None:
    _applied(tmp_path, server)
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")

    dry = gluecat("import", str(empty), "--dry-run")

    assert dry.exit_code == 0, dry.output
    assert [p.name for p in empty.rglob("*")] == ["catalog.yaml"]
    assert dry.stdout.splitlines()[:4] == [
        f"new       {empty / 'sales' / 'database.yaml'}",
        f"new       {empty / 'sales' / 'tables' / 'customers.yaml'}",
        f"new       {empty / 'sales' / 'tables' / 'orders.yaml'}",
        "Would import 2 tables: 3 files to write, 0 unchanged, 0 differ, 0 skipped.",
    ]
