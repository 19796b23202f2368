"""What a Hive-format table means for import's comparison: storage resolved, the location as a
plan places it, partitions by their values (only when import read them)."""

from __future__ import annotations

from typing import Any

from gluecat.convert.locations import partition_location, slashless, table_location
from gluecat.convert.parameters import managed
from gluecat.convert.partitions import own_input
from gluecat.convert.storage import resolve_storage
from gluecat.model import Database, HiveTable
from gluecat.model.partitions import expand_item


def hive_meaning(table: HiveTable, database: Database, ignore: tuple[str, ...], partitions: bool) -> dict[str, Any]:
    meaning = _hive_meaning(table, database, ignore, partitions)
    meaning["parameters"] = managed(table.parameters, ignore)
    # Glue folds top-level column names to lowercase.
    for key, columns in (("columns", table.columns), ("partition_keys", table.partition_keys)):
        meaning[key] = [{**c.model_dump(mode="json", by_alias=True), "name": c.name.lower()} for c in columns]
    return meaning


def _hive_meaning(table: HiveTable, database: Database, ignore: tuple[str, ...], partitions: bool) -> dict[str, Any]:
    storage = resolve_storage(table)
    location = table_location(table, database)
    meaning: dict[str, Any] = {
        "location": slashless(location),
        "storage": None,
        "input_format": storage.input_format,
        "output_format": storage.output_format,
        "serde": {
            "name": table.serde.name if table.serde else None,
            "library": storage.serde_library,
            "parameters": storage.serde_parameters,
        },
        "storage_parameters": managed(table.storage_parameters, ignore),
        "partitions": None,
    }
    if partitions and table.partitions is not None:
        meaning["partitions"] = _partitions(table, location)
    return meaning


def _partitions(table: HiveTable, location: str | None) -> dict[str, Any]:
    """Every declared partition, by its values: where it is and what it holds of its own."""
    keys = [key.name for key in table.partition_keys]
    declared: dict[str, Any] = {}
    for item in table.partitions or []:
        own = own_input(item)
        for values, explicit in expand_item(item, keys):
            where = explicit if explicit is not None else location and partition_location(location, keys, values)
            name = "/".join(f"{key}={value}" for key, value in zip(keys, values, strict=True))
            declared.setdefault(name, {"location": slashless(where), **own})
    return declared
