"""Table versions kept the way Glue keeps them, in front of moto.

moto keeps a version per UpdateTable, but ignores SkipArchive, has no BatchDeleteTableVersion,
answers a missing version with a server error, lets the current version be deleted (after which
the table cannot be read) and stamps every version with the table's last update time. Glue's
contract (the AWS Glue API reference):

- UpdateTable archives the version it replaces unless SkipArchive is true; the new definition
  still gets the next VersionId (a string holding an integer, incremented by 1), so a writer
  holding the old VersionId is refused either way;
- GetTableVersions pages (the strict layer pages it: 100 at most);
- BatchDeleteTableVersion takes at most 100 VersionIds and reports each one it could not delete
  in `Errors` (TableName, VersionId, ErrorDetail) while deleting the rest; a missing table is
  EntityNotFoundException for the whole call;
- the current version is the table itself: it is never deleted (an entry error here).

Each version carries the time it was written as its `UpdateTime`, as Glue's versions do, kept in the
version itself so that it survives the sandbox's save and restore. Versions
are listed from moto's table objects, not through its HTTP serializer: that takes over a minute to
answer for the 90,000 versions a busy table reaches, and `plan` and `prune-versions` read them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from gluecat.sandbox.fast_partitions import moto_backend
from gluecat.sandbox.partition_indexes import Reply

Payload = dict[str, Any]
Forward = Callable[[str, Payload], Reply]

OPERATIONS = ("BatchDeleteTableVersion", "DeleteTableVersion", "GetTableVersion")
MAX_VERSION_IDS = 100
_NAME_LIMIT = 255


class VersionKeeper:
    """What Glue's version keeping adds to moto's: SkipArchive, batch deletes, each version's time."""

    def clear(self) -> None:
        """moto was reset: the times live in its table versions, so nothing is left to drop."""

    # writes

    def created(self, scope: str, body: Payload, reply: Reply) -> None:
        """CreateTable answered: version 1 was written now."""
        if reply.status == 200:
            self._stamp(scope, body.get("DatabaseName", ""), (body.get("TableInput") or {}).get("Name", ""), "1")

    def update(self, scope: str, body: Payload, forward: Forward) -> Reply:
        """UpdateTable: forward it, then drop the version it replaced when SkipArchive asks."""
        skip = bool(body.pop("SkipArchive", False))
        database, name = body.get("DatabaseName", ""), (body.get("TableInput") or {}).get("Name", "")
        before = _current(forward, database, name)
        reply = forward("UpdateTable", body)
        if reply.status != 200:
            return reply
        after = _current(forward, database, name)
        if after is not None:
            self._stamp(scope, database, name, after)
        if skip and before is not None and before != after:
            forward("DeleteTableVersion", {"DatabaseName": database, "TableName": name, "VersionId": before})
        return reply

    def handle(self, scope: str, operation: str, body: Payload, forward: Forward) -> Reply:
        database, name = body.get("DatabaseName", ""), body.get("TableName", "")
        if operation == "BatchDeleteTableVersion" and (invalid := _batch_problem(body)):
            return invalid
        table = forward("GetTable", {"DatabaseName": database, "Name": name})
        if table.status != 200:
            return table  # EntityNotFoundException for a missing database or table, as Glue answers
        current = str(table.payload["Table"].get("VersionId"))
        if operation == "GetTableVersion":
            return self._get(scope, body, forward, current)
        if operation == "DeleteTableVersion":
            version = str(body.get("VersionId", ""))
            problem = _entry_problem(version, current, self._known(scope, forward, database, name))
            if problem:
                return _fault(problem[0], problem[1])
            forward("DeleteTableVersion", {"DatabaseName": database, "TableName": name, "VersionId": version})
            return Reply(200, {})
        return self._batch_delete(scope, body, forward, current)

    def _batch_delete(self, scope: str, body: Payload, forward: Forward, current: str) -> Reply:
        ids = body["VersionIds"]
        database, name = body["DatabaseName"], body["TableName"]
        known = self._known(scope, forward, database, name)
        errors = []
        for raw in ids:
            version = str(raw)
            problem = _entry_problem(version, current, known)
            if problem:
                errors.append(
                    {
                        "TableName": name,
                        "VersionId": version,
                        "ErrorDetail": {"ErrorCode": problem[0], "ErrorMessage": problem[1]},
                    }
                )
                continue
            forward("DeleteTableVersion", {"DatabaseName": database, "TableName": name, "VersionId": version})
            known.discard(version)
        return Reply(200, {"Errors": errors})

    # reads

    def _get(self, scope: str, body: Payload, forward: Forward, current: str) -> Reply:
        database, name = body["DatabaseName"], body["TableName"]
        version = str(body.get("VersionId") or current)
        if version not in self._known(scope, forward, database, name):
            return _fault("EntityNotFoundException", f"Version {version} of table {name} not found")
        reply = forward("GetTableVersion", {"DatabaseName": database, "TableName": name, "VersionId": version})
        if reply.status == 200:
            self.stamp_versions(scope, database, name, [reply.payload.get("TableVersion") or {}])
        return reply

    def stamp_versions(self, scope: str, database: str, name: str, versions: list[Payload]) -> list[Payload]:
        """Each version with the time it was written (GetTableVersions, GetTableVersion), newest first."""
        table = _moto_table(scope, database, name)
        kept = dict(table.versions) if table is not None else {}
        for version in versions:
            written = (kept.get(str(version.get("VersionId"))) or {}).get("UpdateTime")
            if written is not None and isinstance(version.get("Table"), dict):
                version["Table"]["UpdateTime"] = written
        return sorted(versions, key=lambda v: _number(str(v.get("VersionId"))), reverse=True)

    @staticmethod
    def _stamp(scope: str, database: str, name: str, version: str) -> None:
        """The version's own UpdateTime, kept in moto's copy of the version (so it is saved with the
        sandbox's state): moto stamps every version with the table's last update instead."""
        table = _moto_table(scope, database, name)
        if table is not None and version in table.versions:
            table.versions[version]["UpdateTime"] = time.time()

    @staticmethod
    def _known(scope: str, forward: Forward, database: str, name: str) -> set[str]:
        table = _moto_table(scope, database, name)
        if table is not None:
            return {str(version) for version in list(table.versions)}
        reply = forward("GetTableVersions", {"DatabaseName": database, "TableName": name})
        return {str(v.get("VersionId")) for v in reply.payload.get("TableVersions") or []}

    def listing(self, scope: str, body: Payload, forward: Forward) -> Reply:
        """GetTableVersions, whole (the strict layer pages it): newest first, each with its time."""
        database, name = body.get("DatabaseName", ""), body.get("TableName", "")
        table = _moto_table(scope, database, name)
        if table is None:
            reply = forward("GetTableVersions", body)  # moto's answer for a missing database or table
            if reply.status != 200:
                return reply
            found = list(reply.payload.get("TableVersions") or [])
        else:
            found = [{"Table": _plain(table.as_dict(v)), "VersionId": str(v)} for v in list(table.versions)]
        return Reply(200, {"TableVersions": self.stamp_versions(scope, database, name, found)})


def scope_of(caller: list[str]) -> str:
    return json.dumps(caller)


def _moto_table(scope: str, database: str, name: str) -> Any | None:
    """moto's own table object for the caller's account and region (this runs in moto's process)."""
    try:
        return moto_backend(scope).get_table(database, name)
    except Exception:  # no such database or table: moto answers that with its own error
        return None


def _plain(table: Payload) -> Payload:
    """Timestamps as epoch seconds, as Glue's JSON protocol carries them (and clients parse them fast)."""
    return {k: v.timestamp() if isinstance(v, datetime) else v for k, v in table.items()}


def _current(forward: Forward, database: str, name: str) -> str | None:
    reply = forward("GetTable", {"DatabaseName": database, "Name": name})
    if reply.status != 200:
        return None
    version = reply.payload["Table"].get("VersionId")
    return None if version is None else str(version)


def _batch_problem(body: Payload) -> Reply | None:
    ids = body.get("VersionIds")
    if not isinstance(ids, list):
        return _fault("ValidationException", "1 validation error detected: VersionIds must not be null")
    if len(ids) > MAX_VERSION_IDS:
        return _fault(
            "ValidationException",
            "1 validation error detected: Value at 'versionIds' failed to satisfy constraint:"
            f" Member must have length less than or equal to {MAX_VERSION_IDS}",
        )
    return None


def _entry_problem(version: str, current: str, known: set[str]) -> tuple[str, str] | None:
    if not version or len(version) > _NAME_LIMIT:
        return "InvalidInputException", f"VersionId must be 1 to {_NAME_LIMIT} characters"
    if _number(version) < 0:
        return "InvalidInputException", f"VersionId {version!r} is not a version number"
    if version == current:
        return "InvalidInputException", f"Version {version} is the table's current version and cannot be deleted"
    if version not in known:
        return "EntityNotFoundException", f"Version {version} not found"
    return None


def _number(version: str) -> int:
    return int(version) if version.isdigit() else -1


def _fault(code: str, message: str) -> Reply:
    return Reply(400, {"__type": code, "message": message})
