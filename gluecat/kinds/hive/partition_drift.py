"""Partitions whose own storage descriptor has drifted from their table's.

Each partition keeps the columns and SerDe it was created with; changing the table's does not
touch them. Athena checks every partition against the table when it plans a query: by column
name for Parquet (and ORC read by name), by index for the other formats, and fails with
HIVE_PARTITION_SCHEMA_MISMATCH where a column's types are not compatible.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from gluecat.changes.impact import Finding, Impact
from gluecat.kinds.hive.impact import WIDENINGS, Storage
from gluecat.model.hivetype import same_type

Shape = Mapping[str, Any]


@dataclass(frozen=True)
class Drift:
    total: int
    drifted: tuple[tuple[str, ...], ...]  # columns or SerDe differ from the table's
    mismatched: int  # of those, how many Athena rejects

    def finding(self, storage: Storage, follow: bool) -> Finding | None:
        if not self.drifted:
            return None
        counts = f"{len(self.drifted):,} of {self.total:,} partitions"
        if follow:
            return Finding(
                "partition-schema-follow",
                Impact.SAFE,
                f"{counts} get the table's columns and SerDe (partition_schema: follow), each keeping its own"
                " location and parameters",
            )
        if self.mismatched:
            return Finding(
                "partition-schema-mismatch",
                Impact.BREAKING,
                f"{counts} keep their own columns, and {self.mismatched:,} of them do not match the table's"
                f" ({'by position' if _checked_by_index(storage) else 'by name'} for {storage.name}): Athena fails"
                " with HIVE_PARTITION_SCHEMA_MISMATCH; set `partition_schema: follow` to bring them in step",
            )
        return Finding(
            "partition-schema-drift",
            Impact.SAFE,
            f"{counts} keep their own columns or SerDe, which differ from the table's; Athena still reads them",
        )


def partition_drift(partitions: Sequence[Shape], storage: Shape, kind: Storage) -> Drift:
    """`storage` is the table's descriptor as it will be after the plan."""
    want = _schema_key(storage)
    want_columns = storage.get("Columns") or []
    want_serde = storage.get("SerdeInfo") or {}
    drifted = []
    mismatched = 0
    for partition in partitions:
        descriptor = partition.get("StorageDescriptor") or {}
        if "Columns" not in descriptor:  # read without its column schema: nothing to judge
            continue
        # The common case first: written from this very descriptor, equal as is.
        if descriptor["Columns"] == want_columns and descriptor.get("SerdeInfo") == want_serde:
            continue
        if _schema_key(descriptor) == want:
            continue
        drifted.append(tuple(partition["Values"]))
        mismatched += _mismatched(descriptor.get("Columns") or [], want_columns, kind)
    return Drift(len(partitions), tuple(sorted(drifted)), mismatched)


def _schema_key(descriptor: Shape) -> tuple[Any, ...]:
    serde = descriptor.get("SerdeInfo") or {}
    columns = tuple((c["Name"], c.get("Type", "").replace(" ", "").lower()) for c in descriptor.get("Columns") or [])
    parameters = tuple(sorted((serde.get("Parameters") or {}).items()))
    return columns, serde.get("SerializationLibrary"), parameters


def _checked_by_index(storage: Storage) -> bool:
    return storage.name not in ("parquet", "orc") or storage.by_position


def _mismatched(have: Sequence[Shape], want: Sequence[Shape], storage: Storage) -> bool:
    if _checked_by_index(storage):
        pairs = [(h.get("Type", ""), w.get("Type", "")) for h, w in zip(have, want, strict=False)]
    else:
        wanted = {w["Name"]: w.get("Type", "") for w in want}
        pairs = [(h.get("Type", ""), wanted[h["Name"]]) for h in have if h["Name"] in wanted]
    return any(not _compatible(before, after) for before, after in pairs)


@cache  # a table's partitions repeat the same few type pairs
def _compatible(before: str, after: str) -> bool:
    return same_type(before, after) or (before.strip().lower(), after.strip().lower()) in WIDENINGS
