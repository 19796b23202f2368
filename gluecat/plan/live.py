"""Read the live state a plan needs, and nothing more: pages, not per-object calls."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from gluecat.backends.base import Shape
from gluecat.backends.connect import Connection
from gluecat.kinds.base import LiveCatalog, PartitionSink, Reads
from gluecat.kinds.registry import kind_of
from gluecat.project.load import LoadedDatabase, LoadedTable, Project
from gluecat.project.targets import Targets
from gluecat.text.plain import counted

if TYPE_CHECKING:  # loaded only when the project holds Iceberg or Delta tables
    from pyiceberg.table.metadata import TableMetadata

    from gluecat.backends.delta import DeltaLog

READ_WORKERS = 8
T = TypeVar("T")
A = TypeVar("A")


SinkFor = Callable[[LoadedDatabase, LoadedTable, Shape], PartitionSink | None]


@dataclass(frozen=True)
class Need:
    """A targeted table and what its kind asks to be read for it."""

    database: LoadedDatabase
    table: LoadedTable
    reads: Reads

    @property
    def key(self) -> tuple[str, str]:
        return self.database.name, self.table.name

    def live_in(self, tables: dict[str, dict[str, Shape]]) -> Shape | None:
        return tables.get(self.database.name, {}).get(self.table.name)


def read_live(
    connection: Connection, project: Project, targets: Targets, progress: Callable[[str], None], sink_for: SinkFor
) -> LiveCatalog:
    """Databases (GetDatabases pages), tables of managed databases (GetTables pages), and the
    partitions of tables that declare `partitions` or `partition_schema: follow` (GetPartitions,
    parallel segments), each page handed to the sink `sink_for` gives the table as it arrives."""
    catalog = connection.catalog
    needs = [
        Need(db, table, kind_of(table.model).reads(table.model, db, project.config))
        for db in project.databases
        for table in db.tables
        if targets.table(db.name, table.name)
    ]
    progress("reading databases")
    databases = {db["Name"]: db for db in catalog.databases()}
    managed = [db for db in project.databases if targets.touches(db.name) and db.name in databases]
    progress(f"reading tables of {counted(len(managed), 'database')}")
    with ThreadPoolExecutor(max_workers=READ_WORKERS) as pool:
        listed = list(pool.map(lambda db: _tables_of(connection, db.name, targets), managed))
        tables = {db.name: found for db, found in zip(managed, listed, strict=True)}
    wanted = [
        (need, sink)
        for need in needs
        if need.reads.partitions
        and (live := tables.get(need.database.name, {}).get(need.table.name)) is not None
        and (sink := sink_for(need.database, need.table, live)) is not None
    ]
    progress(f"reading partitions of {counted(len(wanted), 'table')}")
    with ThreadPoolExecutor(max_workers=READ_WORKERS) as pool:
        list(pool.map(lambda w: _read_partitions(connection, w[0], w[1]), wanted))
        partitions = {need.key: sink for need, sink in wanted}
    iceberg = _iceberg_metadata(connection, needs, tables, progress)
    delta = _delta_logs(connection, needs, progress)
    return LiveCatalog(
        databases,
        tables,
        partitions,
        iceberg,
        delta,
        indexes=_partition_indexes(connection, needs, tables, progress),
        iceberg_orphans=_iceberg_orphans(connection, needs, tables),
        optimizers=_optimizers(connection, needs, tables, progress),
    )


# More tables targeted one by one in a database than this are read by listing the database.
ONE_BY_ONE = 25


def _tables_of(connection: Connection, database: str, targets: Targets) -> dict[str, Shape]:
    """A database's live tables, or only those targeted one by one (a GetTable each, few of them)."""
    named = targets.tables_in(database)
    if targets.database(database) or len(named) > ONE_BY_ONE:
        return {t["Name"]: t for t in connection.catalog.tables(database)}
    found = [connection.catalog.table(database, name) for name in named]
    return {t["Name"]: t for t in found if t is not None}


def _optimizers(
    connection: Connection, needs: list[Need], tables: dict[str, dict[str, Shape]], progress: Callable[[str], None]
) -> dict[tuple[str, str], dict[str, Shape]]:
    """The optimizers of live tables whose file declares `optimizers` (BatchGetTableOptimizer, all at once)."""
    wanted = [need.key for need in needs if need.reads.optimizers and need.live_in(tables)]
    if not wanted or not connection.capabilities.optimizers:  # none there: the kind refuses the block
        return {}
    from gluecat.backends.optimizers import optimizers_of

    progress(f"reading table optimizers of {counted(len(wanted), 'table')}")
    return optimizers_of(connection).read(wanted)


def _partition_indexes(
    connection: Connection, needs: list[Need], tables: dict[str, dict[str, Shape]], progress: Callable[[str], None]
) -> dict[tuple[str, str], list[Shape]]:
    """The indexes of live tables whose file declares `partition_indexes` (one GetPartitionIndexes each)."""
    wanted = [need.key for need in needs if need.reads.partition_indexes and need.live_in(tables)]
    if not wanted:
        return {}
    progress(f"reading partition indexes of {counted(len(wanted), 'table')}")
    return _read_each(lambda key: connection.catalog.partition_indexes(*key), [(key, key) for key in wanted])


def _iceberg_orphans(
    connection: Connection, needs: list[Need], tables: dict[str, dict[str, Shape]]
) -> dict[tuple[str, str], tuple[str, TableMetadata]]:
    """Metadata left at the location of each declared Iceberg table that Glue does not list."""
    wanted = [
        (need.key, location) for need in needs if (location := need.reads.iceberg_orphan) and not need.live_in(tables)
    ]
    if not wanted:
        return {}  # before touching connection.iceberg, which imports pyiceberg
    found = {key: uri for key, uri in _read_each(connection.iceberg.existing_metadata, wanted).items() if uri}
    metadata = _read_each(connection.iceberg.read_metadata, list(found.items()))
    return {key: (found[key], metadata[key]) for key in found}


def _read_partitions(connection: Connection, need: Need, sink: PartitionSink) -> None:
    catalog, (database, table), expected = connection.catalog, need.key, need.reads.expected_partitions
    catalog.each_partition_page(database, table, expected, sink.add, columns=sink.columns)
    incomplete = sink.incomplete()
    if incomplete:  # only partitions a change touches: a no-change plan makes no such call
        sink.complete(catalog.partitions_by_values(database, table, incomplete))


def _delta_logs(
    connection: Connection, needs: list[Need], progress: Callable[[str], None]
) -> dict[tuple[str, str], DeltaLog | None]:
    """The Delta log at each declared Delta table's location (None where there is none yet)."""
    wanted = [(need.key, location) for need in needs if (location := need.reads.delta_log)]
    if not wanted:
        return {}
    progress(f"reading the Delta logs of {counted(len(wanted), 'table')}")
    return _read_each(connection.delta.read, wanted)


def _iceberg_metadata(
    connection: Connection, needs: list[Need], tables: dict[str, dict[str, Shape]], progress: Callable[[str], None]
) -> dict[tuple[str, str], TableMetadata]:
    """Current metadata of declared Iceberg tables, read from the file GetTables pointed at."""
    wanted = [
        (need.key, location)
        for need in needs
        if need.reads.iceberg_metadata
        if (location := (need.live_in(tables) or {}).get("Parameters", {}).get("metadata_location"))
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
