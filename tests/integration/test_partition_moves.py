"""A partition that moves is breaking, as a table that moves is; partitions live and undeclared with
prune off are drift the plan mentions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gluecat.plan.serialize import from_json
from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

EVENTS = """\
storage: parquet
location: s3://lake/db/events/
columns:
  - {name: id, type: bigint}
partition_keys:
  - {name: dt, type: string}
partitions:
"""
DAYS = ["2024-01-01", "2024-01-02", "2024-01-03"]


def _project(root: Path, endpoint: str, entries: str) -> Path:
    files = {"lake/database.yaml": "location: s3://lake/db/\n", "lake/tables/events.yaml": EVENTS + entries}
    return write_project(root, endpoint, files)


def _entries(days: list[str], moved: str | None = None) -> str:
    lines = []
    for day in days:
        where = f", location: 's3://lake/moved/{day}/'" if day == moved else ""
        lines.append(f"  - {{values: {{dt: '{day}'}}{where}}}\n")
    return "".join(lines)


def test_a_moved_partition_is_breaking_and_stops_the_gate(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = _project(tmp_path, server.endpoint_url, _entries(DAYS))
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _project(tmp_path, server.endpoint_url, _entries(DAYS, moved="2024-01-02"))
    human = gluecat("plan", str(root), "--fail-on", "breaking")
    assert human.exit_code == 1, human.output
    assert "Breaking" in human.stdout
    assert "location-change" in human.stdout
    moved_line = "lake.events[dt=2024-01-02]: s3://lake/db/events/dt=2024-01-02/ -> s3://lake/moved/2024-01-02/"
    assert moved_line in human.stdout, human.stdout
    assert "plan fails the gate (fail on breaking): lake.events partitions (breaking)" in human.stderr
    data = json.loads(gluecat("plan", str(root), "--format", "json").stdout)
    (group,) = data["partitions"]
    assert group["impact"] == "breaking"
    assert [f["rule"] for f in group["findings"]] == ["location-change"]
    assert "**(breaking)**" in gluecat("plan", str(root), "--format", "markdown").stdout
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    moved = raw_glue.get_partition(DatabaseName="lake", TableName="events", PartitionValues=["2024-01-02"])
    assert moved["Partition"]["StorageDescriptor"]["Location"] == "s3://lake/moved/2024-01-02/"
    assert gluecat("plan", str(root), "--fail-on", "breaking").exit_code == 0


def test_new_partitions_alone_pass_the_gate(tmp_path: Path, server: LocalGlue) -> None:
    root = _project(tmp_path, server.endpoint_url, _entries(DAYS[:1]))
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _project(tmp_path, server.endpoint_url, _entries(DAYS))
    result = gluecat("plan", str(root), "--fail-on", "breaking")
    assert result.exit_code == 0, result.output
    assert "location-change" not in result.stdout


def test_a_partition_removed_with_prune_off_is_mentioned(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = _project(tmp_path, server.endpoint_url, _entries(DAYS))
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _project(tmp_path, server.endpoint_url, _entries(DAYS[:1]))
    result = gluecat("plan", str(root))
    assert result.exit_code == 0, result.output
    assert "The live catalog matches the YAML" not in result.stdout
    assert "No changes to what the YAML declares." in result.stdout
    assert (
        "2 live partitions of lake.events not in the YAML, left alone (prune is off):"
        " lake.events[dt=2024-01-02], lake.events[dt=2024-01-03]"
    ) in result.stdout
    data = json.loads(gluecat("plan", str(root), "--format", "json").stdout)
    assert data["partitions"][0]["left_alone"] == 2
    assert len(raw_glue.get_partitions(DatabaseName="lake", TableName="events")["Partitions"]) == 3


def test_a_moved_partition_names_the_views_downstream(tmp_path: Path, server: LocalGlue) -> None:
    view = "format: view\ndialect: athena\nsql: SELECT id FROM events\ncolumns: [{name: id, type: bigint}]\n"
    root = _project(tmp_path, server.endpoint_url, _entries(DAYS))
    (root / "lake" / "tables" / "recent.yaml").write_text(view)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _project(tmp_path, server.endpoint_url, _entries(DAYS, moved="2024-01-02"))
    human = gluecat("plan", str(root))
    assert "downstream-views" in human.stdout and "1 view reads this table: lake.recent" in human.stdout
    data = json.loads(gluecat("plan", str(root), "--format", "json").stdout)
    (group,) = data["partitions"]
    assert [f["rule"] for f in group["findings"]] == ["location-change", "downstream-views"]
    assert group["downstream_views"] == ["lake.recent"]
    (loaded,) = from_json(data).partitions  # a saved plan keeps the finding
    assert loaded.findings[-1].message == "1 view reads this table: lake.recent"
    markdown = gluecat("plan", str(root), "--format", "markdown").stdout
    assert "`downstream-views`: 1 view reads this table: lake.recent" in markdown
    new_only = _entries([*DAYS, "2024-01-04"])
    _project(tmp_path, server.endpoint_url, new_only)
    assert "downstream-views" not in gluecat("plan", str(root)).stdout
