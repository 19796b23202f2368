"""Glue fields gluecat does not model, kept in a table's `extra` so nothing is dropped silently."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

TABLE_KEYS = ("Owner", "Retention", "TargetTable")
STORAGE_KEYS = (
    "NumberOfBuckets", "BucketColumns", "SortColumns", "SkewedInfo", "Parameters", "Compressed",
    "StoredAsSubDirectories", "AdditionalLocations", "SchemaReference",
)  # fmt: skip


def _meaningful(key: str, value: Any) -> bool:
    """Glue answers defaults for unset fields (-1 buckets, False, empty lists): those are not kept."""
    if key == "NumberOfBuckets":
        return isinstance(value, int) and value > 0
    if key == "Retention":
        return bool(value)
    if key == "SkewedInfo":
        return isinstance(value, Mapping) and any(value.values())
    return value not in (None, False, "", [], {})


def extra_from_glue(live: Mapping[str, Any]) -> dict[str, Any]:
    extra: dict[str, Any] = {k: live[k] for k in TABLE_KEYS if _meaningful(k, live.get(k))}
    descriptor = live.get("StorageDescriptor") or {}
    storage = {k: descriptor[k] for k in STORAGE_KEYS if _meaningful(k, descriptor.get(k))}
    if storage:
        extra["StorageDescriptor"] = storage
    return extra


def merge_extra(shape: dict[str, Any], extra: Mapping[str, Any]) -> None:
    """Lay `extra` over a TableInput in place (one level deep into the StorageDescriptor)."""
    for key, value in extra.items():
        if key == "StorageDescriptor" and isinstance(value, Mapping):
            shape.setdefault("StorageDescriptor", {}).update(value)
        else:
            shape[key] = value


def declared_extra(desired: Mapping[str, Any]) -> Iterator[tuple[str, tuple[str, ...]]]:
    """(path for messages, key path) of every `extra` field a desired TableInput carries."""
    for key in TABLE_KEYS:
        if key in desired:
            yield f"extra.{key}", (key,)
    for key in STORAGE_KEYS:
        if key in (desired.get("StorageDescriptor") or {}):
            yield f"extra.StorageDescriptor.{key}", ("StorageDescriptor", key)
