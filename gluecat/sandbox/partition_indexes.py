"""Partition indexes for the local Glue: moto has none of the calls, so the strict layer keeps them.

What real Glue does, from the AWS Glue API reference and the guide's "Creating
partition indexes": at most 3 indexes per table; keys are partition keys of a
string, numeric or date type, any order; a new index is CREATING while Glue
backfills it from the existing partitions, then ACTIVE — or FAILED, with
BackfillErrors naming the partitions whose values do not fit the key type; an
index cannot be deleted while it is CREATING; a deleted index is DELETING for a
while before it is gone. Indexes passed to CreateTable have nothing to backfill.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

OPERATIONS = ("CreatePartitionIndex", "DeletePartitionIndex", "GetPartitionIndexes")
# Calls whose effect on tables the index store must follow.
WATCHED = ("CreateTable", "DeleteTable", "BatchDeleteTable", "DeleteDatabase")
_INTEGER = re.compile(r"^[+-]?[0-9]+$")
_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
MAX_INDEXES = 3
_NUMERIC = ("tinyint", "smallint", "int", "bigint", "long")
INDEXABLE_TYPES = ("string", "char", "varchar", "date", *_NUMERIC)
BACKFILL_SECONDS = 0.5  # how long a change stays CREATING or DELETING here; real Glue takes longer

Payload = dict[str, Any]


@dataclass(frozen=True)
class Reply:
    status: int
    payload: Payload


Forward = Callable[[str, Payload], Reply]


class GlueFault(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def reply(self) -> Reply:
        return Reply(400, {"__type": self.code, "message": self.message})


@dataclass
class _Index:
    name: str
    keys: list[Payload]  # [{Name, Type}]
    ready_at: float  # when it leaves CREATING
    backfill_errors: list[Payload] = field(default_factory=list)
    deleted_at: float | None = None  # DELETING from then until `delay` has passed, then gone

    def status(self, now: float, delay: float) -> str | None:
        if self.deleted_at is not None:
            return "DELETING" if now < self.deleted_at + delay else None
        if now < self.ready_at:
            return "CREATING"
        return "FAILED" if self.backfill_errors else "ACTIVE"


class PartitionIndexStore:
    """Every table's indexes, by (database, table); states follow the clock, `delay` seconds per change."""

    def __init__(self, delay: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.delay = delay
        self._clock = clock
        self._lock = threading.Lock()
        self._tables: dict[tuple[str, str], list[_Index]] = {}
        self.on_change: Callable[[], None] = lambda: None  # the sandbox saves its state after changes

    def export(self) -> list[Payload]:
        """Every table's indexes as plain data, for the sandbox's saved state (DELETING ones are gone)."""
        with self._lock:
            kept = {key: [_saved(i) for i in self._live(key) if i.deleted_at is None] for key in list(self._tables)}
        return [{"database": d, "table": t, "indexes": indexes} for (d, t), indexes in kept.items() if indexes]

    def load(self, saved: list[Payload]) -> None:
        """Indexes from a saved state: their backfill finished before the save, so they are settled."""
        with self._lock:
            for entry in saved:
                self._tables[(entry["database"], entry["table"])] = [
                    _Index(i["IndexName"], i["Keys"], 0.0, i.get("BackfillErrors") or []) for i in entry["indexes"]
                ]

    def clear(self) -> None:
        with self._lock:
            self._tables.clear()

    def handle(self, operation: str, body: Payload, forward: Forward) -> Reply:
        try:
            if operation == "GetPartitionIndexes":
                return self._get(body, forward)
            if operation == "CreatePartitionIndex":
                return self._create(body, forward)
            if operation == "DeletePartitionIndex":
                return self._delete(body, forward)
            return self._follow(operation, body, forward)
        except GlueFault as fault:
            return fault.reply()
        finally:
            if operation != "GetPartitionIndexes":
                self.on_change()

    # the three calls

    def _get(self, body: Payload, forward: Forward) -> Reply:
        key = _table_key(body, "TableName")
        _partition_keys(forward, key)
        now = self._clock()
        with self._lock:
            listed = [_descriptor(i, status) for i in self._live(key) if (status := i.status(now, self.delay))]
        return Reply(200, {"PartitionIndexDescriptorList": listed})

    def _create(self, body: Payload, forward: Forward) -> Reply:
        key = _table_key(body, "TableName")
        index = body.get("PartitionIndex") or {}
        partition_keys = _partition_keys(forward, key)
        typed = _typed_keys(index, partition_keys)
        errors = _backfill_errors(typed, list(partition_keys), _partitions(forward, key))
        with self._lock:
            self._check_room(key, [index])
            self._tables.setdefault(key, []).append(
                _Index(index["IndexName"], typed, self._clock() + self.delay, errors)
            )
        return Reply(200, {})

    def _delete(self, body: Payload, forward: Forward) -> Reply:
        key = _table_key(body, "TableName")
        _partition_keys(forward, key)
        name = body.get("IndexName")
        now = self._clock()
        with self._lock:
            found = [i for i in self._live(key) if i.name == name and i.status(now, self.delay) != "DELETING"]
            if not found:
                raise GlueFault("EntityNotFoundException", f"Partition index {name} not found")
            if found[0].status(now, self.delay) == "CREATING":
                raise GlueFault("ConflictException", f"Partition index {name} is being created; delete it once ACTIVE")
            found[0].deleted_at = now
        return Reply(200, {})

    # table calls the store follows

    def _follow(self, operation: str, body: Payload, forward: Forward) -> Reply:
        if operation == "CreateTable":
            return self._create_table(body, forward)
        reply = forward(operation, body)
        if reply.status != 200:
            return reply
        database = str(body.get("DatabaseName") or body.get("Name") or "")
        with self._lock:
            if operation == "DeleteDatabase":
                gone = [k for k in self._tables if k[0] == database]
            elif operation == "DeleteTable":
                gone = [(database, str(body.get("Name")))]
            else:
                failed = {e.get("TableName") for e in reply.payload.get("Errors") or []}
                gone = [(database, name) for name in body.get("TablesToDelete") or [] if name not in failed]
            for key in gone:
                self._tables.pop(key, None)
        return reply

    def _create_table(self, body: Payload, forward: Forward) -> Reply:
        indexes = body.pop("PartitionIndexes", None) or []
        table = body.get("TableInput") or {}
        key = (str(body.get("DatabaseName")), str(table.get("Name")))
        partition_keys = {c["Name"]: c.get("Type", "") for c in table.get("PartitionKeys") or []}
        try:
            typed = [_typed_keys(index, partition_keys) for index in indexes]
            with self._lock:
                self._check_room(key, indexes, fresh=True)
        except GlueFault as fault:
            return fault.reply()
        reply = forward("CreateTable", body)
        if reply.status == 200 and indexes:
            ready = self._clock()  # a new table has no partitions to backfill
            with self._lock:
                self._tables[key] = [_Index(i["IndexName"], k, ready) for i, k in zip(indexes, typed, strict=True)]
        return reply

    # helpers

    def _live(self, key: tuple[str, str]) -> list[_Index]:
        now = self._clock()
        kept = [i for i in self._tables.get(key, []) if i.status(now, self.delay) is not None]
        self._tables[key] = kept
        return kept

    def _check_room(self, key: tuple[str, str], adding: list[Payload], fresh: bool = False) -> None:
        existing = [] if fresh else self._live(key)
        names = [i.name for i in existing]
        for index in adding:
            if index["IndexName"] in names:
                raise GlueFault("AlreadyExistsException", f"Partition index {index['IndexName']} already exists")
            names.append(index["IndexName"])
        if len(names) > MAX_INDEXES:
            raise GlueFault(
                "ResourceNumberLimitExceededException",
                f"Table {key[0]}.{key[1]} may have at most {MAX_INDEXES} partition indexes",
            )


def _table_key(body: Payload, name_key: str) -> tuple[str, str]:
    return str(body.get("DatabaseName")), str(body.get(name_key))


def _partition_keys(forward: Forward, key: tuple[str, str]) -> dict[str, str]:
    reply = forward("GetTable", {"DatabaseName": key[0], "Name": key[1]})
    if reply.status != 200:
        raise GlueFault("EntityNotFoundException", f"Table {key[1]} not found in database {key[0]}")
    return {c["Name"]: c.get("Type", "") for c in reply.payload["Table"].get("PartitionKeys") or []}


def _partitions(forward: Forward, key: tuple[str, str]) -> list[Payload]:
    reply = forward("GetPartitions", {"DatabaseName": key[0], "TableName": key[1]})
    return list(reply.payload.get("Partitions") or []) if reply.status == 200 else []


def _typed_keys(index: Payload, partition_keys: dict[str, str]) -> list[Payload]:
    name, keys = index.get("IndexName"), list(index.get("Keys") or [])
    if not name or not keys:
        raise GlueFault("InvalidInputException", "A partition index needs an IndexName and at least one key")
    if len(set(keys)) != len(keys):
        raise GlueFault("InvalidInputException", f"Partition index {name} repeats a key")
    typed = []
    for key in keys:
        if key not in partition_keys:
            raise GlueFault("InvalidInputException", f"Key {key} of partition index {name} is not a partition key")
        if _base_type(partition_keys[key]) not in INDEXABLE_TYPES:
            raise GlueFault(
                "InvalidInputException", f"Partition key {key} of type {partition_keys[key]} cannot be indexed"
            )
        typed.append({"Name": key, "Type": partition_keys[key]})
    return typed


def _backfill_errors(keys: list[Payload], order: list[str], partitions: list[Payload]) -> list[Payload]:
    """Partitions whose values do not parse as their indexed key's type (`order`: the table's partition keys)."""
    positions = [(key["Type"], order.index(key["Name"])) for key in keys]
    bad = [
        {"Values": list(p.get("Values") or [])}
        for p in partitions
        if any(not _fits(kind, (p.get("Values") or [])[at]) for kind, at in positions)
    ]
    return [{"Code": "INVALID_PARTITION_TYPE_DATA_ERROR", "Partitions": bad}] if bad else []


def _fits(type_text: str, value: str) -> bool:
    base = _base_type(type_text)
    if base in _NUMERIC:
        return bool(_INTEGER.match(value))
    if base == "date":
        return bool(_DATE.match(value))
    return True


def _base_type(type_text: str) -> str:
    return type_text.split("(", 1)[0].strip().lower()


def _saved(index: _Index) -> Payload:
    return {"IndexName": index.name, "Keys": index.keys, "BackfillErrors": index.backfill_errors}


def _descriptor(index: _Index, status: str) -> Payload:
    descriptor: Payload = {"IndexName": index.name, "Keys": index.keys, "IndexStatus": status}
    if status == "FAILED":
        descriptor["BackfillErrors"] = index.backfill_errors
    return descriptor
