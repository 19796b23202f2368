"""Table optimizers for the local Glue: moto has none of the calls, so the strict layer keeps them.

What real Glue does, from the AWS Glue API reference (CreateTableOptimizer,
UpdateTableOptimizer, DeleteTableOptimizer, GetTableOptimizer, BatchGetTableOptimizer,
TableOptimizerConfiguration and its Iceberg configurations): one optimizer per table and
type (compaction, retention, orphan_file_deletion); a second create is
AlreadyExistsException, an update, delete or get of none is EntityNotFoundException, and
so is a table or database that does not exist; only Iceberg tables are optimized;
roleArn is 20 to 2,048 characters naming an IAM role; run rates are 3 to 168 hours;
BatchGetTableOptimizer answers every entry, those it cannot find as Failures.
An optimizer goes when its table does: one created for a table of the same name later
starts afresh.
"""

from __future__ import annotations

import copy
import json
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gluecat.model.words import a
from gluecat.sandbox.partition_indexes import Forward, GlueFault, Reply
from gluecat.secrets.files import write_inside

STATE_FILE = "optimizers.json"  # beside the sandbox's state.json

OPTIMIZER_CALLS = (
    "CreateTableOptimizer",
    "UpdateTableOptimizer",
    "DeleteTableOptimizer",
    "GetTableOptimizer",
    "BatchGetTableOptimizer",
)
TYPES = ("compaction", "retention", "orphan_file_deletion")
STRATEGIES = ("binpack", "sort", "z-order")
_ROLE = re.compile(r"^arn:aws[a-z-]*:iam::[0-9]{12}:role/[\w+=,.@/-]{1,512}$")
_RUN_RATE = (3, 168)
_COUNTS = {
    "compactionConfiguration": ("minInputFiles", "deleteFileThreshold"),
    "retentionConfiguration": ("snapshotRetentionPeriodInDays", "numberOfSnapshotsToRetain"),
    "orphanFileDeletionConfiguration": ("orphanFileRetentionPeriodInDays",),
}

Payload = dict[str, Any]
Key = tuple[str, str, str]  # database, table, type


class OptimizerStore:
    """Every table's optimizers, with the CreateTime of the table each was made for."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._optimizers: dict[Key, tuple[str | None, Payload]] = {}
        self.on_change: Callable[[], None] = lambda: None  # the sandbox saves its state after changes

    def export(self) -> list[Payload]:
        with self._lock:
            return [
                {"database": d, "table": t, "type": kind, "configuration": configuration}
                for (d, t, kind), (_, configuration) in sorted(self._optimizers.items())
            ]

    def load(self, saved: list[Payload]) -> None:
        """Optimizers from a saved state (made for whichever table of that name was saved with them)."""
        with self._lock:
            for entry in saved:
                self._optimizers[(entry["database"], entry["table"], entry["type"])] = (None, entry["configuration"])

    def clear(self) -> None:
        with self._lock:
            self._optimizers.clear()

    def handle(self, operation: str, body: Payload, forward: Forward) -> Reply:
        try:
            if operation == "BatchGetTableOptimizer":
                return self._batch_get(body, forward)
            key = _key(body.get("DatabaseName"), body.get("TableName"), body.get("Type"))
            created = _iceberg_table(forward, key)
            if operation == "GetTableOptimizer":
                return Reply(200, self._get(key, created, str(body.get("CatalogId") or "")))
            if operation == "CreateTableOptimizer":
                self._create(key, created, _configuration(body, creating=True))
            elif operation == "UpdateTableOptimizer":
                self._update(key, created, _configuration(body, creating=False))
            else:
                self._delete(key, created)
            self.on_change()
            return Reply(200, {})
        except GlueFault as fault:
            return fault.reply()

    def _get(self, key: Key, created: str | None, catalog_id: str) -> Payload:
        configuration = self._current(key, created)
        return {
            "CatalogId": catalog_id,
            "DatabaseName": key[0],
            "TableName": key[1],
            "TableOptimizer": _described(key[2], configuration),
        }

    def _create(self, key: Key, created: str | None, configuration: Payload) -> None:
        with self._lock:
            if self._found(key, created) is not None:
                message = f"{a(key[2]).capitalize()} optimizer already exists for {_name(key)}"
                raise GlueFault("AlreadyExistsException", message)
            self._optimizers[key] = (created, configuration)

    def _update(self, key: Key, created: str | None, configuration: Payload) -> None:
        self._current(key, created)
        with self._lock:
            self._optimizers[key] = (created, configuration)

    def _delete(self, key: Key, created: str | None) -> None:
        self._current(key, created)
        with self._lock:
            self._optimizers.pop(key, None)

    def _current(self, key: Key, created: str | None) -> Payload:
        with self._lock:
            configuration = self._found(key, created)
        if configuration is None:
            raise GlueFault("EntityNotFoundException", f"No {key[2]} optimizer found for {_name(key)}")
        return configuration

    def _found(self, key: Key, created: str | None) -> Payload | None:
        """The optimizer made for this very table (one left by a dropped table of that name is gone)."""
        entry = self._optimizers.get(key)
        if entry is None:
            return None
        made_for, configuration = entry
        if made_for is not None and created is not None and made_for != created:
            del self._optimizers[key]
            return None
        return copy.deepcopy(configuration)

    def _batch_get(self, body: Payload, forward: Forward) -> Reply:
        entries = body.get("Entries")
        if not isinstance(entries, list):
            raise GlueFault("InvalidInputException", "Entries is required")
        found: list[Payload] = []
        failures: list[Payload] = []
        for entry in entries:
            where = {"catalogId": entry.get("catalogId"), "databaseName": entry.get("databaseName"),
                     "tableName": entry.get("tableName")}  # fmt: skip
            try:
                key = _key(entry.get("databaseName"), entry.get("tableName"), entry.get("type"))
                configuration = self._current(key, _iceberg_table(forward, key))
            except GlueFault as fault:
                error = {"ErrorCode": fault.code, "ErrorMessage": fault.message}
                failures.append({**where, "type": entry.get("type"), "error": error})
                continue
            found.append({**where, "databaseName": key[0], "tableName": key[1],
                          "tableOptimizer": _described(key[2], configuration)})  # fmt: skip
        return Reply(200, {"TableOptimizers": found, "Failures": failures})


def _key(database: Any, table: Any, kind: Any) -> Key:
    if kind not in TYPES:
        raise GlueFault(
            "ValidationException",
            f"1 validation error detected: Value '{kind}' at 'type' failed to satisfy constraint:"
            f" Member must satisfy enum value set: [{', '.join(TYPES)}]",
        )
    if not database or not table:
        raise GlueFault("InvalidInputException", "DatabaseName and TableName are required")
    return str(database).lower(), str(table).lower(), str(kind)


def _name(key: Key) -> str:
    return f"table {key[0]}.{key[1]}"


def _iceberg_table(forward: Forward, key: Key) -> str | None:
    """The table's CreateTime, once it is known to exist and to be an Iceberg table."""
    reply = forward("GetTable", {"DatabaseName": key[0], "Name": key[1]})
    if reply.status != 200:
        raise GlueFault("EntityNotFoundException", f"Table {key[1]} not found in database {key[0]}")
    table = reply.payload["Table"]
    if str((table.get("Parameters") or {}).get("table_type", "")).upper() != "ICEBERG":
        raise GlueFault(
            "InvalidInputException",
            f"Table {key[0]}.{key[1]} is not an Iceberg table: only Iceberg tables are optimized",
        )
    created = table.get("CreateTime")
    return None if created is None else str(created)


def _configuration(body: Payload, creating: bool) -> Payload:
    configuration = body.get("TableOptimizerConfiguration")
    if not isinstance(configuration, dict):
        raise GlueFault("InvalidInputException", "TableOptimizerConfiguration is required")
    role = configuration.get("roleArn")
    if role is None and creating:
        raise GlueFault("InvalidInputException", "roleArn is required to create a table optimizer")
    if role is not None:
        _check_role(str(role))
    for section, counts in _COUNTS.items():
        iceberg = (configuration.get(section) or {}).get("icebergConfiguration") or {}
        for name in counts:
            if iceberg.get(name) is not None and int(iceberg[name]) < 1:
                raise GlueFault("InvalidInputException", f"{name} must be at least 1, not {iceberg[name]}")
        rate = iceberg.get("runRateInHours")
        if rate is not None and not _RUN_RATE[0] <= int(rate) <= _RUN_RATE[1]:
            raise GlueFault("InvalidInputException", f"runRateInHours must be between 3 and 168, not {rate}")
    strategy = ((configuration.get("compactionConfiguration") or {}).get("icebergConfiguration") or {}).get("strategy")
    if strategy is not None and strategy not in STRATEGIES:
        raise GlueFault(
            "ValidationException",
            f"1 validation error detected: Value '{strategy}' at 'strategy' failed to satisfy constraint:"
            f" Member must satisfy enum value set: [{', '.join(STRATEGIES)}]",
        )
    return copy.deepcopy(configuration)


def _check_role(role: str) -> None:
    if not 20 <= len(role) <= 2048:
        raise GlueFault(
            "ValidationException",
            "1 validation error detected: Value at 'tableOptimizerConfiguration.roleArn' failed to satisfy"
            " constraint: Member must have length between 20 and 2048",
        )
    if not _ROLE.match(role):
        raise GlueFault("InvalidInputException", f"Invalid role ARN: {role}")


def _described(kind: str, configuration: Payload) -> Payload:
    return {"type": kind, "configuration": configuration, "configurationSource": "table"}


def restore(store: OptimizerStore, state: Path) -> None:
    path = state / STATE_FILE
    if path.is_file():
        store.load(json.loads(path.read_text(encoding="utf-8")))


def save(store: OptimizerStore, state: Path) -> None:
    saved = store.export()
    if saved or (state / STATE_FILE).exists():  # a role ARN names an account: private, as state.json is
        write_inside(state, state / STATE_FILE, json.dumps(saved, sort_keys=True), private=True)
