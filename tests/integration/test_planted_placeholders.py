"""A placeholder planted in live Glue text never receives a value from the applying process's
environment: live parameters, column parameters and partition parameters holding
`(sensitive:NAME)`, beside or inside an Athena view payload, in JSON or %-escaped, go through
`plan --out` and `apply plan.json` and are in Glue afterwards exactly as they were."""

from __future__ import annotations

import base64
import json
import urllib.parse
from pathlib import Path
from typing import Any

import pytest

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

PLANT = "(sensitive:ANY_VAR)"
LEAK = "LEAKED-FROM-CI-ENVIRONMENT"


def _payload(body: str) -> str:
    return "/* Presto View: " + base64.b64encode(body.encode("utf-8")).decode("ascii") + " */"


SHAPES = {
    "beside a payload": f"{PLANT} /* Presto View: e30= */",
    "inside a payload": _payload(json.dumps({"originalSql": f"SELECT '{PLANT}'"}, indent=1)),
    "nested payloads": _payload(json.dumps({"originalSql": _payload(json.dumps({"originalSql": PLANT}))})),
    "json": json.dumps({"note": PLANT, "form": "(sensitive:ANY_VAR@path)"}),
    "percent-escaped": urllib.parse.quote(PLANT, safe="") + " " + PLANT,
    "escaped already": "(sensitive::ANY_VAR) (sensitive:@live) " + PLANT,
}
TABLE = "storage: csv\ncolumns:\n  - {name: id, type: bigint}\npartition_keys:\n  - {name: dt, type: string}\n"


@pytest.mark.parametrize("planted", list(SHAPES.values()), ids=list(SHAPES))
def test_a_planted_placeholder_is_applied_back_exactly_and_never_expanded(
    planted: str, tmp_path: Path, server: LocalGlue, raw_glue: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        "sales/database.yaml": "location: s3://lake/sales/\n",
        "sales/tables/t.yaml": TABLE + "partitions:\n  - values: {dt: a}\n",
    }
    root = write_project(tmp_path / "project", server.endpoint_url, files)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    table = raw_glue.get_table(DatabaseName="sales", Name="t")["Table"]
    table_input = {k: table[k] for k in ("Name", "TableType", "StorageDescriptor", "PartitionKeys")}
    table_input["Parameters"] = {**table["Parameters"], "note": planted}
    table_input["StorageDescriptor"]["Parameters"] = {"note": planted}
    raw_glue.update_table(DatabaseName="sales", TableInput=table_input)
    (partition,) = raw_glue.get_partitions(DatabaseName="sales", TableName="t")["Partitions"]
    raw_glue.update_partition(
        DatabaseName="sales", TableName="t", PartitionValueList=["a"],
        PartitionInput={"Values": ["a"], "StorageDescriptor": partition["StorageDescriptor"], "Parameters": {"note": planted}},
    )  # fmt: skip
    (root / "sales/tables/t.yaml").write_text(
        TABLE + "description: now described\npartitions:\n  - values: {dt: a}\n    location: s3://lake/moved/dt=a/\n"
    )

    saved = tmp_path / "plan.json"
    planned = gluecat("plan", str(root), "--out", str(saved))
    assert planned.exit_code == 0, planned.output
    monkeypatch.setenv("ANY_VAR", LEAK)
    applied = gluecat("apply", str(saved))
    assert applied.exit_code == 0, applied.output

    after = raw_glue.get_table(DatabaseName="sales", Name="t")["Table"]
    assert after["Description"] == "now described"
    assert after["Parameters"]["note"] == planted
    assert after["StorageDescriptor"]["Parameters"] == {"note": planted}
    (moved,) = raw_glue.get_partitions(DatabaseName="sales", TableName="t")["Partitions"]
    assert moved["StorageDescriptor"]["Location"] == "s3://lake/moved/dt=a/"
    assert moved["Parameters"] == {"note": planted}
    assert LEAK not in json.dumps(after, default=str) + json.dumps(moved, default=str) + applied.output
