"""Partition indexes diffed by name and keys: each add or removal is its own change, never a table replace.

Keys are immutable in Glue, so new keys under the same name replace the index
(delete, then create). None of it touches data or partitions: index changes are
never destructive. Only tables whose file has `partition_indexes` get here, so
indexes a crawler made on other tables are left alone.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from gluecat.changes.impact import Finding, Impact
from gluecat.changes.model import Action, Change, FieldDiff, Kind
from gluecat.convert.partition_index import index_input, indexes_from_glue
from gluecat.model.partition_index import PartitionIndex

KIND: Kind = "index"
FILTERING = "partition_filtering.enabled"


def index_address(database: str, table: str, name: str) -> str:
    return f"{database}.{table}#{name}"


def index_changes(
    database: str,
    table: str,
    declared: Iterable[PartitionIndex],
    live: Iterable[Mapping[str, Any]],
    table_parameters: Mapping[str, str],
) -> Iterator[Change]:
    live = list(live)
    version = indexes_fingerprint(live)
    have = {index.name: index for index in indexes_from_glue(live)}
    failed = {d["IndexName"]: _failure(d) for d in live if d.get("IndexStatus") == "FAILED"}
    want = {index.name: index for index in declared}
    for name, gone in have.items():
        if name not in want:
            yield Change(
                index_address(database, table, name), KIND, Action.DELETE, database, table, {"IndexName": name},
                (FieldDiff("keys", _keys(gone), None),), live_version=version, reason="not in partition_indexes",
            )  # fmt: skip
    guidance = () if str(table_parameters.get(FILTERING, "")).lower() == "true" else (_filtering_finding(),)
    for name, index in want.items():
        before = have.get(name)
        address = index_address(database, table, name)
        if before is None:
            yield Change(address, KIND, Action.CREATE, database, table, index_input(index),
                         (FieldDiff("keys", None, _keys(index)),), live_version=version, findings=guidance)  # fmt: skip
        elif before.keys != index.keys or name in failed:
            why = f"Glue failed to build it ({failed[name]})" if name in failed else "index keys cannot change"
            yield Change(address, KIND, Action.REPLACE, database, table, index_input(index),
                         (FieldDiff("keys", _keys(before), _keys(index)),), live_version=version,
                         reason=f"{why}: delete, then create")  # fmt: skip


def indexes_fingerprint(live: Iterable[Mapping[str, Any]]) -> str:
    """What a saved plan re-checks: the names and keys of the table's indexes (not their status)."""
    shown = [(index.name, index.keys) for index in indexes_from_glue(live)]
    return hashlib.sha256(json.dumps(shown).encode()).hexdigest()[:16]


def _keys(index: PartitionIndex) -> str:
    return ", ".join(index.keys)


def _failure(descriptor: Mapping[str, Any]) -> str:
    codes = [str(e.get("Code")) for e in descriptor.get("BackfillErrors") or []]
    return "FAILED: " + (", ".join(codes) or "no backfill errors given")


def _filtering_finding() -> Finding:
    return Finding(
        "partition-filtering",
        Impact.SAFE,
        f"Athena filters through partition indexes only when the table parameter {FILTERING} is 'true'",
    )
