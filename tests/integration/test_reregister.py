"""An Iceberg table whose Glue entry is lost is registered again from its metadata, never recreated."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pyiceberg.schema import Schema
from pyiceberg.types import LongType, NestedField

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat
from tests.integration.test_iceberg import _append, _catalog, _project

ROWS = [
    {"id": n, "ts": datetime(2024, 1, n, tzinfo=UTC), "kind": "a", "qty": n, "price": None, "device": None}
    for n in (1, 2, 3)
]
EVENTS_LOCATION = "s3://lake/warehouse/lake.db/events"


def _rows(server: LocalGlue) -> int:
    return len(_catalog(server).load_table("lake.events").scan().to_arrow())


def test_a_lost_iceberg_entry_is_registered_with_its_rows(
    tmp_path: Path, server: LocalGlue, lake_bucket: str, raw_glue: Any
) -> None:
    root = _project(tmp_path, server)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _append(_catalog(server).load_table("lake.events"), ROWS)
    current = raw_glue.get_table(DatabaseName="lake", Name="events")["Table"]["Parameters"]["metadata_location"]
    assert _rows(server) == 3
    raw_glue.delete_table(DatabaseName="lake", Name="events")  # the Glue entry is lost; S3 keeps the table

    planned = gluecat("plan", str(root), "--detailed-exitcode", "--format", "json")
    assert planned.exit_code == 2, planned.output
    [change] = json.loads(planned.stdout)["changes"]
    assert (change["address"], change["action"]) == ("lake.events", "register")
    assert change["desired"] == {"metadata_location": current, "ops": []}
    human = gluecat("plan", str(root))
    assert "+= lake.events" in human.stdout and "register table" in human.stdout
    assert "1 to register" in human.stdout

    server.reset_counts()
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert "1 table registered" in applied.stdout
    assert raw_glue.get_table(DatabaseName="lake", Name="events")["Table"]["Parameters"]["metadata_location"] == current
    assert _rows(server) == 3
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_a_new_iceberg_table_is_never_created_over_one_that_exists(
    tmp_path: Path, server: LocalGlue, lake_bucket: str, raw_glue: Any
) -> None:
    raw_glue.create_database(DatabaseInput={"Name": "lake", "LocationUri": "s3://lake/lake.db/"})
    root = _project(tmp_path, server)
    saved = tmp_path / "plan.json"
    assert gluecat("plan", str(root), "--out", str(saved)).exit_code == 0
    # Meanwhile another tool writes an Iceberg table at that location, registered under another name.
    schema = Schema(NestedField(1, "id", LongType(), required=False))
    other = _catalog(server).create_table("lake.other", schema, location=EVENTS_LOCATION)
    assert other.metadata_location.startswith(EVENTS_LOCATION)

    applied = gluecat("apply", str(saved))
    assert applied.exit_code == 1
    assert "already holds an Iceberg table" in applied.output and "never creates a new table over it" in applied.output
    assert "events" not in [t["Name"] for t in raw_glue.get_tables(DatabaseName="lake")["TableList"]]
