"""Glue fields gluecat does not model, kept in a table's `extra` so nothing is dropped silently."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

TABLE_KEYS = ("Owner", "Retention", "TargetTable")
# View texts a table that is no view can carry all the same (some tools write them): kept in its
# `extra`, so a catalog rebuilt from the files has them too. A view models its own.
VIEW_TEXTS = ("ViewOriginalText", "ViewExpandedText")
# A Hive table's StorageDescriptor beyond what the model covers (its Parameters are
# `storage_parameters`, compared key by key).
STORAGE_KEYS = (
    "NumberOfBuckets", "BucketColumns", "SortColumns", "SkewedInfo", "Compressed",
    "StoredAsSubDirectories", "AdditionalLocations", "SchemaReference",
)  # fmt: skip
# A view models only its columns: the rest of its StorageDescriptor is carried as it is.
VIEW_STORAGE_KEYS = (*STORAGE_KEYS, "Parameters", "Location", "InputFormat", "OutputFormat", "SerdeInfo")
# Nor its partition keys (Glue takes them on a view; no engine reads them): carried as they are.
VIEW_TABLE_KEYS = (*TABLE_KEYS, "PartitionKeys")


def meaningful(key: str, value: Any) -> bool:
    """Whether Glue treats a value as set: it answers -1 or 0 buckets, False, 0 retention and
    empty strings, lists and maps for fields nobody set, and no reader tells them apart."""
    if key == "NumberOfBuckets":
        return isinstance(value, int) and value > 0
    if key == "Retention":
        return bool(value)
    if key in ("SkewedInfo", "SerdeInfo"):
        return isinstance(value, Mapping) and any(value.values())
    return value not in (None, False, "", [], {})


def storage_extra(descriptor: Mapping[str, Any], keys: tuple[str, ...] = STORAGE_KEYS) -> dict[str, Any]:
    return {k: descriptor[k] for k in keys if meaningful(k, descriptor.get(k))}


def extra_from_glue(
    live: Mapping[str, Any], storage_keys: tuple[str, ...] = STORAGE_KEYS, table_keys: tuple[str, ...] = TABLE_KEYS
) -> dict[str, Any]:
    extra: dict[str, Any] = {k: live[k] for k in table_keys if meaningful(k, live.get(k))}
    storage = storage_extra(live.get("StorageDescriptor") or {}, storage_keys)
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


def declared_extra(
    desired: Mapping[str, Any], storage_keys: tuple[str, ...] = STORAGE_KEYS, table_keys: tuple[str, ...] = TABLE_KEYS
) -> Iterator[tuple[str, tuple[str, ...]]]:
    """(path for messages, key path) of every `extra` field a desired TableInput carries."""
    for key in table_keys:
        if key in desired and (key != "PartitionKeys" or desired[key]):
            yield f"extra.{key}", (key,)
    descriptor = desired.get("StorageDescriptor") or {}
    for key in storage_keys:
        if key in descriptor and meaningful(key, descriptor[key]):
            yield f"extra.StorageDescriptor.{key}", ("StorageDescriptor", key)
