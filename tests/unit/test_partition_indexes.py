"""Partition indexes offline: the mistakes Glue refuses only at apply time, named at file:line:column."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gluecat.cli import app
from gluecat.convert.partition_index import index_input, indexes_from_glue
from gluecat.kinds.hive.index_diff import FILTERING, index_changes
from gluecat.model.partition_index import PartitionIndex
from tests.unit.test_validate import make_project

GOOD = """\
storage: parquet
columns:
  - {name: id, type: bigint}
partition_keys:
  - {name: dt, type: string}
  - {name: region, type: string}
  - {name: ts, type: timestamp}
partition_indexes:
  - {name: by_dt, keys: [dt]}
  - {name: by_region_dt, keys: [region, dt]}
"""


def _validate(tmp_path: Path, table: str) -> tuple[int, list[dict[str, Any]]]:
    root = make_project(tmp_path, {"sales/tables/orders.yaml": table})
    result = CliRunner().invoke(app, ["validate", str(root), "--format", "json"])
    return result.exit_code, json.loads(result.output)["findings"]


def test_indexes_on_any_order_of_partition_keys_validate(tmp_path: Path) -> None:
    assert _validate(tmp_path, GOOD) == (0, [])


MISTAKES = [
    # (case, old text, new text, words, line, column)
    ("not a partition key", "keys: [dt]}", "keys: [day]}", "'day' is not a partition key", 9, 26),
    ("repeated key", "[region, dt]", "[region, region]", "key 'region' is repeated", 10, 41),
    ("timestamp key", "keys: [dt]}", "keys: [ts]}", "partition key 'ts' is timestamp", 9, 26),
    ("same name twice", "by_region_dt", "by_dt", "index name 'by_dt' is used twice", 10, 12),
    (
        "a fourth index",
        "  - {name: by_region_dt, keys: [region, dt]}\n",
        "  - {name: b, keys: [region]}\n  - {name: c, keys: [region, dt]}\n  - {name: d, keys: [dt, region]}\n",
        "at most 3 partition indexes",
        12,
        5,
    ),
    ("empty keys", "keys: [dt]}", "keys: []}", "at least 1 item", 9, 25),
]


@pytest.mark.parametrize(("case", "old", "new", "words", "line", "column"), MISTAKES, ids=[m[0] for m in MISTAKES])
def test_index_mistakes_are_named_where_they_are(
    tmp_path: Path, case: str, old: str, new: str, words: str, line: int, column: int
) -> None:
    code, findings = _validate(tmp_path, GOOD.replace(old, new))
    assert code == 1, findings
    matching = [f for f in findings if words in f["message"] and f["severity"] == "error"]
    assert matching, findings
    assert (matching[0]["line"], matching[0]["column"]) == (line, column), matching[0]
    assert matching[0]["path"].endswith("sales/tables/orders.yaml")


def test_indexes_without_partition_keys_are_refused(tmp_path: Path) -> None:
    table = "storage: parquet\ncolumns: [{name: id, type: bigint}]\npartition_indexes: [{name: i, keys: [id]}]\n"
    code, findings = _validate(tmp_path, table)
    assert code == 1
    assert [(f["line"], f["message"]) for f in findings] == [(3, "partition indexes need `partition_keys` to index")]


def test_glue_shapes_both_ways() -> None:
    index = PartitionIndex(name="by_region_dt", keys=["region", "dt"])
    assert index_input(index) == {"IndexName": "by_region_dt", "Keys": ["region", "dt"]}
    live = [
        {"IndexName": "z", "Keys": [{"Name": "dt", "Type": "string"}], "IndexStatus": "ACTIVE"},
        {"IndexName": "by_region_dt", "Keys": [{"Name": "region", "Type": "string"}, {"Name": "dt", "Type": "string"}],
         "IndexStatus": "CREATING"},
        {"IndexName": "old", "Keys": [{"Name": "dt", "Type": "string"}], "IndexStatus": "DELETING"},
    ]  # fmt: skip
    assert indexes_from_glue(live) == [index, PartitionIndex(name="z", keys=["dt"])]


def _live(name: str, keys: list[str], status: str = "ACTIVE", **extra: Any) -> dict[str, Any]:
    return {"IndexName": name, "Keys": [{"Name": k, "Type": "string"} for k in keys], "IndexStatus": status, **extra}


def test_the_diff_adds_removes_and_replaces_by_name_and_keys() -> None:
    declared = [PartitionIndex(name="keep", keys=["dt"]), PartitionIndex(name="rekeyed", keys=["region", "dt"]),
                PartitionIndex(name="new", keys=["region"])]  # fmt: skip
    live = [
        _live("keep", ["dt"]),
        _live("rekeyed", ["dt"]),
        _live("dropped", ["dt"]),
        _live("leaving", ["dt"], "DELETING"),
    ]
    changes = list(index_changes("sales", "orders", declared, live, {FILTERING: "TRUE"}))
    assert [(c.address, c.action.value, c.destructive, c.diffs[0].before, c.diffs[0].after) for c in changes] == [
        ("sales.orders#dropped", "delete", False, "dt", None),
        ("sales.orders#rekeyed", "replace", False, "dt", "region, dt"),
        ("sales.orders#new", "create", False, None, "region"),
    ]
    assert all(not c.findings for c in changes)  # partition filtering is on: nothing to point out
    assert len({c.live_version for c in changes}) == 1


def test_a_failed_index_is_rebuilt_and_creates_note_partition_filtering() -> None:
    failed = _live("by_dt", ["dt"], "FAILED", BackfillErrors=[{"Code": "INTERNAL_ERROR", "Partitions": []}])
    (change,) = index_changes("sales", "orders", [PartitionIndex(name="by_dt", keys=["dt"])], [failed], {})
    assert change.action.value == "replace" and "FAILED: INTERNAL_ERROR" in change.reason
    (created,) = index_changes("sales", "orders", [PartitionIndex(name="by_dt", keys=["dt"])], [], {})
    assert [f.rule for f in created.findings] == ["partition-filtering"]
