"""What `docs --live` says of a table's history: the versions Glue keeps of it (GetTableVersions,
paged: how many, and the latest few with their times) and, for an Iceberg table, its snapshots as
its current metadata file lists them (one read of the file the catalog points at)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from gluecat.backends.base import Shape
from gluecat.backends.connect import Connection
from gluecat.backends.glue import Glue
from gluecat.errors import LiveStateError
from gluecat.secrets.redact import mask_any

LATEST = 5  # versions and snapshots listed; the count is of all of them


def keeps_versions(connection: Connection) -> bool:
    """Only Glue keeps a table's earlier versions; a Hive Metastore or REST catalog keeps none."""
    return isinstance(connection.catalog, Glue)


def versions(connection: Connection, database: str, table: str) -> dict[str, Any]:
    kept = connection.glue.table_versions(database, table)
    latest = []
    for version in kept[:LATEST]:
        shape = version.get("Table") or {}
        when = shape.get("UpdateTime") or shape.get("CreateTime")
        latest.append({"version": str(version.get("VersionId")), "time": str(when) if when else None})
    return {"count": len(kept), "latest": latest}


def metadata_location(table: Shape) -> str | None:
    parameters = table.get("Parameters") or {}
    if str(parameters.get("table_type", "")).lower() != "iceberg":
        return None
    location = parameters.get("metadata_location")
    return str(location) if location else None


def snapshots(connection: Connection, location: str) -> dict[str, Any]:
    """How many snapshots the table keeps, and its current one: id, time, operation, records added and
    in total (from the snapshot's summary, values masked as everywhere)."""
    try:
        metadata = connection.iceberg.read_metadata(location)
    except LiveStateError as exc:
        return {"error": str(exc)}
    shown: dict[str, Any] = {"count": len(metadata.snapshots), "current": None}
    current = metadata.current_snapshot()
    if current is not None:
        summary = current.summary.model_dump(mode="json") if current.summary is not None else {}
        shown["current"] = mask_any(
            {
                "id": str(current.snapshot_id),
                "time": _time(current.timestamp_ms),
                "operation": summary.get("operation"),
                "added_records": summary.get("added-records"),
                "total_records": summary.get("total-records"),
            }
        )
    shown["latest"] = [
        {"id": str(s.snapshot_id), "time": _time(s.timestamp_ms), "operation": _operation(s.summary)}
        for s in sorted(metadata.snapshots, key=lambda s: s.timestamp_ms, reverse=True)[:LATEST]
    ]
    return shown


def _operation(summary: Any) -> str | None:
    return str(summary.operation.value) if summary is not None and summary.operation is not None else None


def _time(milliseconds: int) -> str:
    return datetime.fromtimestamp(milliseconds / 1000, UTC).isoformat(timespec="seconds")
