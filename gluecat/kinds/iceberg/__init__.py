"""Iceberg tables (`format: iceberg`): Glue holds a pointer, the metadata file holds the table.
Created, evolved and re-registered through pyiceberg commits, never by rewriting the pointer."""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from gluecat.backends.registry import capabilities
from gluecat.changes.model import Action, Change, FieldDiff, PartitionChanges
from gluecat.changes.payloads import IcebergCreate, IcebergRegister, IcebergUpdate
from gluecat.convert.locations import lake_location, slashless
from gluecat.convert.shapes import TABLE_INPUT_KEYS
from gluecat.kinds.base import AdoptContext, Kind, PartitionSink, PlanContext, Reads, Rule, Writer, allowing
from gluecat.kinds.glue_diff import ABSENT, version_of
from gluecat.model import CatalogConfig, Database, IcebergTable
from gluecat.project import checks
from gluecat.project.checks import Hit
from gluecat.project.load import LoadedDatabase, LoadedTable
from gluecat.project.rule_ids import declare

if TYPE_CHECKING:  # pyiceberg loads only for plans that hold Iceberg tables (~0.5 s)
    from pyiceberg.table.metadata import TableMetadata

Shape = dict[str, Any]
PARAMETERS_RULE = declare("iceberg-parameters", "Glue `parameters` on an Iceberg table, whose commits write them")
SORT_ORDER_RULE = declare("optimizer-sort-order", "sort or z-order compaction on a table without `sort_order`")
TRANSFORM_RULE = declare(
    "iceberg-transform", "a partition or sort transform Iceberg cannot apply (a width below 1, a type it does not take)"
)
PROPERTY_RULE = declare(
    "iceberg-property", "an Iceberg table property of the wrong type, or an unknown `format-version`"
)
FORMAT_V3_RULE = declare(
    "iceberg-format-v3", "a table upgraded to or created at `format-version` 3, which Athena cannot read (plan)"
)
RENAME_RULE = declare(
    "iceberg-rename", "a `renamed_from` or `renamed_fields` naming its own or a declared name, or no struct field"
)


class IcebergKind:
    format = "iceberg"
    model = IcebergTable
    spark_catalog: str | None = "iceberg"
    evolves = True
    noun = "an Iceberg table"
    view = False

    def claims(self, live: Shape) -> bool:
        return registered_as_iceberg(live)

    def writer(self, action: Action, desired: Mapping[str, object] | None) -> Writer:
        """pyiceberg creates, registers and commits; Glue alone deletes, and repairs a registration
        that no longer says Iceberg (an update carrying a TableInput, not `ops`)."""
        if action is Action.REGISTER:
            return Writer.ICEBERG_REGISTER
        if action is Action.CREATE:
            return Writer.ICEBERG
        if action is Action.UPDATE:
            shape = desired or {}
            if isinstance(shape.get("ops"), list | dict):
                return Writer.ICEBERG
            if "ops" in shape or "Name" not in shape:
                raise ValueError("an iceberg update carries no `ops`")
        return Writer.CATALOG

    def table_input(self, table: IcebergTable, database: Database, ignore: tuple[str, ...]) -> Shape | None:
        return None  # pyiceberg registers the table from its metadata

    def reads(self, table: IcebergTable, database: LoadedDatabase, config: CatalogConfig) -> Reads:
        location = lake_location(table, database.model, config.warehouse)
        return Reads(iceberg_metadata=True, iceberg_orphan=location, optimizers=table.optimizers is not None)

    def sink(
        self, table: IcebergTable, database: LoadedDatabase, live: Shape, config: CatalogConfig, was: Kind[Any]
    ) -> PartitionSink | None:
        return None

    def changes(
        self, table: IcebergTable, loaded: LoadedTable, database: LoadedDatabase, context: PlanContext
    ) -> Iterator[Change | PartitionChanges]:
        key = (database.name, loaded.name)
        live_table = context.live_table(*key)
        orphan = context.live.iceberg_orphans.get(key)
        if live_table is None and orphan:
            yield allowing(iceberg_register(database, table, *orphan, context.refusals), table)
            if table.optimizers is not None:  # the table comes back without them
                yield from optimizer_changes_of(table, database, context, orphan[1].location)
            return
        metadata = context.live.iceberg.get(key)
        change = iceberg_change(database, table, live_table, metadata, context.config.warehouse, context.refusals)
        if change:
            yield allowing(change, table)
        if table.optimizers is not None and (live_table is None or metadata is not None):
            yield from optimizer_changes_of(table, database, context, metadata.location if metadata else None)

    def rules(self) -> tuple[Rule, ...]:
        from gluecat.kinds.iceberg import rules

        return (
            checks.table_name, checks.column_names, checks.duplicate_columns, _duplicate_entries,
            checks.location, _partition_columns, _parameters, _optimizer_sort_order,
            rules.transforms, rules.properties, rules.renames,
        )  # fmt: skip

    def engine_features(self, table: IcebergTable) -> frozenset[str]:
        return frozenset()

    def meaning(
        self, table: IcebergTable, database: Database, warehouse: str | None, ignore: tuple[str, ...], partitions: bool
    ) -> dict[str, Any]:
        location = lake_location(table, database, warehouse)
        if table.optimizers is None:
            return {"location": slashless(location)}
        from gluecat.kinds.iceberg.optimizers import optimizers_meaning

        return {"location": slashless(location), "optimizers": optimizers_meaning(table.optimizers, location)}

    def adopt(self, live: Shape, context: AdoptContext) -> Shape:
        from gluecat.kinds.iceberg.adopt import iceberg_data  # import's own: loaded when it runs

        return iceberg_data(live, context)


def _model(table: LoadedTable) -> IcebergTable:
    assert isinstance(table.model, IcebergTable)
    return table.model


def _duplicate_entries(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    model = _model(table)
    spec: list[Hashable] = [(f.column, f.transform) for f in model.partition_spec]
    yield from checks.repeated(table, "partition_spec", spec, "this partition field")
    yield from checks.repeated(table, "sort_order", [f.column for f in model.sort_order], "this sort column")


def _partition_columns(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    model = _model(table)
    names = {column.name for column in model.columns}
    referenced: list[tuple[str, int, str]] = [
        *(("partition_spec", i, f.column) for i, f in enumerate(model.partition_spec)),
        *(("sort_order", i, f.column) for i, f in enumerate(model.sort_order)),
    ]
    for key, index, column in referenced:
        if column not in names:
            yield Hit((key, index, "column"), checks.PARTITION_COLUMN_RULE, f"column '{column}' is not among `columns`")


def _parameters(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    if _model(table).parameters:
        yield Hit(
            ("parameters",),
            PARAMETERS_RULE,
            "an iceberg table's Glue parameters are written by Iceberg commits: use `properties`"
            " (Iceberg table properties) instead",
        )


def _optimizer_sort_order(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    model = _model(table)
    compaction = model.optimizers.compaction if model.optimizers else None
    if compaction and compaction.strategy in ("sort", "z-order") and not model.sort_order:
        yield Hit(
            ("optimizers", "compaction", "strategy"),
            SORT_ORDER_RULE,
            f"{compaction.strategy} compaction sorts by the table's sort order: declare `sort_order`",
        )


def optimizer_changes_of(
    table: IcebergTable, database: LoadedDatabase, context: PlanContext, live_location: str | None
) -> Iterator[Change]:
    from gluecat.kinds.iceberg.optimizers import optimizer_changes

    assert table.optimizers is not None and table.name is not None
    backend = capabilities(context.config.backend)
    if not backend.optimizers:
        context.refusals.append(f"{database.name}.{table.name}: `optimizers` are Glue's; {backend.title} has none")
        return
    live = context.live.optimizers.get((database.name, table.name), {})
    location = live_location or lake_location(table, database.model, context.config.warehouse)
    for change in optimizer_changes(database.name, table.name, table.optimizers, live, location):
        yield allowing(change, table)


def iceberg_change(
    database: LoadedDatabase,
    model: IcebergTable,
    live: Shape | None,
    metadata: TableMetadata | None,
    warehouse: str | None,
    refusals: list[str],
) -> Change | None:
    from gluecat.backends.iceberg_meta import fingerprint as iceberg_fingerprint
    from gluecat.kinds.iceberg.diff import creation_ops, desired_properties, diff_iceberg
    from gluecat.kinds.iceberg.format_version import created_findings, upgrade_waits
    from gluecat.kinds.iceberg.impact import column_findings

    assert model.name is not None
    address = f"{database.name}.{model.name}"
    location = lake_location(model, database.model, warehouse)
    if live is None:
        if location is None:
            refusals.append(f"{address}: no location: set `location`, the catalog's `warehouse` or the database's")
            return None
        properties = {k: v for k, v in desired_properties(model).items() if v is not None}
        desired: IcebergCreate = {
            "location": location,
            "columns": [c.model_dump() for c in model.columns],
            "properties": properties,
            "ops": creation_ops(model),
        }
        return Change(address, "table", Action.CREATE, database.name, model.name, desired,
                      live_version=ABSENT, table_kind="iceberg", findings=created_findings(properties))  # fmt: skip
    if metadata is None:
        refusals.append(f"{address}: exists in Glue but is not an Iceberg table; gluecat will not convert it")
        return None
    if not registered_as_iceberg(live):
        registered = (live.get("Parameters") or {}).get("table_type")
        return _registered_as_iceberg(address, database.name, model.name, live, registered)
    if model.location and slashless(model.location) != slashless(metadata.location):
        refusals.append(f"{address}: an Iceberg table cannot move ({metadata.location} -> {model.location})")
    result = diff_iceberg(model, metadata)
    refusals.extend(f"{address}: {reason}" for reason in result.refusals)
    if not result.ops and result.upgrade is not None:  # a one-way door: planned alone, never beside others
        return format_upgrade(address, database.name, model.name, metadata, result.upgrade)
    if not result.ops:
        return None
    update: IcebergUpdate = {"ops": result.ops}
    return Change(
        address, "table", Action.UPDATE, database.name, model.name, update, tuple(result.diffs),
        live_version=iceberg_fingerprint(metadata), table_kind="iceberg", drops=result.destructive,
        findings=column_findings(result), reason=upgrade_waits(result.upgrade) if result.upgrade else "",
    )  # fmt: skip


def format_upgrade(address: str, database: str, name: str, metadata: TableMetadata, version: int) -> Change:
    """An upgrade of the table's format version: its own change, marked irreversible; what it does to
    readers that cannot read the new version is a finding, judged against `readers:` by the gate."""
    from gluecat.backends.iceberg_meta import fingerprint as iceberg_fingerprint
    from gluecat.kinds.iceberg.format_version import V3, irreversible, upgrade_finding

    before = metadata.format_version
    upgrade: IcebergUpdate = {"ops": [{"op": "upgrade_format_version", "version": version}]}
    diff = FieldDiff("properties.format-version", str(before), str(version))
    return Change(
        address, "table", Action.UPDATE, database, name, upgrade, (diff,),
        live_version=iceberg_fingerprint(metadata), table_kind="iceberg", reason=irreversible(version),
        findings=(upgrade_finding(before, version),) if version >= V3 else (),
    )  # fmt: skip


def _registered_as_iceberg(address: str, database: str, name: str, live: Shape, registered: Any) -> Change:
    """Glue points at Iceberg metadata but no longer says the table is Iceberg (`table_type` removed,
    or another): engines do not read it as Iceberg. The registration is put right first, in Glue
    (pyiceberg loads no table Glue does not call Iceberg); the table's own changes plan after it."""
    fixed = {key: live[key] for key in TABLE_INPUT_KEYS if key in live}
    fixed["Parameters"] = {**(live.get("Parameters") or {}), "table_type": "ICEBERG"}
    diff = FieldDiff("parameters.table_type", registered, "ICEBERG")
    return Change(
        address, "table", Action.UPDATE, database, name, fixed, (diff,), live_version=version_of(live),
        table_kind="iceberg", reason="Glue no longer registers it as Iceberg: engines would not read it as one",
    )  # fmt: skip


def iceberg_register(
    database: LoadedDatabase, model: IcebergTable, metadata_location: str, metadata: TableMetadata, refusals: list[str]
) -> Change:
    """Glue lost the entry, the location kept the table: register it, then commit what the YAML adds."""
    from gluecat.kinds.iceberg.diff import diff_iceberg  # pyiceberg loads only when a plan needs it
    from gluecat.kinds.iceberg.format_version import upgrade_waits
    from gluecat.kinds.iceberg.impact import column_findings

    assert model.name is not None
    result = diff_iceberg(model, metadata)
    refusals.extend(f"{database.name}.{model.name}: {reason}" for reason in result.refusals)
    desired: IcebergRegister = {"metadata_location": metadata_location, "ops": result.ops}
    waits = f"; {upgrade_waits(result.upgrade)}" if result.upgrade else ""
    return Change(
        f"{database.name}.{model.name}", "table", Action.REGISTER, database.name, model.name, desired,
        tuple(result.diffs), live_version=ABSENT, table_kind="iceberg", drops=result.destructive,
        reason=f"registers the Iceberg table its location holds ({metadata_location}); its rows stay{waits}",
        findings=column_findings(result),
    )  # fmt: skip


def registered_as_iceberg(live: Shape) -> bool:
    """Glue says the entry is an Iceberg table (`table_type=ICEBERG`, in any case)."""
    return str((live.get("Parameters") or {}).get("table_type", "")).upper() == "ICEBERG"


ICEBERG = IcebergKind()
