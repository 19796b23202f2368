"""The lineage of a catalog: every view's reads, and for each table or view what it feeds and what feeds it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gluecat.convert import presto_view
from gluecat.lineage.sql import DIALECTS, Reads, Schema, read_sql
from gluecat.model.table import ViewTable, as_view, columns_of
from gluecat.project.load import Project


@dataclass(frozen=True)
class ViewSql:
    """A view's SQL and the sqlglot dialect it is written in."""

    address: str  # db.view
    database: str
    sql: str
    dialect: str


def view_sql(view: ViewTable, database: str, name: str) -> ViewSql | None:
    """The SQL of a declared view: `sql` in its dialect, or the texts an engine wrote (a Presto view's
    JSON holds Trino SQL; any other text is a Hive/Spark view's, the expanded text when there is one)."""
    address = f"{database}.{name}"
    if view.dialect is not None and view.sql:
        return ViewSql(address, database, view.sql, DIALECTS[view.dialect])
    return texts_sql(address, database, view.view_original_text, view.view_expanded_text)


def texts_sql(address: str, database: str, original: str | None, expanded: str | None) -> ViewSql | None:
    """The SQL inside a view's ViewOriginalText / ViewExpandedText, as Glue or a metastore holds them."""
    presto = presto_view.decode(original)
    if presto is not None:
        schema = presto.get("schema")
        return ViewSql(address, schema if isinstance(schema, str) and schema else database,
                       str(presto["originalSql"]), "trino")  # fmt: skip
    text = expanded if expanded and not expanded.strip().startswith("/*") else original
    if not text or not text.strip():
        return None
    return ViewSql(address, database, text, "hive")


def project_schema(project: Project) -> dict[str, dict[str, tuple[str, ...]]]:
    """db -> table -> column names, partition keys included, of every declared table and view."""
    schema: dict[str, dict[str, tuple[str, ...]]] = {}
    for db in project.databases:
        tables = schema.setdefault(db.name, {})
        for table in db.tables:
            keys = getattr(table.model, "partition_keys", [])
            tables[table.name] = tuple(c.name.lower() for c in (*columns_of(table.model), *keys))
    return schema


def project_views(project: Project) -> list[ViewSql]:
    return [
        sql
        for db in project.databases
        for table in db.tables
        if (view := as_view(table.model)) is not None and (sql := view_sql(view, db.name, table.name)) is not None
    ]


@dataclass(frozen=True)
class Lineage:
    """Each view's reads, and the edges they make: upstream[x] feeds x; downstream[x] is fed by x."""

    views: Mapping[str, Reads]
    upstream: Mapping[str, tuple[str, ...]]
    downstream: Mapping[str, tuple[str, ...]]

    def downstream_views(self, address: str) -> tuple[str, ...]:
        """Every view that reads `address`, directly or through other views, nearest first."""
        seen: list[str] = []
        frontier = list(self.downstream.get(address, ()))
        while frontier:
            view = frontier.pop(0)
            if view in seen or view == address:
                continue
            seen.append(view)
            frontier.extend(self.downstream.get(view, ()))
        return tuple(seen)

    def as_json(self) -> dict[str, Any]:
        nodes = sorted({*self.upstream, *self.downstream, *(t for ts in self.upstream.values() for t in ts)})
        unresolved = sorted({t for reads in self.views.values() for t in reads.unresolved_tables})
        return {
            "nodes": [{"id": node, "view": node in self.views} for node in nodes if node not in unresolved]
            + [{"id": node, "view": False, "unresolved": True} for node in unresolved],
            "edges": [{"from": src, "to": view} for view, srcs in sorted(self.upstream.items()) for src in srcs],
            "columns": [
                {"from": str(ref), "to": f"{view}.{column}"}
                for view, reads in sorted(self.views.items())
                for column, refs in reads.columns.items()
                for ref in refs
            ],
            "views": {view: reads.as_json() for view, reads in sorted(self.views.items())},
        }


def build_lineage(views: Iterable[ViewSql], schema: Schema) -> Lineage:
    reads = {view.address: read_sql(view.sql, view.dialect, view.database, schema) for view in views}
    upstream = {view: (*r.tables, *r.unresolved_tables) for view, r in reads.items()}
    downstream: dict[str, list[str]] = {}
    for view, sources in upstream.items():
        for source in sources:
            downstream.setdefault(source, []).append(view)
    return Lineage(reads, upstream, {k: tuple(sorted(v)) for k, v in downstream.items()})


def project_lineage(project: Project) -> Lineage:
    return build_lineage(project_views(project), project_schema(project))
