"""A breaking change to a table names the views downstream of it; markdown plans link tables to the docs site."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

ORDERS = """\
storage: parquet
columns:
  - {name: order_id, type: bigint}
  - {name: %s, type: double}
"""
FACTS = """\
format: view
dialect: athena
sql: SELECT order_id, amount FROM orders
columns:
  - {name: order_id, type: bigint}
  - {name: amount, type: double}
"""
DAILY = """\
format: view
dialect: spark
sql: SELECT count(*) AS n FROM sales.facts
columns:
  - {name: n, type: bigint}
"""


def _project(root: Path, endpoint: str, amount: str, catalog_extra: str = "") -> Path:
    files = {
        "sales/database.yaml": "location: s3://lake/sales/\n",
        "sales/tables/orders.yaml": ORDERS % amount,
        "sales/tables/customers.yaml": "storage: csv\ncolumns: [{name: id, type: bigint}]\n",
        "sales/tables/facts.yaml": FACTS,
        "sales/tables/daily.yaml": DAILY,
    }
    return write_project(root, endpoint, files, catalog_extra)


def _findings(plan: dict[str, Any], address: str) -> list[dict[str, Any]]:
    change = next(c for c in plan["changes"] if c["address"] == address)
    return change["findings"]  # type: ignore[no-any-return]


def test_a_breaking_change_names_the_views_reading_the_table_directly_or_not(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    root = _project(tmp_path / "cat", server.endpoint_url, "amount")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    raw_glue.create_table(  # a view someone made by hand, reading the same table
        DatabaseName="sales",
        TableInput={
            "Name": "adhoc",
            "TableType": "VIRTUAL_VIEW",
            "ViewOriginalText": "SELECT amount FROM sales.orders",
            "StorageDescriptor": {"Columns": [{"Name": "amount", "Type": "double"}]},
        },
    )
    _project(tmp_path / "cat", server.endpoint_url, "total")  # a rename: Parquet reads by name
    planned = gluecat("plan", str(root), "--format", "json")
    assert planned.exit_code == 0, planned.output
    plan = json.loads(planned.stdout)
    found = [f for f in _findings(plan, "sales.orders") if f["rule"] == "downstream-views"]
    assert len(found) == 1 and found[0]["impact"] == "breaking"
    assert found[0]["message"] == "3 views read this table: sales.adhoc, sales.facts, sales.daily"
    human = gluecat("plan", str(root))
    assert "sales.facts, sales.daily" in human.stdout


def test_a_safe_change_names_no_views(tmp_path: Path, server: LocalGlue) -> None:
    root = _project(tmp_path / "cat", server.endpoint_url, "amount")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "sales" / "tables" / "orders.yaml").write_text(ORDERS % "amount" + "description: now described\n")
    plan = json.loads(gluecat("plan", str(root), "--format", "json").stdout)
    assert [f for f in _findings(plan, "sales.orders") if f["rule"] == "downstream-views"] == []


def test_markdown_links_each_changed_table_and_database_to_its_docs_page(tmp_path: Path, server: LocalGlue) -> None:
    root = _project(tmp_path / "cat", server.endpoint_url, "amount", "docs_url: https://data.example.com/catalog/\n")
    text = gluecat("plan", str(root), "--format", "markdown").stdout
    assert "[`sales.orders`](https://data.example.com/catalog/index.html#/t/sales.orders)" in text
    assert "[`sales.facts`](https://data.example.com/catalog/index.html#/t/sales.facts)" in text
    assert "| [`sales`](https://data.example.com/catalog/index.html#/db/sales) |" in text
    plain = gluecat("plan", str(_project(tmp_path / "plain", server.endpoint_url, "amount")), "--format", "markdown")
    assert "](" not in plain.stdout
