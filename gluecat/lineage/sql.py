"""What a view's SQL reads, parsed by sqlglot in the view's own dialect: tables, and per view column
the table columns it is computed from. Never guessed: what cannot be resolved is reported as such."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError
from sqlglot.optimizer.qualify import qualify
from sqlglot.optimizer.scope import Scope, build_scope

# gluecat's view dialects, and the dialect of raw texts, as sqlglot names them.
DIALECTS = {"athena": "trino", "trino": "trino", "presto": "trino", "spark": "spark", "hive": "hive"}

# db -> table -> column names: what the catalog holds (the project, and with --live the live catalog).
Schema = Mapping[str, Mapping[str, tuple[str, ...]]]


@dataclass(frozen=True)
class ColumnRef:
    table: str  # db.table
    column: str

    def __str__(self) -> str:
        return f"{self.table}.{self.column}"


@dataclass(frozen=True)
class Reads:
    """What one view's SQL reads."""

    tables: tuple[str, ...] = ()  # db.table, known to the catalog
    unresolved_tables: tuple[str, ...] = ()  # named by the SQL, not in the catalog
    columns: Mapping[str, tuple[ColumnRef, ...]] = field(default_factory=dict)  # view column -> sources
    unresolved_columns: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # view column -> what is unknown
    error: str | None = None  # the SQL did not parse

    def as_json(self) -> dict[str, object]:
        return {
            "tables": list(self.tables),
            "unresolved_tables": list(self.unresolved_tables),
            "columns": {name: [str(ref) for ref in refs] for name, refs in self.columns.items()},
            "unresolved_columns": {name: list(what) for name, what in self.unresolved_columns.items()},
            "error": self.error,
        }


def read_sql(sql: str, dialect: str, database: str, schema: Schema) -> Reads:
    """Parse `sql` (unqualified tables resolve in `database`) and say what it reads from `schema`."""
    try:
        tree = sqlglot.parse_one(sql, dialect=dialect)
    except SqlglotError as exc:
        return Reads(error=_first_line(exc))
    if not isinstance(tree, exp.Query):
        return Reads(error=f"not a query: {type(tree).__name__.upper()}")
    tables = _tables(tree, database)
    resolved = tuple(sorted(t for t in tables if _split(t)[1] in schema.get(_split(t)[0], {})))
    # Only the tables the SQL names: qualifying against the whole catalog would cost its size per view.
    known: dict[str, object] = {}
    for table in resolved:
        db, name = _split(table)
        known.setdefault(db, {})[name] = dict.fromkeys(schema[db][name], "text")  # type: ignore[index]
    # When qualifying fails, columns are read from the unqualified tree: fewer resolve, none is guessed.
    with contextlib.suppress(SqlglotError):
        tree = qualify(tree, schema=known, db=database, dialect=dialect, validate_qualify_columns=False)
    unresolved = tuple(sorted(t for t in tables if t not in resolved))
    columns, unknown = _columns(tree, database, schema)
    return Reads(resolved, unresolved, columns, unknown)


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def _split(name: str) -> tuple[str, str]:
    db, _, table = name.partition(".")
    return db, table


def _name(table: exp.Table, database: str) -> str:
    return f"{(table.db or database).lower()}.{table.name.lower()}"


def _tables(tree: exp.Expr, database: str) -> set[str]:
    ctes = {cte.alias_or_name.lower() for cte in tree.find_all(exp.CTE)}
    return {
        _name(table, database)
        for table in tree.find_all(exp.Table)
        if table.name and not (not table.db and table.name.lower() in ctes)
    }


def _columns(
    tree: exp.Expr, database: str, schema: Schema
) -> tuple[dict[str, tuple[ColumnRef, ...]], dict[str, tuple[str, ...]]]:
    try:
        root = build_scope(tree)
    except SqlglotError:
        root = None
    if root is None or not isinstance(tree, exp.Query):
        return {}, {}
    found: dict[str, tuple[ColumnRef, ...]] = {}
    unknown: dict[str, tuple[str, ...]] = {}
    for position, select in enumerate(tree.selects):
        name = select.alias_or_name or f"_col{position}"
        refs, missing = _sources_of(root, name, position, database, schema, depth=0)
        found[name.lower()] = tuple(sorted(set(refs), key=str))
        if missing:
            unknown[name.lower()] = tuple(sorted(set(missing)))
    return found, unknown


MAX_DEPTH = 32  # nested subqueries and CTEs followed; deeper is reported, not followed


def _sources_of(
    scope: Scope, name: str, position: int, database: str, schema: Schema, depth: int
) -> tuple[list[ColumnRef], list[str]]:
    """The table columns a projection of `scope` (by name, else by position) is computed from."""
    if depth > MAX_DEPTH:
        return [], [f"{name}: nested too deep"]
    if scope.set_operation_scopes:
        refs: list[ColumnRef] = []
        missing: list[str] = []
        for branch in scope.set_operation_scopes:
            r, m = _sources_of(branch, name, position, database, schema, depth + 1)
            refs += r
            missing += m
        return refs, missing
    expression = scope.expression
    if not isinstance(expression, exp.Select):
        return [], [name]
    selects = expression.selects
    chosen = next((s for s in selects if s.alias_or_name.lower() == name.lower()), None)
    if chosen is None and 0 <= position < len(selects):
        chosen = selects[position]
    if chosen is None:
        return [], [name]
    if isinstance(chosen, exp.Star) or (isinstance(chosen, exp.Column) and chosen.is_star):
        return [], ["*"]
    refs, missing = [], []
    for column in chosen.find_all(exp.Column):
        r, m = _column_source(scope, column, database, schema, depth)
        refs += r
        missing += m
    return refs, missing


def _column_source(
    scope: Scope, column: exp.Column, database: str, schema: Schema, depth: int
) -> tuple[list[ColumnRef], list[str]]:
    if not column.table:
        return [], [column.name.lower()]
    source = scope.sources.get(column.table)
    if isinstance(source, exp.Table):
        table = _name(source, database)
        db, name = _split(table)
        columns = schema.get(db, {}).get(name)
        if columns is None or column.name.lower() not in columns:
            return [], [f"{table}.{column.name.lower()}"]
        return [ColumnRef(table, column.name.lower())], []
    if isinstance(source, Scope):
        return _sources_of(source, column.name, -1, database, schema, depth + 1)
    return [], [f"{column.table}.{column.name}".lower()]
