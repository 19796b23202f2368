"""`gluecat docs`: the site's files, the JSON graph, and what --live adds from a live catalog."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gluecat.sandbox.server import LocalGlue
from tests.docs_project import EXAMPLE, example_with_views
from tests.integration.helpers import gluecat, write_project


def _script_data(path: Path, head: str) -> Any:
    text = path.read_text(encoding="utf-8")
    assert text.startswith(head) and text.rstrip().endswith(");"), path
    body = text[len(head) : text.rstrip().rindex(");")]
    return json.loads(body.split(", ", 1)[1] if head == "GLUECAT.page(" else body)


def _declared(root: Path) -> set[str]:
    return {f"{p.parents[1].name}.{p.stem}" for p in root.glob("*/tables/*.yaml")}


def test_the_example_builds_a_site_with_a_page_for_every_table(tmp_path: Path) -> None:
    site = tmp_path / "site"
    result = gluecat("docs", str(EXAMPLE), "--out", str(site))
    assert result.exit_code == 0, result.output
    assert {p.name for p in site.iterdir()} >= {"index.html", "app.js", "style.css", "catalog.json", "data"}
    catalog = _script_data(site / "data" / "catalog.js", "GLUECAT.catalog(")
    listed = {f"{db['name']}.{t[0]}": t[1] for db in catalog["databases"] for t in db["tables"]}
    assert set(listed) == _declared(EXAMPLE)
    for address, number in listed.items():
        page = _script_data(site / "data" / "t" / f"{number}.js", "GLUECAT.page(")
        assert page["id"] == address
        assert (EXAMPLE / page["file"]).is_file()
    orders = _script_data(site / "data" / "t" / f"{listed['sales.orders']}.js", "GLUECAT.page(")
    assert orders["partitions"]["count"] == 92
    assert orders["partitions"]["ranges"]["dt"] == ["2023-12-31", "2024-03-31"]
    assert [c["name"] for c in orders["partition_keys"]] == ["dt"]
    assert {"name": "order_id", "type": "bigint", "comment": "Unique order id"} in orders["columns"]
    events = _script_data(site / "data" / "t" / f"{listed['lake.events']}.js", "GLUECAT.page(")
    assert events["details"]["partition_spec"][1] == {"column": "user_id", "transform": "bucket[16]"}
    assert events["details"]["sort_order"] == [{"column": "ts"}]
    # Nothing in the HTML reaches outside the folder.
    html = (site / "index.html").read_text()
    assert "http://" not in html.replace("http://www.w3.org", "") and "https://" not in html


def test_search_index_holds_every_column_with_its_comment(tmp_path: Path) -> None:
    site = tmp_path / "site"
    assert gluecat("docs", str(EXAMPLE), "--out", str(site)).exit_code == 0
    entries = _script_data(site / "data" / "search.js", "GLUECAT.searchIndex(")
    columns = {e[2]: e[3] for e in entries if e[0] == "column"}
    assert columns["sales.orders.order_id"] == "Unique order id"
    assert "sales.orders.dt" in columns and "lake.products.dimensions" in columns


def test_json_gives_the_lineage_graph_of_views_over_tables(tmp_path: Path) -> None:
    project = example_with_views(tmp_path / "cat")
    result = gluecat("docs", str(project), "--format", "json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    graph = document["lineage"]
    assert {"from": "sales.orders", "to": "sales.order_facts"} in graph["edges"]
    assert {"from": "sales.customers", "to": "sales.order_facts"} in graph["edges"]
    assert {"from": "sales.order_facts", "to": "sales.country_revenue"} in graph["edges"]
    assert {"from": "sales.customers.country", "to": "sales.order_facts.country"} in graph["columns"]
    assert {"from": "sales.order_facts.amount", "to": "sales.country_revenue.revenue"} in graph["columns"]
    pages = {t["id"]: t for db in document["databases"] for t in db["tables"]}
    assert pages["sales.orders"]["lineage"]["downstream"] == ["sales.order_facts"]
    assert pages["sales.customers"]["lineage"]["feeds"] == {"country": ["sales.order_facts.country"]}
    assert pages["sales.order_facts"]["lineage"]["upstream"] == ["sales.customers", "sales.orders"]
    assert pages["sales.order_facts"]["file"] == "sales/tables/order_facts.yaml"


def test_secret_parameters_never_reach_the_site(tmp_path: Path) -> None:
    files = {
        "raw/database.yaml": "location: s3://lake/raw/\n",
        "raw/tables/feed.yaml": (
            "storage: json\ncolumns: [{name: id, type: bigint}]\n"
            "parameters: {jdbc.password: hunter2-secret, owner_team: data}\n"
        ),
    }
    project = write_project(tmp_path / "cat", "http://127.0.0.1:9", files)
    site = tmp_path / "site"
    assert gluecat("docs", str(project), "--out", str(site)).exit_code == 0
    written = "".join(p.read_text() for p in site.rglob("*") if p.is_file())
    assert "hunter2-secret" not in written and "owner_team" in written


def test_bad_input_is_one_line_naming_the_file(tmp_path: Path) -> None:
    files = {"raw/database.yaml": "location: s3://lake/raw/\n", "raw/tables/feed.yaml": "storage: jsn\ncolumns: []\n"}
    project = write_project(tmp_path / "cat", "http://127.0.0.1:9", files)
    result = gluecat("docs", str(project), "--out", str(tmp_path / "site"))
    assert result.exit_code == 1
    assert "feed.yaml:1" in result.output and "did you mean 'json'" in result.output
    assert "Traceback" not in result.output
    (tmp_path / "file").write_text("")
    result = gluecat("docs", str(EXAMPLE), "--out", str(tmp_path / "file"))
    assert result.exit_code == 1 and "is a file" in result.output


def test_live_adds_versions_partition_counts_and_undeclared_objects(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    files = {
        "sales/database.yaml": "location: s3://lake/sales/\n",
        "sales/tables/orders.yaml": """\
            storage: parquet
            columns: [{name: order_id, type: bigint}, {name: amount, type: double}]
            partition_keys: [{name: dt, type: string}]
            partitions:
              - expand: {dt: {from: 2024-01-01, to: 2024-01-05}}
            """,
    }
    project = write_project(tmp_path / "cat", server.endpoint_url, files)
    assert gluecat("apply", str(project), "--auto-approve").exit_code == 0
    raw_glue.create_table(
        DatabaseName="sales",
        TableInput={
            "Name": "big_orders",
            "TableType": "VIRTUAL_VIEW",
            "ViewOriginalText": "SELECT order_id, amount FROM sales.orders WHERE amount > 100",
            "ViewExpandedText": "SELECT `orders`.`order_id`, `orders`.`amount` FROM `sales`.`orders`",
            "StorageDescriptor": {
                "Columns": [{"Name": "order_id", "Type": "bigint"}, {"Name": "amount", "Type": "double"}]
            },
        },
    )
    raw_glue.create_database(DatabaseInput={"Name": "scratch"})
    result = gluecat("docs", str(project), "--live", "--format", "json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    pages = {t["id"]: t for db in document["databases"] for t in db["tables"]}
    assert pages["sales.orders"]["live"]["Partitions"] == 5
    assert pages["sales.orders"]["live"]["VersionId"]
    view = pages["sales.big_orders"]
    assert view["unmanaged"] is True and view["kind"] == "view" and view["dialect"] == "hive"
    assert view["lineage"]["upstream"] == ["sales.orders"]
    assert pages["sales.orders"]["lineage"]["downstream"] == ["sales.big_orders"]
    assert view["lineage"]["reads"]["columns"]["amount"] == ["sales.orders.amount"]
    assert {"name": "scratch", "unmanaged": True}.items() <= next(
        d for d in document["databases"] if d["name"] == "scratch"
    ).items()
