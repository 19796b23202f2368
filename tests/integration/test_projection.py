"""Typed partition projection against the local Glue: exact parameters, typed diffs, real-world tables import clean."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gluecat.sandbox.server import LocalGlue
from tests.corpus import load_corpus
from tests.integration.helpers import gluecat, write_project

EVENTS = """\
storage: parquet
columns:
  - {name: id, type: bigint}
partition_keys:
  - {name: dt, type: string}
  - {name: hr, type: int}
projection:
  location_template: "s3://lake/sales/events/${dt}/${hr}/"
  keys:
    dt: {type: date, range: [2023-01-01, NOW], format: yyyy-MM-dd}
    hr: {type: integer, range: [0, 23], digits: 2}
"""


def _project(root: Path, endpoint: str, events: str) -> Path:
    files = {"sales/database.yaml": "location: s3://lake/sales/\n", "sales/tables/events.yaml": events}
    return write_project(root, endpoint, files)


def test_projection_applies_as_athena_parameters_and_diffs_typed(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    root = _project(tmp_path, server.endpoint_url, EVENTS)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    parameters = raw_glue.get_table(DatabaseName="sales", Name="events")["Table"]["Parameters"]
    assert {k: v for k, v in parameters.items() if k.startswith(("projection.", "storage."))} == {
        "projection.enabled": "true",
        "projection.dt.type": "date",
        "projection.dt.range": "2023-01-01,NOW",
        "projection.dt.format": "yyyy-MM-dd",
        "projection.hr.type": "integer",
        "projection.hr.range": "0,23",
        "projection.hr.digits": "2",
        "storage.location.template": "s3://lake/sales/events/${dt}/${hr}/",
    }
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0

    changed = EVENTS.replace("[2023-01-01, NOW]", "[2024-01-01, NOW]").replace(", digits: 2", "")
    (root / "sales/tables/events.yaml").write_text(changed)
    planned = gluecat("plan", str(root))
    assert "projection.keys.dt.range: 2023-01-01,NOW -> 2024-01-01,NOW" in planned.stdout, planned.stdout
    assert "projection.keys.hr.digits: 2 -> (absent)" in planned.stdout, planned.stdout
    assert "parameters.projection" not in planned.stdout  # never the raw strings

    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    parameters = raw_glue.get_table(DatabaseName="sales", Name="events")["Table"]["Parameters"]
    assert parameters["projection.dt.range"] == "2024-01-01,NOW"
    assert "projection.hr.digits" not in parameters  # owned by the typed shape: removed, not kept
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_live_spelling_of_projection_never_diffs(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = _project(tmp_path, server.endpoint_url, EVENTS)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    table = raw_glue.get_table(DatabaseName="sales", Name="events")["Table"]
    parameters = {**table["Parameters"], "projection.enabled": "TRUE", "projection.dt.type": " Date ",
                  "projection.hr.range": " 0 , 23 ", "projection.hr.type": "INTEGER"}  # fmt: skip
    raw_glue.update_table(DatabaseName="sales", TableInput={
        "Name": "events", "Parameters": parameters, "StorageDescriptor": table["StorageDescriptor"],
        "PartitionKeys": table["PartitionKeys"], "TableType": table["TableType"]})  # fmt: skip
    planned = gluecat("plan", str(root), "--detailed-exitcode")
    assert planned.exit_code == 0, planned.output


PROJECTED = [e for e in load_corpus() if "projection.type" in str(e["table_input"].get("Parameters"))
             or any(k.endswith(".type") and k.startswith("projection.") for k in e["table_input"].get("Parameters") or {})]  # fmt: skip


@pytest.mark.parametrize("entry", PROJECTED, ids=[e["file"] for e in PROJECTED])
def test_real_world_projected_tables_import_typed_and_plan_clean(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, entry: dict[str, Any]
) -> None:
    database = entry["database"].lower()
    raw_glue.create_database(DatabaseInput={"Name": database, "LocationUri": f"s3://lake/{database}/"})
    raw_glue.create_table(DatabaseName=database, TableInput=entry["table_input"])
    root = tmp_path / "imported"
    root.mkdir()
    (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
    imported = gluecat("import", str(root))
    assert imported.exit_code == 0, imported.output
    name = entry["table_input"]["Name"].lower()
    text = (root / database / "tables" / f"{name}.yaml").read_text()
    assert "projection:\n" in text and "projection.enabled" not in text, text
    planned = gluecat("plan", str(root), "--detailed-exitcode")
    assert planned.exit_code == 0, planned.output


def test_a_long_enum_change_shows_what_was_added_and_removed(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    tenants = [f"tenant-{i:04d}" for i in range(2000)]
    table = EVENTS.replace("hr: {type: integer, range: [0, 23], digits: 2}", "hr: {type: enum, values: [%s]}").replace(
        "{name: hr, type: int}", "{name: hr, type: string}"
    )
    root = _project(tmp_path, server.endpoint_url, table % ", ".join(tenants))
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    edited = [*tenants[1:], "tenant-new"]
    (root / "sales/tables/events.yaml").write_text(table % ", ".join(edited))
    planned = gluecat("plan", str(root))
    assert "projection.keys.hr.values: 2000 values -> 2000 values (+tenant-new; -tenant-0000)" in planned.stdout
    assert "tenant-0001" not in planned.stdout and len(planned.stdout) < 2000, planned.stdout
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    parameters = raw_glue.get_table(DatabaseName="sales", Name="events")["Table"]["Parameters"]
    assert parameters["projection.hr.values"] == ",".join(edited)
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0
