"""An Iceberg table rolls back through its own snapshots (pyiceberg), never a Glue version."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import boto3
import pyarrow as pa
from pyiceberg.catalog.glue import GlueCatalog
from pyiceberg.schema import Schema
from pyiceberg.types import LongType, NestedField

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project


def _catalog(server: LocalGlue) -> GlueCatalog:
    client = boto3.client("glue", endpoint_url=server.endpoint_url, region_name="us-east-1")
    properties = {"s3.endpoint": server.endpoint_url, "s3.access-key-id": "testing"}
    properties.update({"s3.secret-access-key": "testing", "s3.region": "us-east-1"})
    return GlueCatalog("test", client=client, **properties)


def _events(server: LocalGlue, tmp_path: Path) -> tuple[Path, list[int]]:
    catalog = _catalog(server)
    catalog.create_namespace("lake")
    schema = Schema(NestedField(1, "n", LongType(), required=False))
    table = catalog.create_table("lake.events", schema, location="s3://lake/lake/events")
    snapshots = []
    for batch in ([1, 2], [3], [4, 5]):
        table.append(pa.Table.from_pylist([{"n": n} for n in batch], schema=table.schema().as_arrow()))
        table = catalog.load_table("lake.events")
        snapshots.append(table.metadata.current_snapshot_id)
    files = {"lake/database.yaml": "location: s3://lake/lake/\n"}
    return write_project(tmp_path / "project", server.endpoint_url, files), snapshots


def _rows(server: LocalGlue) -> list[int]:
    return sorted(r["n"] for r in _catalog(server).load_table("lake.events").scan().to_arrow().to_pylist())


def test_to_snapshot_restores_an_earlier_snapshots_rows(tmp_path: Path, server: LocalGlue, lake_bucket: str) -> None:
    root, snapshots = _events(server, tmp_path)
    assert _rows(server) == [1, 2, 3, 4, 5]
    history = json.loads(gluecat("history", str(root), "lake.events", "--format", "json").output)
    assert [s["snapshot"] for s in history["snapshots"]] == snapshots[::-1]
    # pyiceberg commits with SkipArchive (its glue.skip-archive default): Glue keeps the current version alone
    assert history["snapshots"][0]["current"] and history["versions_kept"] == 1
    human = gluecat("history", str(root), "lake.events").output
    assert f"{snapshots[2]} (current)" in human and "append, 2 rows added" in human
    result = gluecat("rollback", str(root), "lake.events", "--to-snapshot", str(snapshots[0]), "--auto-approve")
    assert result.exit_code == 0, result.output
    assert "undoing 2 commits" in result.output and f"{snapshots[2]} append" in result.output
    assert _rows(server) == [1, 2]
    later = gluecat("rollback", str(root), "lake.events", "--to-snapshot", str(snapshots[2]), "--auto-approve")
    assert later.exit_code == 1 and "not an ancestor" in later.output  # no longer in the current history
    assert _rows(server) == [1, 2]


def test_to_version_is_refused_with_one_line(
    tmp_path: Path, server: LocalGlue, lake_bucket: str, raw_glue: Any
) -> None:
    root, _ = _events(server, tmp_path)
    before = raw_glue.get_table(DatabaseName="lake", Name="events")["Table"]["VersionId"]
    result = gluecat("rollback", str(root), "lake.events", "--to-version", "1", "--auto-approve")
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "Iceberg table" in lines[0] and "--to-snapshot" in lines[0]
    assert raw_glue.get_table(DatabaseName="lake", Name="events")["Table"]["VersionId"] == before
    assert _rows(server) == [1, 2, 3, 4, 5]
