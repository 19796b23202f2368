"""Views (`format: view`): Athena's (Presto JSON in ViewOriginalText) and Spark's (SQL text)."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from typing import Any

from gluecat.changes import impact
from gluecat.changes.model import Action, Change, FieldDiff, PartitionChanges
from gluecat.convert.extra import VIEW_STORAGE_KEYS, VIEW_TABLE_KEYS
from gluecat.convert.locations import slashless
from gluecat.convert.parameters import diffed, managed
from gluecat.convert.shapes import TABLE_INPUT_KEYS
from gluecat.convert.view import description_in_text, view_table_input
from gluecat.kinds.base import AdoptContext, Kind, PartitionSink, PlanContext, Reads, Rule, Writer, allowing
from gluecat.kinds.glue_diff import (
    ABSENT,
    carry_over,
    column_diffs,
    column_name,
    extra_diffs,
    is_column_shape,
    merge_columns,
    parameter_diffs,
    scalar_diffs,
    version_of,
)
from gluecat.kinds.view.view_diff import view_owned_free, view_text_diffs
from gluecat.model import CatalogConfig, Database, ViewTable
from gluecat.project import checks
from gluecat.project.checks import Hit
from gluecat.project.engine_check import view_problems
from gluecat.project.load import LoadedDatabase, LoadedTable

Shape = dict[str, Any]


class ViewKind:
    format = "view"
    model = ViewTable
    spark_catalog: str | None = "hive"  # Spark reads views through its Hive catalog
    evolves = True
    noun = "a view"
    view = True

    def claims(self, live: Shape) -> bool:
        return live.get("TableType") == "VIRTUAL_VIEW"

    def writer(self, action: Action, desired: Mapping[str, object] | None) -> Writer:
        return Writer.CATALOG

    def table_input(self, table: ViewTable, database: Database, ignore: tuple[str, ...]) -> Shape:
        shape: Shape = dict(view_table_input(table, database.name))
        shape["Parameters"] = managed(shape["Parameters"], ignore)
        return shape

    def reads(self, table: ViewTable, database: LoadedDatabase, config: CatalogConfig) -> Reads:
        # Only a live partitioned table the view would replace is read (`sink`): to count what is lost.
        return Reads(partitions=True)

    def sink(
        self, table: ViewTable, database: LoadedDatabase, live: Shape, config: CatalogConfig, was: Kind[Any]
    ) -> PartitionSink | None:
        if was.view or not live.get("PartitionKeys"):
            return None
        return _Count()

    def changes(
        self, table: ViewTable, loaded: LoadedTable, database: LoadedDatabase, context: PlanContext
    ) -> Iterator[Change | PartitionChanges]:
        counted = context.live.partitions.get((database.name, loaded.name))
        partitions = counted.count if isinstance(counted, _Count) else None
        live = context.live_table(database.name, loaded.name)
        trino = "trino" in context.config.readers
        was = context.recognise(live) if live is not None else self
        change = view_change(database, table, live, was, context.ignore, partitions, trino)
        if change:
            yield allowing(change, table)

    def rules(self) -> tuple[Rule, ...]:
        return (checks.table_name, checks.column_names, checks.duplicate_columns, checks.location, _trino)

    def engine_features(self, table: ViewTable) -> frozenset[str]:
        return frozenset({"athena-views" if table.dialect == "athena" else "spark-views"})

    def meaning(
        self, table: ViewTable, database: Database, warehouse: str | None, ignore: tuple[str, ...], partitions: bool
    ) -> dict[str, Any]:
        columns = [{**c.model_dump(mode="json", by_alias=True), "name": c.name.lower()} for c in table.columns]
        return {
            "parameters": managed(table.parameters, ignore),
            "columns": columns,
            "location": slashless(table.location),
        }

    def adopt(self, live: Shape, context: AdoptContext) -> Shape:
        from gluecat.kinds.view.adopt import view_data  # import's own: loaded when it runs

        return view_data(live, context)


class _Count:
    """The live partitions of a table a view replaces, counted (not held): the plan says how many are lost."""

    columns = False

    def __init__(self) -> None:
        self.count = 0
        self._lock = threading.Lock()

    def add(self, page: list[Shape]) -> None:
        with self._lock:
            self.count += len(page)

    def incomplete(self) -> list[tuple[str, ...]]:
        return []

    def complete(self, partitions: list[Shape]) -> None:
        pass


def _trino(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    assert isinstance(table.model, ViewTable)
    yield from checks.engine_hits(view_problems(table.model))


def view_change(
    database: LoadedDatabase,
    model: ViewTable,
    live: Shape | None,
    was: Kind[Any],
    ignore: tuple[str, ...],
    partitions: int | None = None,
    trino: bool = True,
) -> Change | None:
    """`partitions`: how many the live table holds when it is a partitioned table, not a view (None: unknown);
    `trino`: whether the catalog's readers include Trino (an Athena view is then written in the form it reads)."""
    assert model.name is not None
    address = f"{database.name}.{model.name}"
    desired: Shape = dict(view_table_input(model, database.name, trino))
    desired["Parameters"] = managed(desired["Parameters"], ignore)
    if live is None:
        return Change(
            address, "table", Action.CREATE, database.name, model.name, desired, live_version=ABSENT, table_kind="view"
        )
    if (replaced := impact.kind_change(live, was, VIEW, partitions)) is not None:
        # A table becomes a view: deleted and created, never an update that leaves its partitions behind.
        reason, finding = replaced
        return Change(
            address, "table", Action.REPLACE, database.name, model.name, desired,
            (FieldDiff("table_type", live.get("TableType"), "VIRTUAL_VIEW"),),
            live_version=version_of(live), table_kind="view", reason=reason, findings=(finding,),
        )  # fmt: skip
    pairs = {"table_type": (live.get("TableType"), "VIRTUAL_VIEW")}
    if model.description is not None and not description_in_text(model, trino):
        pairs["description"] = (live.get("Description"), model.description)
    live_columns = (live.get("StorageDescriptor") or {}).get("Columns") or []
    diffs = [
        *scalar_diffs(pairs),
        *view_text_diffs(model, database.name, live, trino),
        *column_diffs(live_columns, desired["StorageDescriptor"]["Columns"]),
        *parameter_diffs(
            "parameters", live.get("Parameters") or {}, diffed(view_owned_free(model, desired["Parameters"]))
        ),
        *extra_diffs(live, desired, VIEW_STORAGE_KEYS, VIEW_TABLE_KEYS),
    ]
    if not diffs:
        return None
    merged = carry_over(live, TABLE_INPUT_KEYS, desired)
    merged.update({k: v for k, v in desired.items() if k not in ("Parameters", "StorageDescriptor")})
    if description_in_text(model, trino):
        merged.pop("Description", None)
    live_sd = dict(live.get("StorageDescriptor") or {})
    live_sd["Columns"] = merge_columns(live_columns, desired["StorageDescriptor"]["Columns"])
    live_sd.update({k: v for k, v in desired["StorageDescriptor"].items() if k in VIEW_STORAGE_KEYS})
    merged["StorageDescriptor"] = live_sd
    findings = [
        *impact.view_definition(d.path for d in diffs if d.path in impact.VIEW_DEFINITION),
        *impact.view_columns(column_name(d.path) for d in diffs if is_column_shape(d)),
    ] or [impact.METADATA_ONLY]
    return Change(address, "table", Action.UPDATE, database.name, model.name, merged, tuple(diffs),
                  live_version=version_of(live), table_kind="view", findings=tuple(findings))  # fmt: skip


VIEW = ViewKind()
