"""Spark's own copy of a table's schema, kept in step with the Glue columns.

Tables that Spark creates carry their schema as StructType JSON in the parameters
`spark.sql.sources.schema.numParts` and `spark.sql.sources.schema.part.N` (split every
`spark.sql.sources.schemaStringLengthThreshold` characters, 4000 by default). Spark reads that
copy instead of the Glue columns, so a column change must rewrite it or Spark never sees it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from gluecat.model.hivetype import Array, Char, Decimal, HiveType, HiveTypeError, Map, Primitive, Struct, Varchar, parse

PREFIX = "spark.sql.sources.schema"
NUM_PARTS = f"{PREFIX}.numParts"
PART = f"{PREFIX}.part."
PART_SIZE = 4000  # spark.sql.sources.schemaStringLengthThreshold's default
CHAR_VARCHAR = "__CHAR_VARCHAR_TYPE_STRING"
SPARK_NAMES = {"tinyint": "byte", "smallint": "short", "int": "integer", "bigint": "long"}


def has_schema_copy(parameters: Mapping[str, str]) -> bool:
    return PREFIX in parameters or NUM_PARTS in parameters


def read_schema(parameters: Mapping[str, str]) -> dict[str, Any] | None:
    """The StructType JSON Spark would read, or None when the table has none (or it is unreadable)."""
    text = parameters.get(PREFIX)
    if text is None and NUM_PARTS in parameters:
        try:
            text = "".join(parameters[f"{PART}{i}"] for i in range(int(parameters[NUM_PARTS])))
        except (KeyError, ValueError):
            return None
    try:
        schema = json.loads(text) if text else None
    except json.JSONDecodeError:
        return None
    return schema if isinstance(schema, dict) else None


def rewritten(
    parameters: Mapping[str, str],
    columns: Sequence[Mapping[str, Any]],
    partition_keys: Sequence[Mapping[str, Any]],
    part_size: int = PART_SIZE,
) -> dict[str, str]:
    """The parameters with Spark's schema copy rebuilt from the Glue columns (partition keys last,
    as Spark orders them); fields that did not change keep Spark's own spelling and metadata."""
    old_fields = {f.get("name", "").lower(): f for f in (read_schema(parameters) or {}).get("fields", [])}
    fields = [_field(column, old_fields.get(column["Name"].lower())) for column in [*columns, *partition_keys]]
    text = json.dumps({"type": "struct", "fields": fields}, separators=(",", ":"))
    kept = {k: v for k, v in parameters.items() if k != PREFIX and k != NUM_PARTS and not k.startswith(PART)}
    parts = [text[i : i + part_size] for i in range(0, len(text), part_size)]
    kept[NUM_PARTS] = str(len(parts))
    kept.update({f"{PART}{i}": part for i, part in enumerate(parts)})
    return kept


def _field(column: Mapping[str, Any], old: dict[str, Any] | None) -> dict[str, Any]:
    spark_type, type_metadata = _spark_type(column.get("Type", "string"))
    if old is not None and old.get("type") == spark_type:
        return old
    metadata = {k: v for k, v in ((old or {}).get("metadata") or {}).items() if k != CHAR_VARCHAR}
    metadata.update(type_metadata)
    if column.get("Comment"):
        metadata["comment"] = column["Comment"]
    name = old["name"] if old is not None else column["Name"]
    return {"name": name, "type": spark_type, "nullable": True, "metadata": metadata}


def _spark_type(text: str) -> tuple[Any, dict[str, str]]:
    try:
        parsed = parse(text)
    except HiveTypeError:
        return "string", {}
    if isinstance(parsed, Char | Varchar):
        return "string", {CHAR_VARCHAR: text.lower().replace(" ", "")}
    return spark_type(parsed), {}


def spark_type(hive_type: HiveType) -> Any:
    """A Hive type tree as Spark's DataType JSON."""
    match hive_type:
        case Primitive(name):
            return SPARK_NAMES.get(name, name)
        case Decimal(precision, scale):
            return f"decimal({precision},{scale})"
        case Char() | Varchar():
            return "string"
        case Array(element):
            return {"type": "array", "elementType": spark_type(element), "containsNull": True}
        case Map(key, value):
            return {
                "type": "map",
                "keyType": spark_type(key),
                "valueType": spark_type(value),
                "valueContainsNull": True,
            }
        case Struct(fields):
            return {
                "type": "struct",
                "fields": [
                    {"name": f.name, "type": spark_type(f.type), "nullable": True, "metadata": {}} for f in fields
                ],
            }
    raise AssertionError(hive_type)
