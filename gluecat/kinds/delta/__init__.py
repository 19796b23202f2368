"""Delta tables (`format: delta`): the Delta log at the location holds the table; Glue holds a copy
of its schema for engines that read Glue. Created and evolved through deltalake, never overwritten."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from gluecat.changes import impact
from gluecat.changes.model import Action, Change, PartitionChanges
from gluecat.changes.payloads import DeltaWrite
from gluecat.convert.delta import DELTA_PARAMETERS, delta_table_input
from gluecat.convert.locations import slashless
from gluecat.convert.parameters import managed
from gluecat.kinds.base import AdoptContext, Kind, PartitionSink, PlanContext, Reads, Rule, Writer, allowing
from gluecat.kinds.glue_diff import ABSENT, dropped_columns, hive_diffs, merge_table_input, version_of
from gluecat.model import CatalogConfig, Database, DeltaTable
from gluecat.project import checks
from gluecat.project.checks import Hit
from gluecat.project.load import LoadedDatabase, LoadedTable
from gluecat.project.rule_ids import declare

if TYPE_CHECKING:  # deltalake loads only for plans that hold Delta tables
    from gluecat.backends.delta import DeltaLog

Shape = dict[str, Any]
LOCATION_RULE = declare("delta-location", "a Delta table without `location`, where its log lives")


def registered_for_athena(live: Shape) -> bool:
    """Registered as Athena registers a Delta table (`table_type=DELTA`, in any case)."""
    return str((live.get("Parameters") or {}).get("table_type", "")).upper() == "DELTA"


class DeltaKind:
    format = "delta"
    model = DeltaTable
    spark_catalog: str | None = "delta"
    evolves = True
    noun = "a Delta table"
    view = False

    def claims(self, live: Shape) -> bool:
        """Registered for Athena (`table_type=DELTA`) or for Spark (`spark.sql.sources.provider=delta`)."""
        provider = (live.get("Parameters") or {}).get("spark.sql.sources.provider", "")
        return registered_for_athena(live) or str(provider).lower() == "delta"

    def writer(self, action: Action, desired: Mapping[str, object] | None) -> Writer:
        """The log first, then the Glue entry, for a create or an update; Glue alone deletes."""
        if action is Action.UPDATE and not isinstance((desired or {}).get("delta"), list | dict):
            raise ValueError("a delta update carries no `delta`")
        return Writer.DELTA if action in (Action.CREATE, Action.UPDATE) else Writer.CATALOG

    def table_input(self, table: DeltaTable, database: Database, ignore: tuple[str, ...]) -> Shape:
        assert table.location is not None  # lint requires it
        shape = dict(delta_table_input(table, table.location))
        shape["Parameters"] = {**managed(table.parameters, ignore), **DELTA_PARAMETERS}
        return shape

    def reads(self, table: DeltaTable, database: LoadedDatabase, config: CatalogConfig) -> Reads:
        return Reads(delta_log=table.location)

    def sink(
        self, table: DeltaTable, database: LoadedDatabase, live: Shape, config: CatalogConfig, was: Kind[Any]
    ) -> PartitionSink | None:
        return None

    def changes(
        self, table: DeltaTable, loaded: LoadedTable, database: LoadedDatabase, context: PlanContext
    ) -> Iterator[Change | PartitionChanges]:
        key = (database.name, loaded.name)
        log = context.live.delta.get(key)
        change = delta_change(database, table, context.live_table(*key), log, context.ignore, context.refusals)
        if change:
            yield allowing(change, table)

    def rules(self) -> tuple[Rule, ...]:
        return (
            checks.table_name, checks.column_names, checks.duplicate_columns, _duplicate_entries,
            _location_required, checks.location, _partition_columns,
        )  # fmt: skip

    def engine_features(self, table: DeltaTable) -> frozenset[str]:
        return frozenset()

    def meaning(
        self, table: DeltaTable, database: Database, warehouse: str | None, ignore: tuple[str, ...], partitions: bool
    ) -> dict[str, Any]:
        return {"parameters": managed(table.parameters, ignore), "location": slashless(table.location)}

    def adopt(self, live: Shape, context: AdoptContext) -> Shape:
        from gluecat.kinds.delta.adopt import delta_data  # import's own: loaded when it runs

        return delta_data(live, context)


def _model(table: LoadedTable) -> DeltaTable:
    assert isinstance(table.model, DeltaTable)
    return table.model


def _duplicate_entries(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    columns = list(_model(table).partition_columns)
    yield from checks.repeated(table, "partition_columns", columns, "this partition column")


def _location_required(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    if not _model(table).location:
        yield Hit(("name",), LOCATION_RULE, "a delta table needs `location`: the Delta log lives there")


def _partition_columns(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    model = _model(table)
    names = {column.name for column in model.columns}
    for index, name in enumerate(model.partition_columns):
        if name not in names:
            message = f"partition column '{name}' is not among `columns`"
            yield Hit(("partition_columns", index), checks.PARTITION_COLUMN_RULE, message)


def _no_log(address: str, location: str, live: Shape) -> str:
    """A registered table with no log at the YAML's location: moved there in the YAML, or lost."""
    was = (live.get("StorageDescriptor") or {}).get("Location")
    if was and slashless(was) != slashless(location):
        return (
            f"{address}: its location moves from {was} to {location}, where there is no Delta log; a Delta"
            " table's files are its log, which gluecat does not move: copy the table there (its files and"
            " _delta_log/), or keep the location"
        )
    return f"{address}: registered in Glue, but there is no Delta log at {location}"


def delta_change(
    database: LoadedDatabase,
    model: DeltaTable,
    live: Shape | None,
    log: DeltaLog | None,
    ignore: tuple[str, ...],
    refusals: list[str],
) -> Change | None:
    from gluecat.kinds.delta.diff import creation_spec, diff_delta, log_matches

    assert model.name is not None and model.location is not None  # lint requires the location
    address = f"{database.name}.{model.name}"
    glue = DELTA.table_input(model, database.model, ignore)
    if log is None:
        if live is not None:
            refusals.append(_no_log(address, model.location, live))
            return None
        desired: DeltaWrite = {"location": model.location, "delta": {"create": creation_spec(model)}, "glue": glue}
        return Change(address, "table", Action.CREATE, database.name, model.name, desired,
                      live_version=ABSENT, table_kind="delta")  # fmt: skip
    if live is None:
        mismatches = log_matches(model, log)
        if mismatches:
            refusals.append(f"{address}: the Delta log at {model.location} differs from the YAML and is never"
                            " overwritten: " + "; ".join(mismatches))  # fmt: skip
            return None
        desired = DeltaWrite(location=model.location, delta={}, glue=glue)
        return Change(address, "table", Action.CREATE, database.name, model.name, desired, live_version=ABSENT,
                      table_kind="delta", reason="registers the existing Delta log")  # fmt: skip
    result = diff_delta(model, log)
    refusals.extend(f"{address}: {reason}" for reason in result.refusals)
    # The log holds the description; the Glue copy follows it on the next write, never forces one.
    shown = {d.path for d in result.diffs} | {"description"}
    glue_diffs = [d for d in hive_diffs(live, glue) if d.path not in shown]
    if not result.ops and not glue_diffs:
        return None
    desired = DeltaWrite(location=model.location, delta=result.ops, glue=merge_table_input(live, glue))
    findings = impact.lake_column_drops("Delta", dropped_columns(result.diffs))
    return Change(address, "table", Action.UPDATE, database.name, model.name, desired,
                  (*result.diffs, *glue_diffs), live_version=version_of(live), table_kind="delta",
                  findings=tuple(findings))  # fmt: skip


DELTA = DeltaKind()
