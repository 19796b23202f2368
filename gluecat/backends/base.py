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
    # reads: whole listings in pages, never one call per object

    def databases(self) -> list[Shape]: ...

    def database(self, name: str) -> Shape | None: ...

    def tables(self, database: str) -> list[Shape]: ...

    def table(self, database: str, name: str) -> Shape | None: ...

    def partitions(self, database: str, table: str, expected: int) -> list[Shape]: ...

    def each_partition_page(
        self, database: str, table: str, expected: int, consume: Callable[[list[Shape]], None], columns: bool = True
    ) -> None:
        """Every page of partitions handed to `consume` as it arrives (thread-safe `consume`)."""

    def partitions_by_values(self, database: str, table: str, values: Sequence[Sequence[str]]) -> list[Shape]: ...

    def partition_indexes(self, database: str, table: str) -> list[Shape]: ...

    # writes: `update_table` checks the version the plan read (ConflictError when it moved)

    def create_database(self, database_input: Shape) -> None: ...

    def update_database(self, name: str, database_input: Shape) -> None: ...

    def create_table(self, database: str, table_input: Shape, partition_indexes: Sequence[Shape] = ()) -> None: ...

    def update_table(self, database: str, table_input: Shape, version_id: str | None) -> None: ...

    def delete_table(self, database: str, name: str) -> None: ...

    def create_partition_index(self, database: str, table: str, index: Shape) -> None: ...

    def delete_partition_index(self, database: str, table: str, name: str) -> None: ...

    # batched partition writes: per-entry refusals come back, the batch goes on

    def create_partitions(
        self, database: str, table: str, inputs: Sequence[Shape], progress: Progress
    ) -> list[EntryError]: ...

    def update_partitions(
        self, database: str, table: str, entries: Sequence[Shape], progress: Progress
    ) -> list[EntryError]: ...

    def delete_partitions(
        self, database: str, table: str, values: Sequence[Sequence[str]], progress: Progress
    ) -> list[EntryError]: ...


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
