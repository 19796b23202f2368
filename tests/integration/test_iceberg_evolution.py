"""Iceberg evolution as the engines do it, against the local Glue, checked with pyiceberg itself:
partition specs compared by meaning, columns keeping their field ids through renames."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import boto3
import pyarrow as pa
import pytest
from pyiceberg.catalog.glue import GlueCatalog

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

CLICKS = """\
format: iceberg
columns:
  - {name: user_id, type: bigint}
  - {name: ts, type: timestamp}
  - {name: page, type: string}
partition_spec:
  - {column: ts, transform: day}
  - {column: user_id, transform: "bucket[16]"}
"""


def _project(tmp_path: Path, server: LocalGlue, table: str, catalog_extra: str = "") -> Path:
    files = {"lake/database.yaml": "location: s3://lake/lake.db/\n", "lake/tables/clicks.yaml": table}
    return write_project(tmp_path, server.endpoint_url, files, "warehouse: s3://lake/warehouse\n" + catalog_extra)


def _catalog(server: LocalGlue) -> GlueCatalog:
    client = boto3.client("glue", endpoint_url=server.endpoint_url, region_name="us-east-1")
    s3 = {"s3.endpoint": server.endpoint_url, "s3.access-key-id": "testing", "s3.secret-access-key": "testing"}
    return GlueCatalog("test", client=client, **s3, **{"s3.region": "us-east-1"})


def _append(server: LocalGlue, rows: list[dict[str, Any]]) -> None:
    table = _catalog(server).load_table("lake.clicks")
    table.append(pa.Table.from_pylist(rows, schema=table.schema().as_arrow()))


def _rows(start: int, count: int) -> list[dict[str, Any]]:
    at = datetime.datetime(2024, 1, 1, 10)
    return [
        {"user_id": i, "ts": at + datetime.timedelta(hours=i), "page": f"p{i}"} for i in range(start, start + count)
    ]


def _write(root: Path, text: str) -> None:
    (root / "lake/tables/clicks.yaml").write_text(text)


def test_a_spec_in_another_order_is_no_change(tmp_path: Path, server: LocalGlue, lake_bucket: str) -> None:
    root = _project(tmp_path, server, CLICKS)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    swapped = CLICKS.replace(
        '  - {column: ts, transform: day}\n  - {column: user_id, transform: "bucket[16]"}\n',
        '  - {column: user_id, transform: "bucket[16]"}\n  - {column: ts, transform: day}\n',
    )
    assert swapped != CLICKS
    _write(root, swapped)
    planned = gluecat("plan", str(root), "--detailed-exitcode")
    assert planned.exit_code == 0 and "No changes" in planned.stdout, planned.output


def test_day_to_hour_beside_a_bucket_applies_once(tmp_path: Path, server: LocalGlue, lake_bucket: str) -> None:
    root = _project(tmp_path, server, CLICKS)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _append(server, _rows(0, 4))
    first_spec = _catalog(server).load_table("lake.clicks").spec().spec_id
    _write(root, CLICKS.replace("{column: ts, transform: day}", "{column: ts, transform: hour}"))

    planned = gluecat("plan", str(root))
    assert planned.exit_code == 0, planned.output
    assert "partition_spec: day(ts), bucket[16](user_id) -> bucket[16](user_id), hour(ts)" in planned.stdout
    assert "Iceberg appends new fields after the kept ones" in planned.stdout
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    again = gluecat("plan", str(root), "--detailed-exitcode")
    assert again.exit_code == 0 and "No changes" in again.stdout, again.output

    table = _catalog(server).load_table("lake.clicks")
    assert [str(f.transform) for f in table.spec().fields] == ["bucket[16]", "hour"]
    assert first_spec in table.specs() and table.spec().spec_id != first_spec, "the old spec stays for old files"
    _append(server, _rows(4, 2))
    table = _catalog(server).load_table("lake.clicks")
    assert sorted(table.scan().to_arrow().column("user_id").to_pylist()) == list(range(6))
    spec_ids = sorted({task.file.spec_id for task in table.scan().plan_files()})
    assert spec_ids == sorted([first_spec, table.spec().spec_id]), "old files keep their spec, new ones take the new"


def _field_ids(server: LocalGlue) -> dict[str, int]:
    schema = _catalog(server).load_table("lake.clicks").schema()
    return {schema.find_column_name(i) or "": i for i in schema.field_ids}


def test_renamed_from_keeps_the_field_id_and_the_values(tmp_path: Path, server: LocalGlue, lake_bucket: str) -> None:
    root = _project(tmp_path, server, CLICKS)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _append(server, _rows(0, 3))
    page_id = _field_ids(server)["page"]
    renamed = CLICKS.replace("{name: page, type: string}", "{name: url, type: string, renamed_from: page}")
    _write(root, renamed)

    planned = gluecat("plan", str(root), "--format", "json")
    assert planned.exit_code == 0, planned.output
    change = json.loads(planned.stdout)["changes"][0]
    assert change["impact"] == "safe", change
    assert [f["rule"] for f in change["findings"]] == ["iceberg-rename"]
    human = gluecat("plan", str(root)).stdout
    assert "columns.page.name: page -> url" in human and "renamed" in human

    applied = gluecat("apply", str(root), "--auto-approve")  # no --allow-destroy: nothing is dropped
    assert applied.exit_code == 0, applied.output
    assert _field_ids(server)["url"] == page_id and "page" not in _field_ids(server)
    rows = _catalog(server).load_table("lake.clicks").scan().to_arrow().to_pylist()
    assert sorted(r["url"] for r in rows) == ["p0", "p1", "p2"]
    again = gluecat("plan", str(root), "--detailed-exitcode")  # the key stays in the file
    assert again.exit_code == 0 and "No changes" in again.stdout, again.output


def test_a_likely_rename_without_renamed_from_stays_a_drop_and_says_how(
    tmp_path: Path, server: LocalGlue, lake_bucket: str
) -> None:
    root = _project(tmp_path, server, CLICKS)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _write(root, CLICKS.replace("{name: page, type: string}", "{name: url, type: string}"))
    planned = gluecat("plan", str(root), "--format", "json")
    change = json.loads(planned.stdout)["changes"][0]
    assert change["impact"] == "destructive"
    (finding,) = change["findings"]
    assert finding["rule"] == "iceberg-column-drop" and "likely a rename" in finding["message"]
    assert "renamed_from: page" in finding["message"]
    refused = gluecat("apply", str(root), "--auto-approve")
    assert refused.exit_code == 1 and "--allow-destroy" in refused.output
    assert "page" in _field_ids(server)


@pytest.mark.parametrize(
    ("column", "words"),
    [
        ("{name: url, type: string, renamed_from: gone}", "the table has neither `gone` nor `url`"),
        ("{name: url, type: string, renamed_from: nope}\n  - {name: nope, type: string}", "renamed_from: `nope`"),
    ],
)
def test_a_rename_that_cannot_be_is_refused(
    tmp_path: Path, server: LocalGlue, lake_bucket: str, column: str, words: str
) -> None:
    root = _project(tmp_path, server, CLICKS)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _write(root, CLICKS.replace("{name: page, type: string}", column))
    validated = gluecat("validate", str(root))
    planned = gluecat("plan", str(root))
    assert planned.exit_code == 1 or validated.exit_code == 1
    assert words in planned.output + validated.output, planned.output + validated.output
    assert "Traceback" not in planned.output
    assert "page" in _field_ids(server)


NESTED = """\
format: iceberg
columns:
  - {name: id, type: bigint, required: true}
  - {name: qty, type: int}
  - {name: ratio, type: float}
  - {name: price, type: "decimal(10,2)"}
  - {name: device, type: "struct<os:string,model:string,legacy:string>"}
  - {name: scores, type: "array<int>"}
  - {name: counts, type: "map<string,int>"}
"""
EVOLVED = """\
format: iceberg
columns:
  - {name: id, type: bigint, comment: the click's id}
  - {name: qty, type: bigint}
  - {name: ratio, type: double}
  - {name: price, type: "decimal(12,2)"}
  - name: device
    type: "struct<os_name:string,model:string,screen:int>"
    renamed_fields: {os_name: os}
  - {name: scores, type: "array<bigint>"}
  - {name: counts, type: "map<string,bigint>"}
"""


def _nested_rows() -> list[dict[str, Any]]:
    import decimal

    return [
        {"id": i, "qty": i, "ratio": 0.5, "price": decimal.Decimal("1.25"),
         "device": {"os": f"os{i}", "model": "m", "legacy": "x"}, "scores": [i], "counts": [("a", i)]}
        for i in range(3)
    ]  # fmt: skip


def _table(server: LocalGlue, name: str) -> Any:
    return _catalog(server).load_table(f"lake.{name}")


def test_every_evolution_the_spec_allows_is_one_commit(tmp_path: Path, server: LocalGlue, lake_bucket: str) -> None:
    files = {"lake/database.yaml": "location: s3://lake/lake.db/\n", "lake/tables/gadgets.yaml": NESTED}
    root = write_project(tmp_path, server.endpoint_url, files, "warehouse: s3://lake/warehouse\n")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    table = _table(server, "gadgets")
    table.append(pa.Table.from_pylist(_nested_rows(), schema=table.schema().as_arrow()))
    os_id = _table(server, "gadgets").schema().find_field("device.os").field_id
    (root / "lake/tables/gadgets.yaml").write_text(EVOLVED)

    planned = gluecat("plan", str(root))
    assert planned.exit_code == 0, planned.output
    for expected in (
        "columns.id.required: True -> False",
        "columns.id.comment: (absent) -> the click's id",
        "columns.qty.type: int -> bigint",
        "columns.ratio.type: float -> double",
        "columns.price.type: decimal(10,2) -> decimal(12,2)",
        "columns.device.os.name: os -> os_name",
        "columns.device.screen: (absent) -> int",
        "columns.device.legacy: string -> (absent)",
        "columns.scores.element.type: int -> bigint",
        "columns.counts.value.type: int -> bigint",
    ):
        assert expected in planned.stdout, (expected, planned.stdout)
    metadata_files = len(_table(server, "gadgets").metadata.metadata_log)
    applied = gluecat("apply", str(root), "--auto-approve", "--allow-destroy")  # device.legacy goes
    assert applied.exit_code == 0, applied.output
    table = _table(server, "gadgets")
    assert len(table.metadata.metadata_log) == metadata_files + 1, "one commit for the whole plan"
    assert table.schema().find_field("device.os_name").field_id == os_id
    rows = sorted(table.scan().to_arrow().to_pylist(), key=lambda r: r["id"])
    assert [r["device"] for r in rows] == [{"os_name": f"os{i}", "model": "m", "screen": None} for i in range(3)]
    assert [(r["qty"], r["scores"], r["counts"]) for r in rows] == [(i, [i], [("a", i)]) for i in range(3)]
    again = gluecat("plan", str(root), "--detailed-exitcode")
    assert again.exit_code == 0 and "No changes" in again.stdout, again.output


@pytest.mark.parametrize(
    ("before", "after", "words"),
    [
        ('"array<int>"', '"array<string>"', "cannot change int to string"),
        ('"map<string,int>"', '"map<string,smallint>"', None),  # an Iceberg int either way: no change
        ('"map<string,int>"', '"map<int,int>"', "cannot change map<string,int> to map<int,int>"),
        ('"struct<os:string,model:string,legacy:string>"', '"struct<os:int,model:string,legacy:string>"',
         "column device.os: Iceberg cannot change string to int"),
        ("{name: ratio, type: float}", "{name: ratio, type: bigint}", "cannot change float to bigint"),
        ('"decimal(10,2)"', '"decimal(9,2)"', "cannot change decimal(10,2) to decimal(9,2)"),
        ("{name: qty, type: int}", "{name: qty, type: int, required: true}", "cannot be made required"),
    ],
)  # fmt: skip
def test_what_the_spec_does_not_allow_is_refused_with_the_way_out(
    tmp_path: Path, server: LocalGlue, lake_bucket: str, before: str, after: str, words: str | None
) -> None:
    files = {"lake/database.yaml": "location: s3://lake/lake.db/\n", "lake/tables/gadgets.yaml": NESTED}
    root = write_project(tmp_path, server.endpoint_url, files, "warehouse: s3://lake/warehouse\n")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    assert before in NESTED
    (root / "lake/tables/gadgets.yaml").write_text(NESTED.replace(before, after, 1))
    planned = gluecat("plan", str(root))
    if words is None:
        assert planned.exit_code == 0 and "No changes" in planned.stdout, planned.output
        return
    assert planned.exit_code == 1, planned.output
    assert words in planned.output, planned.output
    assert "way out" in planned.output and "Traceback" not in planned.output
