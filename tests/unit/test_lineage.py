"""View lineage: what a view's SQL reads, in its dialect; unresolved references reported, never guessed."""

from __future__ import annotations

import base64
import json
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from gluecat.lineage.graph import build_lineage, texts_sql
from gluecat.lineage.sql import ColumnRef, read_sql

SCHEMA = {
    "sales": {"orders": ("order_id", "customer_id", "amount", "dt"), "customers": ("customer_id", "email", "country")},
    "web": {"clicks": ("user_id", "url")},
}


def test_a_join_reads_both_tables_and_each_view_column_maps_to_its_source() -> None:
    reads = read_sql(
        "SELECT o.order_id, c.country, o.amount * 2 AS doubled FROM orders o JOIN customers c USING (customer_id)",
        "trino",
        "sales",
        SCHEMA,
    )
    assert reads.tables == ("sales.customers", "sales.orders")
    assert reads.columns == {
        "order_id": (ColumnRef("sales.orders", "order_id"),),
        "country": (ColumnRef("sales.customers", "country"),),
        "doubled": (ColumnRef("sales.orders", "amount"),),
    }
    assert not reads.unresolved_tables and not reads.unresolved_columns and reads.error is None


def test_tables_and_columns_outside_the_catalog_are_unresolved_not_guessed() -> None:
    reads = read_sql(
        "SELECT o.amount, x.z, o.nope FROM sales.orders o JOIN other.tbl x ON o.order_id = x.id",
        "trino",
        "sales",
        SCHEMA,
    )
    assert reads.tables == ("sales.orders",)
    assert reads.unresolved_tables == ("other.tbl",)
    assert reads.columns["amount"] == (ColumnRef("sales.orders", "amount"),)
    assert reads.columns["z"] == () and reads.unresolved_columns["z"] == ("other.tbl.z",)
    assert reads.columns["nope"] == () and reads.unresolved_columns["nope"] == ("sales.orders.nope",)


def test_ctes_subqueries_and_unions_are_followed_to_the_tables() -> None:
    sql = (
        "WITH big AS (SELECT order_id AS id, amount FROM sales.orders WHERE amount > 10) "
        "SELECT t.id, t.amount FROM (SELECT id, amount FROM big) t "
        "UNION ALL SELECT user_id, 0 FROM web.clicks"
    )
    reads = read_sql(sql, "spark", "sales", SCHEMA)
    assert reads.tables == ("sales.orders", "web.clicks")
    assert reads.columns["id"] == (ColumnRef("sales.orders", "order_id"), ColumnRef("web.clicks", "user_id"))
    assert reads.columns["amount"] == (ColumnRef("sales.orders", "amount"),)


def test_hive_backticks_and_a_star_over_a_known_table() -> None:
    reads = read_sql("SELECT * FROM `web`.`clicks`", "hive", "default", SCHEMA)
    assert reads.tables == ("web.clicks",)
    assert set(reads.columns) == {"user_id", "url"}
    star = read_sql("SELECT * FROM web.unknown_table", "hive", "web", SCHEMA)
    assert star.unresolved_tables == ("web.unknown_table",) and star.unresolved_columns == {"*": ("*",)}


def test_what_does_not_parse_is_an_error_not_an_exception() -> None:
    assert read_sql("SELECT FROM WHERE (", "trino", "sales", SCHEMA).error
    assert read_sql("DROP TABLE sales.orders", "trino", "sales", SCHEMA).error == "not a query: DROP"


def test_a_presto_views_text_is_read_as_trino_in_its_schema() -> None:
    payload = {"originalSql": "SELECT url FROM clicks", "catalog": "awsdatacatalog", "schema": "web", "columns": []}
    original = "/* Presto View: " + base64.b64encode(json.dumps(payload).encode()).decode() + " */"
    found = texts_sql("web.v", "web", original, "/* Presto View */")
    assert found is not None and (found.sql, found.dialect, found.database) == (
        "SELECT url FROM clicks",
        "trino",
        "web",
    )
    hive = texts_sql("web.h", "web", "SELECT url FROM clicks", "SELECT `clicks`.`url` FROM `web`.`clicks`")
    assert hive is not None and hive.dialect == "hive" and "`web`.`clicks`" in hive.sql
    assert texts_sql("web.e", "web", "", None) is None


def test_the_graph_links_views_of_views_both_ways() -> None:
    from gluecat.lineage.graph import ViewSql

    schema = {**SCHEMA, "sales": {**SCHEMA["sales"], "facts": ("order_id", "country")}}
    views = [
        ViewSql(
            "sales.facts",
            "sales",
            "SELECT o.order_id, c.country FROM orders o JOIN customers c USING (customer_id)",
            "trino",
        ),
        ViewSql("sales.by_country", "sales", "SELECT country, count(*) AS n FROM facts GROUP BY country", "spark"),
    ]
    lineage = build_lineage(views, schema)
    assert lineage.upstream["sales.facts"] == ("sales.customers", "sales.orders")
    assert lineage.downstream["sales.orders"] == ("sales.facts",)
    assert lineage.downstream_views("sales.orders") == ("sales.facts", "sales.by_country")
    graph = lineage.as_json()
    assert {"from": "sales.customers.country", "to": "sales.facts.country"} in graph["columns"]
    assert {"from": "sales.facts", "to": "sales.by_country"} in graph["edges"]


# Prefixed, so no generated alias is an SQL keyword of any dialect.
names = st.text(alphabet=string.ascii_lowercase + "_0123456789", min_size=1, max_size=8).map(lambda n: f"c_{n}")


@settings(max_examples=150, deadline=None)
@given(sql=st.text(max_size=200), dialect=st.sampled_from(["trino", "spark", "hive"]))
def test_any_text_as_sql_never_raises_and_resolves_only_what_the_catalog_holds(sql: str, dialect: str) -> None:
    reads = read_sql(sql, dialect, "sales", SCHEMA)
    for table in reads.tables:
        db, _, name = table.partition(".")
        assert name in SCHEMA.get(db, {})
    for refs in reads.columns.values():
        for ref in refs:
            db, _, name = ref.table.partition(".")
            assert ref.column in SCHEMA[db][name]


@settings(max_examples=100, deadline=None)
@given(
    table=st.sampled_from([("sales", "orders"), ("sales", "customers"), ("web", "clicks")]),
    picks=st.lists(st.integers(min_value=0, max_value=10), min_size=1, max_size=5),
    aliases=st.lists(names, min_size=5, max_size=5, unique=True),
    dialect=st.sampled_from(["trino", "spark", "hive"]),
)
def test_each_generated_projection_maps_to_exactly_the_column_it_selects(
    table: tuple[str, str], picks: list[int], aliases: list[str], dialect: str
) -> None:
    db, name = table
    columns = SCHEMA[db][name]
    chosen = [columns[i % len(columns)] for i in picks]
    select = ", ".join(f"upper(cast({c} AS varchar)) AS {a}" for c, a in zip(chosen, aliases, strict=False))
    reads = read_sql(f"SELECT {select} FROM {db}.{name}", dialect, "sales", SCHEMA)
    assert reads.tables == (f"{db}.{name}",)
    assert reads.columns == {a: (ColumnRef(f"{db}.{name}", c),) for c, a in zip(chosen, aliases, strict=False)}
