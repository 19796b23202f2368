"""Read the live state a plan needs, and nothing more: pages, not per-object calls."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeVar

from gluecat.backends.connect import Connection
from gluecat.backends.glue import Shape
from gluecat.convert.locations import lake_location
from gluecat.model import DeltaTable, HiveTable, IcebergTable
from gluecat.model.partitions import partition_count
from gluecat.project.load import LoadedDatabase, LoadedTable, Project
from gluecat.project.targets import Targets
from gluecat.text.plain import counted

if TYPE_CHECKING:  # loaded only when the project holds Iceberg or Delta tables
    from pyiceberg.table.metadata import TableMetadata

    from gluecat.backends.delta import DeltaLog

READ_WORKERS = 8
T = TypeVar("T")
A = TypeVar("A")


class PartitionSink(Protocol):
    """Where a table's live partitions go, page by page, instead of a list holding them all."""

    columns: bool  # read each partition's column list (without it, a page is half the size)

    def add(self, page: list[Shape]) -> None: ...  # called from parallel segments

    def incomplete(self) -> list[tuple[str, ...]]: ...  # read without columns, but wanted whole

    def complete(self, partitions: list[Shape]) -> None: ...


SinkFor = Callable[[LoadedDatabase, LoadedTable, Shape], PartitionSink | None]


@dataclass(frozen=True)
class LiveCatalog:
    databases: dict[str, Shape]
    tables: dict[str, dict[str, Shape]] = field(default_factory=dict)
    partitions: dict[tuple[str, str], PartitionSink] = field(default_factory=dict)
    iceberg: dict[tuple[str, str], TableMetadata] = field(default_factory=dict)
    delta: dict[tuple[str, str], DeltaLog | None] = field(default_factory=dict)
    indexes: dict[tuple[str, str], list[Shape]] = field(default_factory=dict)
    # Declared Iceberg tables missing from Glue whose location still holds metadata: (file, metadata).
    iceberg_orphans: dict[tuple[str, str], tuple[str, TableMetadata]] = field(default_factory=dict)


def read_live(
    connection: Connection, project: Project, targets: Targets, progress: Callable[[str], None], sink_for: SinkFor
) -> LiveCatalog:
    """Databases (GetDatabases pages), tables of managed databases (GetTables pages), and the
    partitions of tables that declare `partitions` or `partition_schema: follow` (GetPartitions,
    parallel segments), each page handed to the sink `sink_for` gives the table as it arrives."""
    glue = connection.glue
    progress("reading databases")
    databases = {db["Name"]: db for db in glue.databases()}
    managed = [db for db in project.databases if targets.touches(db.name) and db.name in databases]
    progress(f"reading tables of {counted(len(managed), 'database')}")
    with ThreadPoolExecutor(max_workers=READ_WORKERS) as pool:
        listed = pool.map(lambda db: {t["Name"]: t for t in glue.tables(db.name)}, managed)
        tables = {db.name: found for db, found in zip(managed, listed, strict=True)}
    wanted = [
        (db, table, partition_count(table.model.partitions or []), sink)
        for db in managed
        for table in db.tables
        if isinstance(table.model, HiveTable)
        and (table.model.partitions is not None or table.model.partition_schema == "follow")
        and targets.table(db.name, table.name)
        and table.name in tables[db.name]
        and (sink := sink_for(db, table, tables[db.name][table.name])) is not None
    ]
    progress(f"reading partitions of {counted(len(wanted), 'table')}")
    with ThreadPoolExecutor(max_workers=READ_WORKERS) as pool:
        list(pool.map(lambda w: _read_partitions(connection, w[0].name, w[1].name, w[2], w[3]), wanted))
        partitions = {(db.name, table.name): sink for db, table, _, sink in wanted}
    iceberg = _iceberg_metadata(connection, project, tables, targets, progress)
    delta = _delta_logs(connection, project, targets, progress)
    return LiveCatalog(
        databases,
        tables,
        partitions,
        iceberg,
        delta,
        indexes=_partition_indexes(connection, project, tables, targets, progress),
        iceberg_orphans=_iceberg_orphans(connection, project, tables, targets),
    )


def _partition_indexes(
    connection: Connection,
    project: Project,
    tables: dict[str, dict[str, Shape]],
    targets: Targets,
    progress: Callable[[str], None],
) -> dict[tuple[str, str], list[Shape]]:
    """The indexes of live tables whose file declares `partition_indexes` (one GetPartitionIndexes each)."""
    wanted = [
        (db.name, table.name)
        for db in project.databases
        for table in db.tables
        if isinstance(table.model, HiveTable) and table.model.partition_indexes is not None
        if targets.table(db.name, table.name) and table.name in tables.get(db.name, {})
    ]
    if not wanted:
        return {}
    progress(f"reading partition indexes of {counted(len(wanted), 'table')}")
    return _read_each(lambda key: connection.glue.partition_indexes(*key), [(key, key) for key in wanted])


def _iceberg_orphans(
    connection: Connection, project: Project, tables: dict[str, dict[str, Shape]], targets: Targets
) -> dict[tuple[str, str], tuple[str, TableMetadata]]:
    """Metadata left at the location of each declared Iceberg table that Glue does not list."""
    wanted = [
        ((db.name, table.name), location)
        for db in project.databases
        for table in db.tables
        if isinstance(table.model, IcebergTable) and targets.table(db.name, table.name)
        if table.name not in tables.get(db.name, {})
        if (location := lake_location(table.model, db.model, project.config.warehouse))
    ]
    found = {key: uri for key, uri in _read_each(connection.iceberg.existing_metadata, wanted).items() if uri}
    metadata = _read_each(connection.iceberg.read_metadata, list(found.items()))
    return {key: (found[key], metadata[key]) for key in found}


def _read_partitions(connection: Connection, database: str, table: str, expected: int, sink: PartitionSink) -> None:
    glue = connection.glue
    glue.each_partition_page(database, table, expected, sink.add, columns=sink.columns)
    incomplete = sink.incomplete()
    if incomplete:  # only partitions a change touches: a no-change plan makes no such call
        sink.complete(glue.partitions_by_values(database, table, incomplete))


def _delta_logs(
    connection: Connection, project: Project, targets: Targets, progress: Callable[[str], None]
) -> dict[tuple[str, str], DeltaLog | None]:
    """The Delta log at each declared Delta table's location (None where there is none yet)."""
    wanted = [
        ((db.name, table.name), table.model.location)
        for db in project.databases
        for table in db.tables
        if isinstance(table.model, DeltaTable) and table.model.location and targets.table(db.name, table.name)
    ]
    if not wanted:
        return {}
    progress(f"reading the Delta logs of {counted(len(wanted), 'table')}")
    return _read_each(connection.delta.read, wanted)


def _iceberg_metadata(
    connection: Connection,
    project: Project,
    tables: dict[str, dict[str, Shape]],
    targets: Targets,
    progress: Callable[[str], None],
) -> dict[tuple[str, str], TableMetadata]:
    """Current metadata of declared Iceberg tables, read from the file GetTables pointed at."""
    wanted = [
        ((db.name, table.name), location)
        for db in project.databases
        for table in db.tables
        if isinstance(table.model, IcebergTable) and targets.table(db.name, table.name)
        if (location := (tables.get(db.name, {}).get(table.name) or {}).get("Parameters", {}).get("metadata_location"))
    ]
    if not wanted:
        return {}
    progress(f"reading Iceberg metadata of {counted(len(wanted), 'table')}")
    return _read_each(connection.iceberg.read_metadata, wanted)


def _read_each(read: Callable[[A], T], wanted: list[tuple[tuple[str, str], A]]) -> dict[tuple[str, str], T]:
    """`read` every argument (a location, a table) in parallel, keyed by (database, table)."""
    with ThreadPoolExecutor(max_workers=READ_WORKERS) as pool:
        found = pool.map(read, [argument for _, argument in wanted])
        return {key: value for (key, _), value in zip(wanted, found, strict=True)}
