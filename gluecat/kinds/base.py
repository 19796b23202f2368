"""What every kind of table implements, and what the planner and import hand it.

A kind owns what is particular to one `format:` — the Glue shape it wants, what
it needs read from the live catalog, its diff and impact findings, its lint
rules, what Spark and Trino need for it, and the file import writes for a live
table of it. The planner, import, lint, spark-conf and DDL iterate the registry
(`gluecat.kinds.registry`); none of them branches on a kind.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from gluecat.changes.model import Action, Change, PartitionChanges
from gluecat.errors import GluecatError
from gluecat.model import CatalogConfig, Database
from gluecat.model.table import Table
from gluecat.project.checks import Hit
from gluecat.project.load import LoadedDatabase, LoadedTable

if TYPE_CHECKING:  # loaded only when the project holds Iceberg or Delta tables
    from pyiceberg.table.metadata import TableMetadata

    from gluecat.backends.connect import Connection
    from gluecat.backends.delta import DeltaLog

Shape = dict[str, Any]
M = TypeVar("M", bound=Table)
Rule = Callable[[LoadedTable, LoadedDatabase], Iterator[Hit]]


class PartitionSink(Protocol):
    """Where a table's live partitions go, page by page, instead of a list holding them all."""

    columns: bool  # read each partition's column list (without it, a page is half the size)

    def add(self, page: list[Shape]) -> None:
        """One page of live partitions, folded in; called from parallel segments."""

    def incomplete(self) -> list[tuple[str, ...]]:
        """The partitions read without their columns that the kind needs whole."""

    def complete(self, partitions: list[Shape]) -> None:
        """Those partitions, read again whole."""


@dataclass(frozen=True)
class Reads:
    """What a plan must read for one declared table beyond its GetTables entry."""

    partitions: bool = False  # its partitions, folded into the sink the kind gives (`Kind.sink`)
    expected_partitions: int = 0  # how many are declared: how many segments read them
    partition_indexes: bool = False
    iceberg_metadata: bool = False  # the metadata file the live entry points at
    iceberg_orphan: str | None = None  # a location to look for metadata when Glue lists no such table
    delta_log: str | None = None  # the location of the Delta log
    optimizers: bool = False  # its Glue table optimizers (BatchGetTableOptimizer, with the other tables')


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
    # Table optimizers of live tables whose file declares `optimizers`: {type: TableOptimizerConfiguration}.
    optimizers: dict[tuple[str, str], dict[str, Shape]] = field(default_factory=dict)


@dataclass
class PlanContext:
    """What a kind's diff reads besides its own table: the live catalog and the catalog's settings.
    Changes that cannot be made safely go to `refusals`: the plan fails naming all of them."""

    live: LiveCatalog
    config: CatalogConfig
    recognise: Callable[[Shape], Kind[Any]]  # the kind a live entry is (`registry.recognise`)
    refusals: list[str] = field(default_factory=list)

    @property
    def ignore(self) -> tuple[str, ...]:
        return tuple(self.config.ignore_parameters)

    def live_table(self, database: str, name: str) -> Shape | None:
        return self.live.tables.get(database, {}).get(name) if database in self.live.databases else None


@dataclass
class AdoptContext:
    """What a kind's `adopt` reads besides the live entry: the connection (Iceberg metadata, a Delta
    log, partitions and partition indexes), the database the table is in, the parameters import
    leaves out, and whether it imports partitions. What a reviewer should know goes to `notes`."""

    connection: Connection
    database: Database
    ignore: tuple[str, ...]
    partitions: bool
    notes: list[str] = field(default_factory=list)


class NotModelled(GluecatError):
    """The table's own definition (Iceberg metadata, Delta log) cannot be read, or Glue holds it in
    a shape gluecat's models cannot express: import keeps its registration."""


class Writer(Enum):
    """What apply writes a table change with: the kind of the table decides (`Kind.writer`)."""

    CATALOG = "catalog"  # the catalog's own entry (a Glue TableInput, a metastore's table)
    ICEBERG = "iceberg"  # a pyiceberg create or commit against the table's metadata
    ICEBERG_REGISTER = "iceberg-register"  # the entry given back to existing metadata, then its commits
    DELTA = "delta"  # the Delta log first, then the catalog entry that describes it


class Kind(Protocol[M]):
    format: str  # the `format:` of its YAML files
    model: type[M]
    spark_catalog: str | None  # which of spark-conf's catalogs reads it: iceberg, delta, hive (or none)
    # False: `changes` plans only a create, never an update, so a rollback writes the version's
    # TableInput (`table_input`) over the live table itself.
    evolves: bool
    noun: str  # how a plan names a live table of this kind: "an Iceberg table"
    view: bool  # its catalog entry is a view (TableType VIRTUAL_VIEW), which Glue cannot turn into a table

    def claims(self, live: Shape) -> bool:
        """Whether a live catalog entry is a table of this kind (`registry.recognise` asks each kind in
        turn; Hive is what an entry is when no other kind claims it)."""

    def writer(self, action: Action, desired: Mapping[str, object] | None) -> Writer:
        """How apply writes a change of this kind with this action and payload; ValueError when the
        payload is not one this kind plans (a saved plan is refused whole before apply sends anything)."""

    def table_input(self, table: M, database: Database, ignore: tuple[str, ...]) -> Shape | None:
        """What a create sends to Glue (None where the table format's library registers it)."""

    def reads(self, table: M, database: LoadedDatabase, config: CatalogConfig) -> Reads:
        """What the plan reads for this table beyond its live entry."""

    def sink(
        self, table: M, database: LoadedDatabase, live: Shape, config: CatalogConfig, was: Kind[Any]
    ) -> PartitionSink | None:
        """What the table's live partitions are folded into as they are read (when `reads` asks);
        `was`: the kind the live entry is."""

    def changes(
        self, table: M, loaded: LoadedTable, database: LoadedDatabase, context: PlanContext
    ) -> Iterator[Change | PartitionChanges]:
        """The changes that bring the live table to the declared one."""

    def rules(self) -> tuple[Rule, ...]:
        """Its lint rules, in the order their findings print."""

    def engine_features(self, table: M) -> frozenset[str]:
        """What an engine's configuration must enable to read it (`spark-conf --format trino`)."""

    def meaning(
        self, table: M, database: Database, warehouse: str | None, ignore: tuple[str, ...], partitions: bool
    ) -> dict[str, Any]:
        """What import compares beyond the file's fields as written: each resolved as a plan
        resolves it (a default location, the storage shorthand, a column name's case)."""

    def adopt(self, live: Shape, context: AdoptContext) -> Shape:
        """The table file's data for a live entry of this kind (`import`, once `registry.recognise` has
        chosen the kind): its fields as the file writes them, without `name`, so that the next plan
        shows no changes. NotModelled when the table's own definition cannot be read or Glue holds it
        in a shape the kind cannot write; import then carries the entry as a registration, as it does
        for the ValueError, KeyError or TypeError of a shape the model refuses."""


def typed_columns(live: Shape) -> None:
    """NotModelled for a column Glue holds without a type: its file would declare one (and plan would
    then change it)."""
    descriptor = live.get("StorageDescriptor") or {}
    for column in [*(descriptor.get("Columns") or []), *(live.get("PartitionKeys") or [])]:
        if not column.get("Type"):
            raise NotModelled(
                f"Glue holds the column {column.get('Name')!r} without a type, which no table file can say"
            )


def allowing(change: Change, table: Table) -> Change:
    """The change, carrying the table's stated reason for a deliberate breaking change."""
    reason = table.allow_breaking
    return dataclasses.replace(change, allow_breaking=reason) if reason else change
