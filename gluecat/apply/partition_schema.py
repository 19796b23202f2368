"""partition_schema: follow — BatchUpdatePartition entries that give live partitions their table's
columns and SerDe while each keeps its own location, parameters and everything else."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gluecat.changes.model import PartitionChanges

Shape = dict[str, Any]
PARTITION_INPUT_KEYS = ("Values", "LastAccessTime", "StorageDescriptor", "Parameters", "LastAnalyzedTime")


def follow_entries(group: PartitionChanges, live: Iterable[Mapping[str, Any]]) -> list[Shape]:
    wanted = set(group.follows)
    return [_entry(group, partition) for partition in live if tuple(partition["Values"]) in wanted]


def _entry(group: PartitionChanges, partition: Mapping[str, Any]) -> Shape:
    partition_input = {k: partition[k] for k in PARTITION_INPUT_KEYS if k in partition}
    descriptor = dict(partition.get("StorageDescriptor") or {})
    descriptor["Columns"] = group.storage.get("Columns", [])
    descriptor["SerdeInfo"] = group.storage.get("SerdeInfo", {})
    partition_input["StorageDescriptor"] = descriptor
    return {"PartitionValueList": list(partition["Values"]), "PartitionInput": partition_input}
