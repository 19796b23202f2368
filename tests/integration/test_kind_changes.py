"""A table declared as another kind (a Hive table as a view, a view as a table) is a destructive replace,
and a fresh apply re-checks everything it replaces or deletes after the "yes"."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gluecat.cli import planning
from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import CUSTOMERS, ORDERS, gluecat, sales_project

VIEW = """\
format: view
dialect: athena
sql: SELECT order_id FROM sales.customers
columns:
  - {name: order_id, type: bigint}
"""


def _partitions(raw_glue: Any, table: str) -> list[dict[str, Any]]:
    return raw_glue.get_partitions(DatabaseName="sales", TableName=table)["Partitions"]


def _table_type(raw_glue: Any, table: str) -> str:
    return raw_glue.get_table(DatabaseName="sales", Name=table)["Table"]["TableType"]


def test_a_partitioned_table_becoming_a_view_is_a_destructive_replace(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    assert len(_partitions(raw_glue, "orders")) == 10
    (root / "sales/tables/orders.yaml").write_text(VIEW)

    planned = gluecat("plan", str(root), "--detailed-exitcode")
    assert planned.exit_code == 2
    line = next(x for x in planned.stdout.splitlines() if "sales.orders" in x)
    assert "-/+ sales.orders" in line, planned.stdout
    assert "a table with 10 partitions becomes a view: its partitions are deleted" in line
    assert "(destructive)" in line
    assert "kind-change" in planned.stdout
    as_json = json.loads(gluecat("plan", str(root), "--format", "json").stdout)
    (change,) = [c for c in as_json["changes"] if c["address"] == "sales.orders"]
    assert change["action"] == "replace"
    assert gluecat("plan", str(root), "--fail-on", "destructive").exit_code == 1

    refused = gluecat("apply", str(root), "--auto-approve")
    assert refused.exit_code == 1
    assert "--allow-destroy" in refused.output and "sales.orders" in refused.output
    assert _table_type(raw_glue, "orders") == "EXTERNAL_TABLE", "nothing may change when refused"
    assert len(_partitions(raw_glue, "orders")) == 10

    allowed = gluecat("apply", str(root), "--auto-approve", "--allow-destroy")
    assert allowed.exit_code == 0, allowed.output
    view = raw_glue.get_table(DatabaseName="sales", Name="orders")["Table"]
    assert view["TableType"] == "VIRTUAL_VIEW"
    assert not view.get("PartitionKeys")
    assert _partitions(raw_glue, "orders") == [], "the table's partitions went with it"
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_an_unpartitioned_table_becoming_a_view_says_what_it_loses(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "sales/tables/customers.yaml").write_text(VIEW.replace("sales.customers", "sales.orders"))
    planned = gluecat("plan", str(root))
    assert (
        "-/+ sales.customers" in planned.stdout
        and "a table becomes a view: its location, storage format and SerDe are deleted" in planned.stdout
    ), planned.stdout
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 1
    assert _table_type(raw_glue, "customers") == "EXTERNAL_TABLE"
    assert gluecat("apply", str(root), "--auto-approve", "--allow-destroy").exit_code == 0
    assert _table_type(raw_glue, "customers") == "VIRTUAL_VIEW"


def test_a_view_becoming_a_table_is_a_destructive_replace(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = sales_project(tmp_path, server.endpoint_url, totals=VIEW, ids=VIEW)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "sales/tables/totals.yaml").write_text(ORDERS)  # partitioned
    (root / "sales/tables/ids.yaml").write_text(CUSTOMERS)  # not partitioned: was an update that kept the view's SQL

    planned = gluecat("plan", str(root))
    for name in ("totals", "ids"):
        line = next(x for x in planned.stdout.splitlines() if f"sales.{name} " in x)
        assert f"-/+ sales.{name}" in line, planned.stdout
        assert "a view becomes a table: its definition (SQL) is deleted" in line and "(destructive)" in line

    refused = gluecat("apply", str(root), "--auto-approve")
    assert refused.exit_code == 1 and "--allow-destroy" in refused.output
    assert _table_type(raw_glue, "totals") == "VIRTUAL_VIEW" and _table_type(raw_glue, "ids") == "VIRTUAL_VIEW"

    allowed = gluecat("apply", str(root), "--auto-approve", "--allow-destroy")
    assert allowed.exit_code == 0, allowed.output
    for name in ("totals", "ids"):
        table = raw_glue.get_table(DatabaseName="sales", Name=name)["Table"]
        assert table["TableType"] == "EXTERNAL_TABLE"
        assert "ViewOriginalText" not in table and "presto_view" not in (table.get("Parameters") or {})
    assert len(_partitions(raw_glue, "totals")) == 10
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def _answering_yes(monkeypatch: pytest.MonkeyPatch, meanwhile: Callable[[], None]) -> None:
    """apply without --auto-approve, as at a terminal: `meanwhile` runs while it waits for the "yes"."""

    def confirmed() -> bool:
        meanwhile()
        return True

    monkeypatch.setattr(planning, "_require_terminal", lambda: None)
    monkeypatch.setattr(planning, "_confirmed", confirmed)


def _touch(raw_glue: Any, table: str) -> None:
    """Another writer changes the table: a parameter of its own."""
    live = raw_glue.get_table(DatabaseName="sales", Name=table)["Table"]
    keys = ("Name", "Description", "StorageDescriptor", "PartitionKeys", "TableType", "Parameters",
            "ViewOriginalText", "ViewExpandedText")  # fmt: skip
    shape = {k: live[k] for k in keys if k in live}
    shape["Parameters"] = {**shape.get("Parameters", {}), "owner_team": "someone-else"}
    raw_glue.update_table(DatabaseName="sales", TableInput=shape, VersionId=live["VersionId"])


def test_a_replace_changed_while_apply_waited_is_refused(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "sales/tables/orders.yaml").write_text(VIEW)
    _answering_yes(monkeypatch, lambda: _touch(raw_glue, "orders"))

    refused = gluecat("apply", str(root), "--allow-destroy")
    assert refused.exit_code == 1
    stale = [x for x in refused.output.splitlines() if "stale" in x]
    assert len(stale) == 1 and "sales.orders" in stale[0] and "run plan again" in stale[0].lower(), refused.output
    table = raw_glue.get_table(DatabaseName="sales", Name="orders")["Table"]
    assert table["TableType"] == "EXTERNAL_TABLE" and table["Parameters"]["owner_team"] == "someone-else"
    assert len(_partitions(raw_glue, "orders")) == 10


def test_a_prune_delete_changed_while_apply_waited_is_refused(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = sales_project(tmp_path, server.endpoint_url, catalog_extra="prune: true\n")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "sales/tables/customers.yaml").unlink()
    _answering_yes(monkeypatch, lambda: _touch(raw_glue, "customers"))

    refused = gluecat("apply", str(root), "--allow-destroy")
    assert refused.exit_code == 1
    assert "the plan is stale: sales.customers changed in Glue" in refused.output, refused.output
    customers = raw_glue.get_table(DatabaseName="sales", Name="customers")["Table"]
    assert customers["Parameters"]["owner_team"] == "someone-else"


def test_an_update_changed_while_apply_waited_is_refused_whole(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "sales/tables/customers.yaml").write_text(CUSTOMERS.replace("csv", "json"))
    (root / "sales/tables/fresh.yaml").write_text("storage: orc\n")
    _answering_yes(monkeypatch, lambda: _touch(raw_glue, "customers"))

    refused = gluecat("apply", str(root))
    assert refused.exit_code == 1 and "sales.customers" in refused.output, refused.output
    names = {t["Name"] for t in raw_glue.get_tables(DatabaseName="sales")["TableList"]}
    assert "fresh" not in names, "nothing is changed: the create waits for a plan that is not stale"


def test_nothing_changed_while_apply_waited_applies(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = sales_project(tmp_path, server.endpoint_url, catalog_extra="prune: true\n")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "sales/tables/customers.yaml").unlink()
    (root / "sales/tables/orders.yaml").write_text(VIEW)
    _answering_yes(monkeypatch, lambda: None)

    applied = gluecat("apply", str(root), "--allow-destroy")
    assert applied.exit_code == 0, applied.output
    assert {t["Name"] for t in raw_glue.get_tables(DatabaseName="sales")["TableList"]} == {"orders"}
    assert _table_type(raw_glue, "orders") == "VIRTUAL_VIEW"
