"""Partition schemas after a column change (keep / follow), and Spark's schema copy."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pyspark.sql.types import StructType

from gluecat.kinds.hive.spark_schema import read_schema
from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

EVENTS = """\
storage: csv
columns:
  - {name: id, type: bigint}
  - {name: kind, type: string}
partition_keys:
  - {name: dt, type: string}
"""
DAYS = [f"2024-01-{d:02d}" for d in range(1, 6)]


def _project(root: Path, endpoint: str, table: str) -> Path:
    files = {"lake/database.yaml": "location: s3://lake/db/\n", "lake/tables/events.yaml": table}
    return write_project(root, endpoint, files)


def _partitions(raw_glue: Any) -> dict[str, Any]:
    found = raw_glue.get_partitions(DatabaseName="lake", TableName="events")["Partitions"]
    return {p["Values"][0]: p for p in found}


def _live_partitions(tmp_path: Path, server: LocalGlue, raw_glue: Any, extra: str) -> Path:
    """A table whose partitions were added by another writer, each with its own location and parameters."""
    root = _project(tmp_path, server.endpoint_url, EVENTS + extra)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    descriptor = raw_glue.get_table(DatabaseName="lake", Name="events")["Table"]["StorageDescriptor"]
    raw_glue.batch_create_partition(
        DatabaseName="lake",
        TableName="events",
        PartitionInputList=[
            {
                "Values": [day],
                "StorageDescriptor": {**descriptor, "Location": f"s3://elsewhere/{day}/"},
                "Parameters": {"written_by": f"job-{day}"},
            }
            for day in DAYS
        ],
    )
    return root


def test_follow_brings_every_partition_in_step(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = _live_partitions(tmp_path, server, raw_glue, "partition_schema: follow\n")
    retyped = EVENTS.replace("{name: id, type: bigint}", "{name: id, type: string}")
    _project(tmp_path, server.endpoint_url, retyped + "partition_schema: follow\n")

    planned = json.loads(gluecat("plan", str(root), "--format", "json").stdout)
    assert [sorted(v[0] for v in p["follow"]) for p in planned["partitions"]] == [DAYS]
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output

    for day, partition in _partitions(raw_glue).items():
        descriptor = partition["StorageDescriptor"]
        assert [(c["Name"], c["Type"]) for c in descriptor["Columns"]] == [("id", "string"), ("kind", "string")]
        assert descriptor["Location"] == f"s3://elsewhere/{day}/"
        assert partition["Parameters"] == {"written_by": f"job-{day}"}
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0, "the next plan is clean"


def test_keep_reports_mismatched_partitions_by_count(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = _live_partitions(tmp_path, server, raw_glue, "partitions: []\n")
    retyped = EVENTS.replace("{name: id, type: bigint}", "{name: id, type: boolean}")
    _project(tmp_path, server.endpoint_url, retyped + "partitions: []\n")

    change = json.loads(gluecat("plan", str(root), "--format", "json").stdout)["changes"][0]
    messages = {f["rule"]: f["message"] for f in change["findings"]}
    assert "5 of 5 partitions keep their own columns, and 5 of them" in messages["partition-schema-mismatch"]
    assert "HIVE_PARTITION_SCHEMA_MISMATCH" in messages["partition-schema-mismatch"]
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    kept = _partitions(raw_glue)["2024-01-01"]["StorageDescriptor"]["Columns"]
    assert kept[0]["Type"] == "bigint", "keep leaves the partitions alone"


SPARK_SCHEMA = {
    "type": "struct",
    "fields": [
        {"name": "Id", "type": "long", "nullable": True, "metadata": {}},
        {"name": "kind", "type": "string", "nullable": True, "metadata": {"comment": "what happened"}},
    ],
}


def test_spark_schema_copy_follows_new_columns(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    text = json.dumps(SPARK_SCHEMA)
    raw_glue.create_database(DatabaseInput={"Name": "lake", "LocationUri": "s3://lake/db/"})
    raw_glue.create_table(
        DatabaseName="lake",
        TableInput={
            "Name": "events",
            "TableType": "EXTERNAL_TABLE",
            "Parameters": {
                "spark.sql.sources.provider": "parquet",
                "spark.sql.sources.schema.numParts": "2",
                "spark.sql.sources.schema.part.0": text[:50],
                "spark.sql.sources.schema.part.1": text[50:],
            },
            "StorageDescriptor": {
                "Columns": [{"Name": "id", "Type": "bigint"}, {"Name": "kind", "Type": "string"}],
                "Location": "s3://lake/db/events",
                "InputFormat": "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
                "OutputFormat": "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat",
                "SerdeInfo": {
                    "SerializationLibrary": "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe",
                    "Parameters": {"serialization.format": "1"},
                },
            },
        },
    )
    table = "storage: parquet\ncolumns:\n  - {name: id, type: bigint}\n  - {name: kind, type: string}\n"
    table += "  - {name: tags, type: 'array<string>'}\n"
    root = _project(tmp_path, server.endpoint_url, table)
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output

    parameters = raw_glue.get_table(DatabaseName="lake", Name="events")["Table"]["Parameters"]
    schema = StructType.fromJson(read_schema(parameters) or {})
    assert schema.fieldNames() == ["Id", "kind", "tags"], "Spark's spelling kept, the new field added"
    assert schema["kind"].metadata == {"comment": "what happened"}
    assert schema["tags"].dataType.simpleString() == "array<string>"
    assert "spark.sql.sources.schema.part.1" not in parameters, "no stale part is left behind"
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0
