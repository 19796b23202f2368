"""Partitions held compactly by the local Glue: what a partition's descriptor shares with other
partitions (its columns, SerDe, sort and bucket columns) is one object, held once.

A table's partitions nearly always copy its columns: 100 columns are some 35 KB of Python objects
per partition, so 20,000 partitions held 700 MB of equal lists. A stored partition is never changed
in place (moto replaces a partition whole when it is updated), so equal parts can be one object:
a later write brings its own, and the sharing is copy-on-write by construction.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

import orjson

SHARED_KEYS = ("Columns", "SerdeInfo", "SortColumns", "BucketColumns", "SkewedInfo")


class Shared:
    """One object for each distinct descriptor part seen (equal as JSON, key order included)."""

    def __init__(self) -> None:
        self._held: dict[tuple[str, bytes], Any] = {}
        self._lock = threading.Lock()

    def partitions(self, inputs: Iterable[Any]) -> None:
        """Each PartitionInput's descriptor parts replaced, in place, by the one held."""
        for partition_input in inputs:
            if isinstance(partition_input, dict):
                self.partition(partition_input)

    def partition(self, partition_input: dict[str, Any]) -> None:
        descriptor = partition_input.get("StorageDescriptor")
        if not isinstance(descriptor, dict):
            return
        for key in SHARED_KEYS:
            value = descriptor.get(key)
            if value:
                descriptor[key] = self._once(key, value)

    def _once(self, key: str, value: Any) -> Any:
        try:
            spelled = orjson.dumps(value)
        except TypeError:  # not JSON (never from a request): held as it is
            return value
        with self._lock:
            return self._held.setdefault((key, spelled), value)


SHARED = Shared()


class SavedParts:
    """The shared parts in the saved state: written once, each partition naming its parts by
    number (`{"$shared": n}`), and read back as one object each, so a restored sandbox is as
    compact as the one that saved it and state.json holds each column list once."""

    def __init__(self, held: list[Any] | None = None) -> None:
        self.held: list[Any] = held if held is not None else []
        self._numbers: dict[int, int] = {}  # id of a part (alive in `held`) -> its number

    def out(self, partition_input: dict[str, Any]) -> dict[str, Any]:
        """The PartitionInput to save: its shared parts by number (the stored one is not changed)."""
        descriptor = partition_input.get("StorageDescriptor")
        if not isinstance(descriptor, dict):
            return partition_input
        saved = dict(descriptor)
        for key in SHARED_KEYS:
            value = saved.get(key)
            if value:
                number = self._numbers.get(id(value))
                if number is None:
                    number = self._numbers[id(value)] = len(self.held)
                    self.held.append(value)
                saved[key] = {REF: number}
        return {**partition_input, "StorageDescriptor": saved}

    def back(self, partition_input: dict[str, Any]) -> dict[str, Any]:
        """A saved PartitionInput with its parts restored, in place (a state saved without parts
        holds them whole: they are shared as they are read)."""
        descriptor = partition_input.get("StorageDescriptor")
        if isinstance(descriptor, dict):
            for key in SHARED_KEYS:
                value = descriptor.get(key)
                if isinstance(value, dict) and set(value) == {REF}:
                    descriptor[key] = self.held[value[REF]]
        SHARED.partition(partition_input)
        return partition_input


REF = "$shared"
