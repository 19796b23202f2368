"""`gluecat prune-versions`: delete old Glue versions of the project's tables, keeping the newest.

Glue keeps up to 100,000 versions of a table and then refuses every update. Deletes go 100 versions
to a BatchDeleteTableVersion call, as Glue allows; the current version is never among them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from gluecat.backends.base import EntryError
from gluecat.backends.connect import Connection
from gluecat.project.load import Project
from gluecat.project.targets import Targets

BATCH = 100  # versions a BatchDeleteTableVersion call takes


@dataclass(frozen=True)
class TableVersions:
    database: str
    table: str
    current: str
    kept: tuple[str, ...]  # newest first, the current one among them
    delete: tuple[str, ...]  # newest first

    @property
    def address(self) -> str:
        return f"{self.database}.{self.table}"


@dataclass
class PruneResult:
    deleted: int = 0
    calls: int = 0
    failures: list[tuple[str, EntryError]] = field(default_factory=list)
    stopped: bool = False  # `stop` answered False: the tables after it were not touched


def prune_candidates(
    project: Project, connection: Connection, targets: Targets, keep: int, progress: Callable[[str], None]
) -> list[TableVersions]:
    """Every targeted table of the project with versions beyond the `keep` newest (and the current)."""
    targets.check({db.name: [t.name for t in db.tables] for db in project.databases})
    catalog, versions = connection.catalog, connection.versions("prune-versions")
    found = []
    for database in project.databases:
        if not targets.touches(database.name):
            continue
        live = {t["Name"]: t for t in catalog.tables(database.name)} if catalog.database(database.name) else {}
        for table in database.tables:
            shape = live.get(table.name)
            if shape is None or not targets.table(database.name, table.name):
                continue
            current = str(shape.get("VersionId"))
            if current.isdigit() and int(current) <= keep:
                continue  # ids run 1..current: at most `keep` versions, none to delete
            progress(f"reading the versions of {database.name}.{table.name}")
            ids = [str(v["VersionId"]) for v in versions.table_versions(database.name, table.name)]
            kept = ids[:keep] + ([current] if current in ids[keep:] else [])
            delete = tuple(i for i in ids[keep:] if i != current)
            if delete:
                found.append(TableVersions(database.name, table.name, current, tuple(kept), delete))
    return found


def prune(connection: Connection, tables: list[TableVersions], stop: Callable[[int], bool]) -> PruneResult:
    """Delete each table's old versions; `stop` hears each batch's size and answers False to stop."""
    result = PruneResult()

    def heard(count: int) -> bool:
        result.calls += 1
        result.deleted += count
        result.stopped = not stop(count)
        return not result.stopped

    versions = connection.versions("prune-versions")
    for table in tables:
        if result.stopped:
            break
        for error in versions.delete_table_versions(table.database, table.table, table.delete, heard):
            result.failures.append((table.address, error))
            result.deleted -= 1
    # A stop heard after the last call left nothing undone.
    result.stopped = result.stopped and result.calls < sum(-(-len(t.delete) // BATCH) for t in tables)
    return result
