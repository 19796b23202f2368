"""Hostile live state a plan, history or rollback meets is shown for what it is, never an
"unexpected error": a column name held twice in two cases, a column without a type."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

ORDERS = """\
storage: csv
columns:
  - {name: order_id, type: bigint}
  - {name: a, type: int}
"""


def _applied(tmp_path: Path, server: LocalGlue) -> Path:
    files = {"sales/database.yaml": "location: s3://lake/sales/\n", "sales/tables/orders.yaml": ORDERS}
    root = write_project(tmp_path / "project", server.endpoint_url, files)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    return root


def _live_columns(raw_glue: Any, columns: list[dict[str, str]]) -> None:
    table = raw_glue.get_table(DatabaseName="sales", Name="orders")["Table"]
    keep = ("Name", "StorageDescriptor", "PartitionKeys", "TableType", "Parameters")
    table_input = {key: table[key] for key in keep if key in table}
    table_input["StorageDescriptor"]["Columns"] = columns
    raw_glue.update_table(DatabaseName="sales", TableInput=table_input)


def _columns(raw_glue: Any) -> list[str]:
    table = raw_glue.get_table(DatabaseName="sales", Name="orders")["Table"]
    return [column["Name"] for column in table["StorageDescriptor"]["Columns"]]


@pytest.mark.parametrize("folded", [True, False], ids=["Glue folds names", "a stand-in that keeps their case"])
@pytest.mark.parametrize("edited", [False, True], ids=["YAML as applied", "YAML changes a type"])
def test_a_column_name_held_twice_live_is_a_finding_on_its_table_and_apply_repairs_it(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, folded: bool, edited: bool
) -> None:
    root = _applied(tmp_path, server)
    server.configure(fold_names=folded)
    _live_columns(
        raw_glue, [{"Name": "order_id", "Type": "bigint"}, {"Name": "a", "Type": "int"}, {"Name": "A", "Type": "int"}]
    )
    if edited:
        path = root / "sales/tables/orders.yaml"
        path.write_text(path.read_text().replace("type: int", "type: bigint"))

    result = gluecat("plan", str(root), "--format", "json", "--detailed-exitcode")
    assert result.exit_code == 2, result.output  # not clean, and not an unexpected error
    (change,) = json.loads(result.output)["changes"]
    assert change["address"] == "sales.orders"
    held_twice = [f for f in change["findings"] if f["rule"] == "duplicate-live-column"]
    assert len(held_twice) == 1 and "twice" in held_twice[0]["message"], change["findings"]
    assert any(d["path"] in ("columns.a", "columns.A") and d["after"] is None for d in change["diffs"]), change

    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    assert _columns(raw_glue) == ["order_id", "a"]
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_rollback_past_a_column_name_held_twice_is_written(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = _applied(tmp_path, server)
    server.configure(fold_names=False)
    _live_columns(
        raw_glue, [{"Name": "order_id", "Type": "bigint"}, {"Name": "a", "Type": "int"}, {"Name": "A", "Type": "int"}]
    )
    result = gluecat("rollback", str(root), "sales.orders", "--to-version", "1", "--auto-approve")
    assert result.exit_code == 0, result.output
    assert "nothing to write" not in result.output
    assert _columns(raw_glue) == ["order_id", "a"]


def test_history_shows_a_column_without_a_type(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = _applied(tmp_path, server)
    _live_columns(raw_glue, [{"Name": "order_id"}, {"Name": "a", "Type": "int"}])
    for output_format in ("human", "json"):
        result = gluecat("history", str(root), "sales.orders", "--format", output_format)
        assert result.exit_code == 0, result.output
        assert "unexpected error" not in result.output and "order_id" in result.output, result.output
