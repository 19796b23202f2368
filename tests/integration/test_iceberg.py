"""Iceberg tables: created and evolved through Iceberg commits, checked with pyiceberg itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from pyiceberg.catalog.glue import GlueCatalog
from pyiceberg.table import Table
from pyiceberg.types import DecimalType, IntegerType, LongType, StringType, StructType, TimestamptzType

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

EVENTS = """\
format: iceberg
description: Curated events
columns:
  - {name: id, type: bigint, required: true}
  - {name: ts, type: timestamptz, required: true, comment: event time}
  - {name: kind, type: string}
  - {name: qty, type: int}
  - {name: price, type: "decimal(10,2)"}
  - {name: device, type: "struct<os:string>"}
partition_spec:
  - {column: ts, transform: day}
  - {column: id, transform: "bucket[8]"}
sort_order:
  - {column: ts}
properties:
  format-version: 2
  write.parquet.compression-codec: zstd
"""


def _project(tmp_path: Path, server: LocalGlue, events: str = EVENTS) -> Path:
    files = {"lake/database.yaml": "location: s3://lake/lake.db/\n", "lake/tables/events.yaml": events}
    return write_project(tmp_path, server.endpoint_url, files, catalog_extra="warehouse: s3://lake/warehouse\n")


def _catalog(server: LocalGlue) -> GlueCatalog:
    import boto3

    client = boto3.client("glue", endpoint_url=server.endpoint_url, region_name="us-east-1")
    return GlueCatalog(
        "test",
        client=client,
        **{
            "s3.endpoint": server.endpoint_url,
            "s3.access-key-id": "testing",
            "s3.secret-access-key": "testing",
            "s3.region": "us-east-1",
        },
    )


def _append(table: Table, rows: list[dict[str, Any]]) -> None:
    table.append(pa.Table.from_pylist(rows, schema=table.schema().as_arrow()))


def _row(i: int) -> dict[str, Any]:
    import datetime
    import decimal

    ts = datetime.datetime(2024, 1, 1 + i % 3, tzinfo=datetime.UTC)
    return {"id": i, "ts": ts, "kind": "click", "qty": i, "price": decimal.Decimal("1.50"), "device": {"os": "ios"}}


def test_create_writes_metadata_and_registers_iceberg(
    tmp_path: Path, server: LocalGlue, lake_bucket: str, raw_glue: Any
) -> None:
    root = _project(tmp_path, server)
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output

    glue_table = raw_glue.get_table(DatabaseName="lake", Name="events")["Table"]
    assert glue_table["Parameters"]["table_type"] == "ICEBERG"
    assert glue_table["Parameters"]["metadata_location"].startswith("s3://lake/warehouse/lake.db/events/metadata/")

    table = _catalog(server).load_table("lake.events")
    schema = table.schema()
    assert schema.find_field("id").required and isinstance(schema.find_field("id").field_type, LongType)
    assert isinstance(schema.find_field("ts").field_type, TimestamptzType)
    assert schema.find_field("ts").doc == "event time"
    assert isinstance(schema.find_field("price").field_type, DecimalType)
    assert isinstance(schema.find_field("device").field_type, StructType)
    assert [str(f.transform) for f in table.spec().fields] == ["day", "bucket[8]"]
    assert [schema.find_column_name(f.source_id) for f in table.sort_order().fields] == ["ts"]
    assert table.metadata.format_version == 2
    assert table.properties["write.parquet.compression-codec"] == "zstd"
    assert table.properties["comment"] == "Curated events"

    _append(table, [_row(i) for i in range(5)])
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0, "an append must not make a diff"


def test_schema_evolution_keeps_every_row(tmp_path: Path, server: LocalGlue, lake_bucket: str) -> None:
    root = _project(tmp_path, server)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    catalog = _catalog(server)
    _append(catalog.load_table("lake.events"), [_row(i) for i in range(6)])
    before = catalog.load_table("lake.events").metadata_location

    evolved = (
        EVENTS.replace("{name: qty, type: int}", "{name: qty, type: bigint, comment: now wide}")
        .replace('"decimal(10,2)"', '"decimal(12,2)"')
        .replace("{name: id, type: bigint, required: true}", "{name: id, type: bigint}")
        .replace('"struct<os:string>"', '"struct<os:string,model:string>"')
        + "  write.metadata.delete-after-commit.enabled: 'true'\n"
    ).replace("columns:\n", "columns:\n  - {name: country, type: string}\n", 1)
    (root / "lake/tables/events.yaml").write_text(evolved)
    planned = gluecat("plan", str(root))
    assert planned.exit_code == 0, planned.output
    for expected in (
        "columns.country: (absent) -> string",
        "columns.qty.type: int -> bigint",
        "columns.price.type: decimal(10,2) -> decimal(12,2)",
        "columns.id.required: True -> False",
        "columns.device.model: (absent) -> string",
        "columns.qty.comment: (absent) -> now wide",
    ):
        assert expected in planned.stdout

    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    table = catalog.load_table("lake.events")
    assert table.metadata.properties.get("write.metadata.delete-after-commit.enabled") == "true"
    assert isinstance(table.schema().find_field("qty").field_type, LongType)
    assert not table.schema().find_field("id").required
    assert table.schema().find_field("device.model").field_type == StringType()
    rows = table.scan().to_arrow()
    assert rows.num_rows == 6
    assert rows.column("country").null_count == 6
    assert len(table.snapshots()) == 1
    glue_params = table.metadata_location, before
    assert glue_params[0] != glue_params[1]
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_drop_column_is_destructive(tmp_path: Path, server: LocalGlue, lake_bucket: str) -> None:
    root = _project(tmp_path, server)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _append(_catalog(server).load_table("lake.events"), [_row(1)])
    (root / "lake/tables/events.yaml").write_text(EVENTS.replace("  - {name: kind, type: string}\n", ""))
    assert "(destructive)" in gluecat("plan", str(root)).stdout
    refused = gluecat("apply", str(root), "--auto-approve")
    assert refused.exit_code == 1 and "--allow-destroy" in refused.output
    assert _catalog(server).load_table("lake.events").schema().find_field("kind")
    assert gluecat("apply", str(root), "--auto-approve", "--allow-destroy").exit_code == 0
    table = _catalog(server).load_table("lake.events")
    assert "kind" not in [f.name for f in table.schema().fields]
    assert table.scan().to_arrow().num_rows == 1


def test_partition_spec_and_properties_evolve(tmp_path: Path, server: LocalGlue, lake_bucket: str) -> None:
    root = _project(tmp_path, server)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    evolved = EVENTS.replace('  - {column: id, transform: "bucket[8]"}\n', "  - {column: kind, transform: identity}\n")
    evolved = evolved.replace(
        "  write.parquet.compression-codec: zstd\n", "  write.parquet.compression-codec: null\n  owner.team: data\n"
    )
    (root / "lake/tables/events.yaml").write_text(evolved)
    planned = gluecat("plan", str(root))
    assert "partition_spec: day(ts), bucket[8](id) -> day(ts), identity(kind)" in planned.stdout
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    table = _catalog(server).load_table("lake.events")
    assert [str(f.transform) for f in table.spec().fields] == ["day", "identity"]
    assert "write.parquet.compression-codec" not in table.properties
    assert table.properties["owner.team"] == "data"
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


@pytest.mark.parametrize(
    ("before", "after", "words"),
    [
        ("{name: qty, type: int}", "{name: qty, type: smallint}", None),
        (
            "{name: id, type: bigint, required: true}",
            "{name: id, type: int, required: true}",
            "cannot change bigint to int",
        ),
        ("{name: kind, type: string}", "{name: kind, type: string, required: true}", "cannot be made required"),
        ("{name: kind, type: string}", "{name: kind, type: int}", "cannot change string to int"),
        ("columns:\n", "columns:\n  - {name: extra, type: string, required: true}\n", "cannot be required"),
        ('"decimal(10,2)"', '"decimal(10,4)"', "cannot change decimal(10,2) to decimal(10,4)"),
    ],
)
def test_unsafe_changes_fail_at_plan_time(
    tmp_path: Path, server: LocalGlue, lake_bucket: str, before: str, after: str, words: str | None
) -> None:
    root = _project(tmp_path, server)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "lake/tables/events.yaml").write_text(EVENTS.replace(before, after, 1))
    planned = gluecat("plan", str(root))
    if words is None:  # smallint is an Iceberg int: the same type, no change at all
        assert planned.exit_code == 0 and "No changes" in planned.stdout
        return
    assert planned.exit_code == 1
    assert words in planned.output and "lake.events" in planned.output
    assert isinstance(_catalog(server).load_table("lake.events").schema().find_field("qty").field_type, IntegerType)


def test_concurrent_pyiceberg_writers_lose_no_commit(tmp_path: Path, server: LocalGlue, lake_bucket: str) -> None:
    """Three real pyiceberg writers appending at once through the local Glue: a commit either lands
    or is refused and retried, never reported done and lost (Glue checks VersionId and writes as one)."""
    import threading

    from pyiceberg.exceptions import CommitFailedException
    from pyiceberg.schema import Schema
    from pyiceberg.types import NestedField

    catalog = _catalog(server)
    catalog.create_namespace("race")
    schema = Schema(
        NestedField(1, "writer", LongType(), required=False), NestedField(2, "n", LongType(), required=False)
    )
    catalog.create_table("race.events", schema, location="s3://lake/race/events")
    appends_each, failures = 12, []

    def write(writer: int) -> None:
        mine = _catalog(server)
        for n in range(appends_each):
            for _attempt in range(50):
                table = mine.load_table("race.events")
                try:
                    _append(table, [{"writer": writer, "n": n}])
                    break
                except CommitFailedException:
                    continue
            else:
                failures.append((writer, n))

    threads = [threading.Thread(target=write, args=(w,)) for w in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    rows = catalog.load_table("race.events").scan().to_arrow().to_pylist()
    assert sorted((r["writer"], r["n"]) for r in rows) == [(w, n) for w in range(3) for n in range(appends_each)]
