"""Shapes a real catalog holds that a table file could not say as they are: import keeps each as Glue
holds it, so import-then-plan is clean, and a catalog rebuilt from the files is the same; a declared
Iceberg table Glue no longer registers as Iceberg plans the repair, never "No changes"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import boto3
import pyarrow as pa
import pytest
from deltalake import write_deltalake
from pyiceberg.catalog.glue import GlueCatalog
from pyiceberg.schema import Schema
from pyiceberg.types import LongType, NestedField

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project
from tests.integration.import_shapes import HIVE_SHAPES

PARQUET = HIVE_SHAPES[0]["StorageDescriptor"]


def _descriptor(location: str, columns: list[dict[str, str]]) -> dict[str, Any]:
    return {
        "Columns": columns,
        "Location": location,
        "InputFormat": PARQUET["InputFormat"],
        "OutputFormat": PARQUET["OutputFormat"],
        "SerdeInfo": {"SerializationLibrary": PARQUET["SerdeInfo"]["SerializationLibrary"]},
    }


def _arrange(server: LocalGlue, raw_glue: Any) -> list[str]:
    raw_glue.create_database(DatabaseInput={"Name": "raw", "LocationUri": "s3://lake/raw/"})
    options = {"AWS_ENDPOINT_URL": server.endpoint_url, "AWS_ALLOW_HTTP": "true", "AWS_REGION": "us-east-1",
               "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing"}  # fmt: skip
    write_deltalake("s3://lake/raw/stock", pa.table({"sku": ["a"]}), storage_options=options)
    tables = [
        # Delta as some tools register it: no SerDe path, no EXTERNAL, no table_type
        {"Name": "stock", "TableType": "EXTERNAL_TABLE", "Parameters": {"spark.sql.sources.provider": "delta"},
         "StorageDescriptor": _descriptor("s3://lake/raw/stock", [{"Name": "sku", "Type": "string"}])},
        # a column Glue holds without a type
        {"Name": "untyped", "TableType": "EXTERNAL_TABLE",
         "StorageDescriptor": _descriptor("s3://lake/raw/untyped", [{"Name": "a"}, {"Name": "b", "Type": "int"}])},
        # a view without view texts
        {"Name": "bare_view", "TableType": "VIRTUAL_VIEW", "StorageDescriptor": {"Columns": [{"Name": "a", "Type": "int"}]}},
        # a table that is no view, carrying view texts all the same
        {"Name": "with_texts", "TableType": "EXTERNAL_TABLE", "ViewOriginalText": "SELECT 1",
         "ViewExpandedText": "SELECT 1 /* expanded */",
         "StorageDescriptor": _descriptor("s3://lake/raw/with_texts", [{"Name": "a", "Type": "int"}])},
    ]  # fmt: skip
    for table in tables:
        raw_glue.create_table(DatabaseName="raw", TableInput=table)
    return [table["Name"] for table in tables]


def test_odd_live_shapes_import_then_plan_clean_and_rebuild_the_same(
    tmp_path: Path, server: LocalGlue, lake_bucket: str, raw_glue: Any
) -> None:
    names = _arrange(server, raw_glue)
    before = {name: raw_glue.get_table(DatabaseName="raw", Name=name)["Table"] for name in names}
    root = write_project(tmp_path / "imported", server.endpoint_url, {})

    imported = gluecat("import", str(root))
    assert imported.exit_code == 0, imported.output
    planned = gluecat("plan", str(root), "--detailed-exitcode")
    assert planned.exit_code == 0, planned.output
    files = {name: (root / "raw" / "tables" / f"{name}.yaml").read_text() for name in names}
    for name in ("stock", "untyped", "bare_view"):
        assert "format: registration" in files[name], files[name]
    assert "reason: registered as Delta without parameters.table_type = DELTA" in files["stock"]
    assert "without a type" in files["untyped"] and "without view texts" in files["bare_view"]
    assert "ViewOriginalText: SELECT 1" in files["with_texts"]

    for name in names:
        raw_glue.delete_table(DatabaseName="raw", Name=name)
    rebuilt = gluecat("apply", str(root), "--auto-approve")
    assert rebuilt.exit_code == 0, rebuilt.output
    for name in names:
        after = raw_glue.get_table(DatabaseName="raw", Name=name)["Table"]
        for key in ("TableType", "ViewOriginalText", "ViewExpandedText", "Parameters"):
            assert (after.get(key) or None) == (before[name].get(key) or None), (name, key)  # {} is no parameters
        assert after["StorageDescriptor"].get("Columns") == before[name]["StorageDescriptor"].get("Columns"), name
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


@pytest.mark.parametrize("registered", [None, "DELTA", "iceberg"])
def test_a_declared_iceberg_table_glue_no_longer_registers_as_iceberg_plans_the_repair(
    tmp_path: Path, server: LocalGlue, lake_bucket: str, raw_glue: Any, registered: str | None
) -> None:
    glue = boto3.client("glue", endpoint_url=server.endpoint_url, region_name="us-east-1")
    catalog = GlueCatalog("t", client=glue, **{"s3.endpoint": server.endpoint_url, "s3.access-key-id": "testing",
                                               "s3.secret-access-key": "testing", "s3.region": "us-east-1"})  # fmt: skip
    raw_glue.create_database(DatabaseInput={"Name": "lake", "LocationUri": "s3://lake/lake.db/"})
    catalog.create_table("lake.events", Schema(NestedField(1, "id", LongType())), location="s3://lake/lake.db/events")
    root = write_project(
        tmp_path / "project",
        server.endpoint_url,
        {
            "lake/database.yaml": "location: s3://lake/lake.db/\n",
            "lake/tables/events.yaml": "format: iceberg\nlocation: s3://lake/lake.db/events\ncolumns:\n"
            "  - {name: id, type: bigint}\n",
        },
    )
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0, "declared as it is"
    table = raw_glue.get_table(DatabaseName="lake", Name="events")["Table"]
    parameters = {k: v for k, v in table["Parameters"].items() if k != "table_type"}
    if registered is not None:
        parameters["table_type"] = registered
    table_input = {k: table[k] for k in ("Name", "TableType", "StorageDescriptor") if k in table}
    raw_glue.update_table(DatabaseName="lake", TableInput={**table_input, "Parameters": parameters})

    planned = gluecat("plan", str(root), "--detailed-exitcode")
    if registered == "iceberg":  # Glue's own spelling is not a change: engines read either case
        assert planned.exit_code == 0, planned.output
        return
    assert planned.exit_code == 2, planned.output
    assert "No changes" not in planned.output
    assert f"parameters.table_type: {registered or '(absent)'} -> ICEBERG" in planned.output
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert raw_glue.get_table(DatabaseName="lake", Name="events")["Table"]["Parameters"]["table_type"] == "ICEBERG"
    assert catalog.load_table("lake.events").schema().find_field("id").field_type == LongType()
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0
