"""Engine library failures during apply are one line naming the table, after the summary of what
was done before; an Iceberg partition transform gluecat cannot read is refused at plan time, never
planned as a safe removal."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import boto3
from pyiceberg.catalog.glue import GlueCatalog
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.transforms import IdentityTransform
from pyiceberg.types import LongType, NestedField, StringType

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

EVENTS = """\
format: iceberg
location: s3://lake/lake.db/events
columns:
  - {name: id, type: bigint}
  - {name: kind, type: string}
partition_spec:
  - {column: kind, transform: identity}
"""
DENIED = "s3://no-such-bucket/events-metadata"
NOTES = "storage: csv\ncolumns:\n  - {name: id, type: bigint}\n"


def _catalog(server: LocalGlue) -> GlueCatalog:
    client = boto3.client("glue", endpoint_url=server.endpoint_url, region_name="us-east-1")
    options = {"s3.endpoint": server.endpoint_url, "s3.access-key-id": "testing", "s3.region": "us-east-1"}
    return GlueCatalog("t", client=client, **options, **{"s3.secret-access-key": "testing"})


def _live_events(server: LocalGlue, raw_glue: Any) -> None:
    raw_glue.create_database(DatabaseInput={"Name": "lake", "LocationUri": "s3://lake/lake.db/"})
    schema = Schema(NestedField(1, "id", LongType()), NestedField(2, "kind", StringType()))
    spec = PartitionSpec(PartitionField(2, 1000, IdentityTransform(), "kind"))
    _catalog(server).create_table("lake.events", schema, location="s3://lake/lake.db/events", partition_spec=spec)


def _rewrite_metadata(server: LocalGlue, raw_glue: Any, change: Callable[[dict[str, Any]], None]) -> None:
    """What another engine (or a hostile writer) can leave: the live metadata file changed by hand,
    Glue pointed at it."""
    table = raw_glue.get_table(DatabaseName="lake", Name="events")["Table"]
    location = table["Parameters"]["metadata_location"]
    s3 = boto3.client("s3", endpoint_url=server.endpoint_url, region_name="us-east-1")
    key = location.removeprefix("s3://lake/")
    metadata = json.loads(s3.get_object(Bucket="lake", Key=key)["Body"].read())
    change(metadata)
    new_key = key.replace(".metadata.json", "-edited.metadata.json")
    s3.put_object(Bucket="lake", Key=new_key, Body=json.dumps(metadata))
    parameters = {**table["Parameters"], "metadata_location": f"s3://lake/{new_key}"}
    table_input = {k: table[k] for k in ("Name", "TableType", "StorageDescriptor") if k in table}
    raw_glue.update_table(DatabaseName="lake", TableInput={**table_input, "Parameters": parameters})


def _project(tmp_path: Path, server: LocalGlue, events: str) -> Path:
    files = {
        "lake/database.yaml": "location: s3://lake/lake.db/\n",
        "lake/tables/events.yaml": events,
        "lake/tables/notes.yaml": NOTES,
    }
    return write_project(tmp_path / "project", server.endpoint_url, files)


def test_a_denied_iceberg_metadata_write_is_one_line_after_the_summary_of_what_was_done(
    tmp_path: Path, server: LocalGlue, lake_bucket: str, raw_glue: Any
) -> None:
    """The new metadata file goes where `write.metadata.path` says: a bucket S3 refuses the write to."""
    _live_events(server, raw_glue)
    _rewrite_metadata(server, raw_glue, lambda metadata: metadata["properties"].update({"write.metadata.path": DENIED}))
    project = _project(
        tmp_path, server, EVENTS + f"properties:\n  write.metadata.path: {DENIED}\ndescription: now described\n"
    )

    applied = gluecat("apply", str(project), "--auto-approve")
    assert applied.exit_code == 1, applied.output
    assert "Traceback" not in applied.output and "unexpected error" not in applied.output
    failures = [line for line in applied.output.splitlines() if line.startswith("failed lake.events")]
    assert failures and all("no-such-bucket" in line or "NoSuchBucket" in line for line in failures), applied.output
    (summary,) = [line for line in applied.output.splitlines() if line.startswith("Apply finished")]
    assert "1 failure" in summary and "1 table created" in summary, "notes was created, and the summary says so"
    assert raw_glue.get_table(DatabaseName="lake", Name="notes")["Table"]["Name"] == "notes"


def test_an_unknown_live_partition_transform_is_refused_at_plan_time(
    tmp_path: Path, server: LocalGlue, lake_bucket: str, raw_glue: Any
) -> None:
    """A transform newer than pyiceberg (written by another engine) is no safe removal."""
    _live_events(server, raw_glue)

    def unknown_transform(metadata: dict[str, Any]) -> None:
        for spec in metadata["partition-specs"]:
            for field in spec["fields"]:
                field["transform"] = "zorder[4]"

    _rewrite_metadata(server, raw_glue, unknown_transform)
    project = _project(tmp_path, server, EVENTS)

    planned = gluecat("plan", str(project))
    assert planned.exit_code == 1, planned.output
    assert "Traceback" not in planned.output and "unexpected error" not in planned.output
    (line,) = [line for line in planned.output.splitlines() if "zorder[4](kind)" in line]
    assert "lake.events" in line and "cannot read or change" in line
    assert "No changes" not in planned.output and "update table" not in planned.output
