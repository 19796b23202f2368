"""What plan, apply and import need from a catalog, as one small protocol.

Shapes are Glue's API shapes (TableInput, PartitionInput, ...): the language the
converters and kinds speak. A backend translates them to its catalog and its
errors to gluecat's at the boundary (`LiveStateError`, `ConflictError` when an
optimistic check fails, `UnreachableError` when the catalog does not answer).
`backends.glue.Glue` is the first implementation; the sandbox serves it locally.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

Shape = dict[str, Any]
Progress = Callable[[int], bool]  # hears how many entries a batch carried; False stops before the next


@dataclass(frozen=True)
class EntryError:
    """One entry of a batch call that the catalog refused while the call itself succeeded."""

    values: tuple[str, ...]
    code: str
    message: str


@dataclass(frozen=True)
class MetastoreAddress:
    """Where a Hive Metastore answers, and its version (which clients can talk to it)."""

    uri: str
    version: str | None


class Catalog(Protocol):
    """A catalog as plan, apply and import use it: reads in whole pages, writes that say what failed."""

    # reads: whole listings in pages, never one call per object

    def databases(self) -> list[Shape]:
        """Every database, as Glue's Database shape."""

    def database(self, name: str) -> Shape | None:
        """One database, or None when there is none by that name."""

    def tables(self, database: str) -> list[Shape]:
        """Every table and view of a database, as Glue's Table shape (Parameters, StorageDescriptor, VersionId)."""

    def table(self, database: str, name: str) -> Shape | None:
        """One table, or None when there is none by that name."""

    def partitions(self, database: str, table: str, expected: int) -> list[Shape]:
        """Every partition of a table; `expected` (a guess at their number) sizes the parallel reads."""

    def each_partition_page(
        self, database: str, table: str, expected: int, consume: Callable[[list[Shape]], None], columns: bool = True
    ) -> None:
        """Every page of partitions handed to `consume` as it arrives (thread-safe `consume`)."""

    def partitions_by_values(self, database: str, table: str, values: Sequence[Sequence[str]]) -> list[Shape]:
        """The partitions with these values (in batches); values with no partition are left out."""

    def partition_indexes(self, database: str, table: str) -> list[Shape]:
        """A table's partition indexes with their state (an empty list where the catalog keeps none)."""

    # writes: `update_table` checks the version the plan read (ConflictError when it moved)

    def create_database(self, database_input: Shape) -> None:
        """A new database from Glue's DatabaseInput."""

    def update_database(self, name: str, database_input: Shape) -> None:
        """The database replaced by `database_input` (what it omits is removed)."""

    def create_table(self, database: str, table_input: Shape, partition_indexes: Sequence[Shape] = ()) -> None:
        """A new table from Glue's TableInput, with the partition indexes it starts with."""

    def update_table(self, database: str, table_input: Shape, version_id: str | None) -> None:
        """The table replaced by `table_input`, only while it is still at `version_id` (ConflictError else)."""

    def delete_table(self, database: str, name: str) -> None:
        """The table's entry removed (its files stay where they are)."""

    def create_partition_index(self, database: str, table: str, index: Shape) -> None:
        """A partition index added; the catalog builds it in the background."""

    def delete_partition_index(self, database: str, table: str, name: str) -> None:
        """A partition index removed."""

    # batched partition writes: per-entry refusals come back, the batch goes on

    def create_partitions(
        self, database: str, table: str, inputs: Sequence[Shape], progress: Progress
    ) -> list[EntryError]:
        """The partitions created in batches; each one the catalog refused comes back."""

    def update_partitions(
        self, database: str, table: str, entries: Sequence[Shape], progress: Progress
    ) -> list[EntryError]:
        """Partitions replaced in batches (each entry: the values it had and its new PartitionInput)."""

    def delete_partitions(
        self, database: str, table: str, values: Sequence[Sequence[str]], progress: Progress
    ) -> list[EntryError]:
        """The partitions with these values deleted in batches; each one refused comes back."""


class TableVersions(Protocol):
    """A catalog that keeps each table's earlier versions (the `versions` capability): what history,
    rollback and prune-versions read and delete."""

    def table_versions(self, database: str, table: str) -> list[Shape]:
        """Every kept version of the table, newest first."""

    def table_version(self, database: str, table: str, version_id: str) -> Shape | None:
        """One version's table, or None when no such version is kept."""

    def delete_table_versions(
        self, database: str, table: str, version_ids: Sequence[str], progress: Progress
    ) -> list[EntryError]:
        """The versions deleted in batches; each one the catalog refused comes back."""
