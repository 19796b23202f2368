"""Column order of Iceberg tables against the local Glue: a reorder in the file is planned as moves
(pyiceberg's move_first / move_after), safe, one commit, and the next plan is clean; the rows already
written read the same, each column keeping its field id."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import boto3
import pyarrow as pa
from pyiceberg.catalog.glue import GlueCatalog

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

CLICKS = """\
format: iceberg
columns:
  - {name: user_id, type: bigint}
  - {name: ts, type: timestamp}
  - {name: page, type: string}
  - {name: device, type: "struct<os:string,model:string>"}
"""
ROWS = [
    {"user_id": i, "ts": datetime.datetime(2024, 1, 1, i), "page": f"p{i}", "device": {"os": f"o{i}", "model": "m"}}
    for i in range(3)
]


def _project(tmp_path: Path, server: LocalGlue) -> Path:
    files = {"lake/database.yaml": "location: s3://lake/lake.db/\n", "lake/tables/clicks.yaml": CLICKS}
    root = write_project(tmp_path, server.endpoint_url, files, "warehouse: s3://lake/warehouse\n")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    table = _table(server)
    table.append(pa.Table.from_pylist(ROWS, schema=table.schema().as_arrow()))
    return root


def _table(server: LocalGlue) -> Any:
    client = boto3.client("glue", endpoint_url=server.endpoint_url, region_name="us-east-1")
    s3 = {"s3.endpoint": server.endpoint_url, "s3.access-key-id": "testing", "s3.secret-access-key": "testing"}
    return GlueCatalog("test", client=client, **s3, **{"s3.region": "us-east-1"}).load_table("lake.clicks")


def _ids(server: LocalGlue) -> dict[str, int]:
    schema = _table(server).schema()
    return {schema.find_column_name(i) or "": i for i in schema.field_ids}


def _columns(text: str) -> str:
    return "format: iceberg\ncolumns:\n" + "".join(f"  - {c}\n" for c in text.strip().splitlines())


def _applies_once_and_replans_clean(root: Path, server: LocalGlue) -> None:
    commits = len(_table(server).metadata.metadata_log)
    applied = gluecat("apply", str(root), "--auto-approve")  # no --allow-destroy: nothing is dropped
    assert applied.exit_code == 0, applied.output
    assert len(_table(server).metadata.metadata_log) == commits + 1, "one commit"
    again = gluecat("plan", str(root), "--detailed-exitcode")
    assert again.exit_code == 0 and "No changes" in again.stdout, again.output


def test_a_reorder_in_the_file_is_planned_as_safe_moves(tmp_path: Path, server: LocalGlue, lake_bucket: str) -> None:
    root = _project(tmp_path, server)
    ids = _ids(server)
    reordered = """
        {name: page, type: string}
        {name: user_id, type: bigint}
        {name: device, type: "struct<model:string,os:string>"}
        {name: ts, type: timestamp}
    """
    (root / "lake/tables/clicks.yaml").write_text(_columns(reordered))

    planned = gluecat("plan", str(root), "--format", "json")
    assert planned.exit_code == 0, planned.output
    (change,) = json.loads(planned.stdout)["changes"]
    assert change["impact"] == "safe" and not change["destructive"], change
    assert {op["op"] for op in change["desired"]["ops"]} == {"move_column"}, change["desired"]["ops"]
    assert {f["rule"] for f in change["findings"]} == {"iceberg-column-move"}
    human = gluecat("plan", str(root)).stdout
    assert "column_order: user_id, ts, page, device -> page, user_id, device, ts" in human, human
    assert "columns.device.field_order: os, model -> model, os" in human, human

    _applies_once_and_replans_clean(root, server)
    table = _table(server)
    assert [f.name for f in table.schema().fields] == ["page", "user_id", "device", "ts"]
    assert [f.name for f in table.schema().find_field("device").field_type.fields] == ["model", "os"]
    assert _ids(server) == ids, "every column keeps its field id"
    rows = sorted(table.scan().to_arrow().to_pylist(), key=lambda r: r["user_id"])
    assert [(r["page"], r["device"]["os"], r["ts"]) for r in rows] == [
        (r["page"], r["device"]["os"], r["ts"]) for r in ROWS
    ]


def test_renamed_and_added_columns_land_where_the_file_puts_them(
    tmp_path: Path, server: LocalGlue, lake_bucket: str
) -> None:
    root = _project(tmp_path, server)
    page_id = _ids(server)["page"]
    evolved = """
        {name: url, type: string, renamed_from: page}
        {name: user_id, type: bigint}
        {name: ref, type: string}
        {name: ts, type: timestamp}
        {name: device, type: "struct<os:string,model:string>"}
    """
    (root / "lake/tables/clicks.yaml").write_text(_columns(evolved))
    planned = gluecat("plan", str(root))
    assert planned.exit_code == 0, planned.output
    assert "column_order: user_id, ts, url, device, ref -> url, user_id, ref, ts, device" in planned.stdout, (
        planned.stdout
    )

    _applies_once_and_replans_clean(root, server)
    table = _table(server)
    assert [f.name for f in table.schema().fields] == ["url", "user_id", "ref", "ts", "device"]
    assert _ids(server)["url"] == page_id
    rows = sorted(table.scan().to_arrow().to_pylist(), key=lambda r: r["user_id"])
    assert [(r["url"], r["ref"]) for r in rows] == [(f"p{i}", None) for i in range(3)]


def test_a_dropped_column_leaves_the_others_in_order_without_moves(
    tmp_path: Path, server: LocalGlue, lake_bucket: str
) -> None:
    root = _project(tmp_path, server)
    (root / "lake/tables/clicks.yaml").write_text(CLICKS.replace("  - {name: ts, type: timestamp}\n", ""))
    (change,) = json.loads(gluecat("plan", str(root), "--format", "json").stdout)["changes"]
    assert [op["op"] for op in change["desired"]["ops"]] == ["delete_column"], change["desired"]["ops"]
