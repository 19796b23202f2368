"""`gluecat history`: a table's Glue versions, newest first, each with what changed from the one
before it; for an Iceberg table, its snapshots from the metadata beside them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gluecat.backends.connect import Connection
from gluecat.changes.model import FieldDiff
from gluecat.errors import GluecatError, LiveStateError
from gluecat.history.diff import masked, version_diffs
from gluecat.secrets import redact

Shape = dict[str, Any]


@dataclass(frozen=True)
class VersionEntry:
    version_id: str
    written: str | None  # when, as the version records it (UpdateTime, else CreateTime)
    by: str | None  # who, as the version records it (CreatedBy, else Owner)
    current: bool
    previous: str | None  # the kept version the diffs start from (None: the oldest kept)
    diffs: tuple[FieldDiff, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "version": self.version_id,
            "written": self.written,
            "by": self.by,
            "current": self.current,
            "previous": self.previous,
            "changes": [{"path": d.path, "before": d.before, "after": d.after} for d in self.diffs],
        }


@dataclass(frozen=True)
class SnapshotEntry:
    snapshot_id: int
    parent_id: int | None
    timestamp_ms: int
    operation: str | None
    summary: dict[str, str]
    current: bool
    ancestor: bool  # of the current snapshot: a rollback target

    def as_json(self) -> dict[str, Any]:
        return {
            "snapshot": self.snapshot_id,
            "parent": self.parent_id,
            "timestamp_ms": self.timestamp_ms,
            "operation": self.operation,
            "summary": self.summary,
            "current": self.current,
            "ancestor_of_current": self.ancestor,
        }


@dataclass(frozen=True)
class History:
    address: str
    total: int  # versions Glue keeps
    versions: tuple[VersionEntry, ...]  # the page asked for, newest first
    iceberg: bool = False
    snapshots: tuple[SnapshotEntry, ...] = ()  # newest first

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "table": self.address,
            "versions_kept": self.total,
            "versions": [v.as_json() for v in self.versions],
        }
        if self.iceberg:
            data["snapshots"] = [s.as_json() for s in self.snapshots]
        return data


def is_iceberg(table: Shape) -> bool:
    return str((table.get("Parameters") or {}).get("table_type", "")).upper() == "ICEBERG"


def table_history(connection: Connection, database: str, name: str, limit: int, page: int) -> History:
    """Page `page` (from 1) of `limit` versions; each compared with the next older kept version."""
    live = connection.catalog.table(database, name)
    if live is None:
        raise GluecatError(f"{database}.{name} is not in the catalog")
    kept = connection.versions("history").table_versions(database, name)
    current = str(live.get("VersionId"))
    start = (page - 1) * limit
    entries = []
    for index in range(start, min(start + limit, len(kept))):
        version = kept[index]
        older = kept[index + 1] if index + 1 < len(kept) else None
        table = version.get("Table") or {}
        diffs = [masked(d) for d in version_diffs(older.get("Table") or {}, table)] if older else []
        entries.append(
            VersionEntry(
                str(version["VersionId"]),
                _text(table.get("UpdateTime") or table.get("CreateTime")),
                _who(table.get("CreatedBy") or table.get("Owner")),
                str(version["VersionId"]) == current,
                str(older["VersionId"]) if older else None,
                tuple(diffs),
            )
        )
    address = f"{database}.{name}"
    if not is_iceberg(live):
        return History(address, len(kept), tuple(entries))
    return History(address, len(kept), tuple(entries), True, snapshots(connection, database, name))


def snapshots(connection: Connection, database: str, name: str) -> tuple[SnapshotEntry, ...]:
    from pyiceberg.table.snapshots import ancestors_of

    try:
        table = connection.iceberg.catalog.load_table((database, name))
    except Exception as exc:
        raise LiveStateError(f"{database}.{name}: cannot read its Iceberg metadata: {exc}") from exc
    metadata = table.metadata
    ancestors = {s.snapshot_id for s in ancestors_of(table.current_snapshot(), metadata)}
    found = [
        SnapshotEntry(
            s.snapshot_id,
            s.parent_snapshot_id,
            s.timestamp_ms,
            s.summary.operation.value if s.summary else None,
            redact.mask_mapping({k: str(v) for k, v in (s.summary.additional_properties if s.summary else {}).items()}),
            s.snapshot_id == metadata.current_snapshot_id,
            s.snapshot_id in ancestors,
        )
        for s in metadata.snapshots
    ]
    return tuple(sorted(found, key=lambda s: (s.timestamp_ms, s.snapshot_id), reverse=True))


def _who(value: Any) -> str | None:
    """Who wrote a version, as Glue records it: an Owner is free text (`svc;Password=...`)."""
    return None if value is None else redact.scrub(str(value))


def _text(value: Any) -> str | None:
    if value is None:
        return None
    return value.isoformat() if hasattr(value, "isoformat") else str(value)
