"""Delta tables: the log made and changed with deltalake, registered so Spark and Athena read it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from deltalake import DeltaTable, write_deltalake

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

INVENTORY = """\
format: delta
description: Stock per warehouse
location: s3://lake/lake.db/inventory
columns:
  - {name: sku, type: string, comment: stock keeping unit}
  - {name: on_hand, type: int}
  - {name: price, type: "decimal(10,2)"}
  - {name: dt, type: date}
partition_columns: [dt]
properties:
  delta.appendOnly: "false"
"""


def _project(tmp_path: Path, server: LocalGlue, text: str = INVENTORY) -> Path:
    files = {"lake/database.yaml": "location: s3://lake/lake.db/\n", "lake/tables/inventory.yaml": text}
    return write_project(tmp_path, server.endpoint_url, files)


def _options(server: LocalGlue) -> dict[str, str]:
    return {
        "AWS_ENDPOINT_URL": server.endpoint_url,
        "AWS_ALLOW_HTTP": "true",
        "AWS_REGION": "us-east-1",
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
    }


def _rows(table: DeltaTable) -> pa.Table:
    import datetime
    import decimal

    schema = table.schema().to_arrow()
    data = [{"sku": "a", "on_hand": 1, "price": decimal.Decimal("2.50"), "dt": datetime.date(2024, 1, 1)}]
    return pa.Table.from_pylist(data, schema=pa.schema(schema))  # type: ignore[arg-type]


URI = "s3://lake/lake.db/inventory"


def test_create_makes_the_log_and_registers_it(
    tmp_path: Path, server: LocalGlue, lake_bucket: str, raw_glue: Any
) -> None:
    root = _project(tmp_path, server)
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output

    table = DeltaTable(URI, storage_options=_options(server))
    assert [f.name for f in table.schema().fields] == ["sku", "on_hand", "price", "dt"]
    assert table.metadata().partition_columns == ["dt"]
    assert table.metadata().configuration["delta.appendOnly"] == "false"
    assert table.metadata().description == "Stock per warehouse"

    glue_table = raw_glue.get_table(DatabaseName="lake", Name="inventory")["Table"]
    assert glue_table["Parameters"]["table_type"] == "DELTA"
    assert glue_table["Parameters"]["spark.sql.sources.provider"] == "delta"
    descriptor = glue_table["StorageDescriptor"]
    assert [(c["Name"], c["Type"]) for c in descriptor["Columns"]] == [
        ("sku", "string"), ("on_hand", "int"), ("price", "decimal(10,2)"), ("dt", "date"),
    ]  # fmt: skip
    assert descriptor["Location"] == URI
    assert descriptor["SerdeInfo"]["Parameters"]["path"] == URI

    write_deltalake(URI, _rows(table), mode="append", storage_options=_options(server))
    assert DeltaTable(URI, storage_options=_options(server)).to_pyarrow_table().num_rows == 1
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_an_existing_log_is_registered_not_overwritten(
    tmp_path: Path, server: LocalGlue, lake_bucket: str, raw_glue: Any
) -> None:
    root = _project(tmp_path, server)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    table = DeltaTable(URI, storage_options=_options(server))
    write_deltalake(URI, _rows(table), mode="append", storage_options=_options(server))
    raw_glue.delete_table(DatabaseName="lake", Name="inventory")
    version = DeltaTable(URI, storage_options=_options(server)).version()

    planned = gluecat("plan", str(root))
    assert "registers the existing Delta log" in planned.stdout
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    after = DeltaTable(URI, storage_options=_options(server))
    assert after.version() == version and after.to_pyarrow_table().num_rows == 1
    assert raw_glue.get_table(DatabaseName="lake", Name="inventory")["Table"]["Parameters"]["table_type"] == "DELTA"


def test_a_different_existing_log_is_a_plan_error(tmp_path: Path, server: LocalGlue, lake_bucket: str) -> None:
    write_deltalake(URI, pa.table({"sku": ["x"], "qty": [1]}), storage_options=_options(server))
    root = _project(tmp_path, server)
    planned = gluecat("plan", str(root))
    assert planned.exit_code == 1
    assert "differs from the YAML and is never overwritten" in planned.output
    assert "qty" in planned.output
    assert DeltaTable(URI, storage_options=_options(server)).version() == 0


def test_add_columns_properties_and_description(
    tmp_path: Path, server: LocalGlue, lake_bucket: str, raw_glue: Any
) -> None:
    root = _project(tmp_path, server)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    table = DeltaTable(URI, storage_options=_options(server))
    write_deltalake(URI, _rows(table), mode="append", storage_options=_options(server))

    changed = (
        INVENTORY.replace("  - {name: dt, type: date}\n", "  - {name: dt, type: date}\n  - {name: bin, type: string}\n")
        .replace("Stock per warehouse", "Stock per warehouse and bin")
        .replace(
            'delta.appendOnly: "false"', 'delta.appendOnly: "false"\n  delta.logRetentionDuration: "interval 60 days"'
        )
    )
    (root / "lake/tables/inventory.yaml").write_text(changed)
    planned = gluecat("plan", str(root))
    assert "columns.bin: (absent) -> string" in planned.stdout
    assert "properties.delta.logRetentionDuration" in planned.stdout
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0

    after = DeltaTable(URI, storage_options=_options(server))
    assert [f.name for f in after.schema().fields][-1] == "bin"
    assert after.metadata().configuration["delta.logRetentionDuration"] == "interval 60 days"
    assert after.metadata().description == "Stock per warehouse and bin"
    assert after.to_pyarrow_table().num_rows == 1
    columns = raw_glue.get_table(DatabaseName="lake", Name="inventory")["Table"]["StorageDescriptor"]["Columns"]
    assert columns[-1]["Name"] == "bin"
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


@pytest.mark.parametrize(
    ("before", "after", "words"),
    [
        ("{name: on_hand, type: int}", "{name: on_hand, type: bigint}", "changing it to bigint rewrites data"),
        ("partition_columns: [dt]", "partition_columns: [sku]", "cannot change"),
        ('  - {name: price, type: "decimal(10,2)"}\n', "", "Delta cannot drop it"),
    ],
)
def test_unsafe_changes_fail_at_plan_time(
    tmp_path: Path, server: LocalGlue, lake_bucket: str, before: str, after: str, words: str
) -> None:
    root = _project(tmp_path, server)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "lake/tables/inventory.yaml").write_text(INVENTORY.replace(before, after))
    planned = gluecat("plan", str(root))
    assert planned.exit_code == 1
    assert words in planned.output
