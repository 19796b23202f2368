"""Hive type trees <-> Delta (Spark) types."""

from __future__ import annotations

from typing import Any

from deltalake.schema import ArrayType, Field, MapType, PrimitiveType, Schema, StructType

from gluecat.model import Column
from gluecat.model.hivetype import Array, Char, Decimal, HiveType, Map, Primitive, Struct, Varchar, parse, render

_TO_DELTA = {
    "tinyint": "byte",
    "smallint": "short",
    "int": "integer",
    "bigint": "long",
    "float": "float",
    "double": "double",
    "boolean": "boolean",
    "string": "string",
    "binary": "binary",
    "date": "date",
    "timestamp": "timestamp",  # Spark's TIMESTAMP: instants, shown in the session time zone
}
_FROM_DELTA = {delta: hive for hive, delta in _TO_DELTA.items()} | {"timestamp_ntz": "timestamp"}

DeltaType = PrimitiveType | ArrayType | MapType | StructType


def to_delta(hive_type: HiveType) -> DeltaType:
    match hive_type:
        case Primitive(name):
            return PrimitiveType(_TO_DELTA[name])
        case Decimal(precision, scale):
            return PrimitiveType(f"decimal({precision},{scale})")
        case Char() | Varchar():
            return PrimitiveType("string")
        case Array(element):
            return ArrayType(to_delta(element), contains_null=True)
        case Map(key, value):
            return MapType(to_delta(key), to_delta(value), value_contains_null=True)
        case Struct(fields):
            return StructType([Field(f.name, to_delta(f.type), nullable=True) for f in fields])
    raise AssertionError(hive_type)


def _field(column: Column) -> Field:
    metadata = {"comment": column.comment} if column.comment else {}
    return Field(column.name, to_delta(parse(column.type)), nullable=True, metadata=metadata)


def delta_fields(columns: list[Column]) -> list[Field]:
    return [_field(column) for column in columns]


def delta_schema(columns: list[Column]) -> Schema:
    return Schema(delta_fields(columns))


def type_text(delta_type: Any) -> str:
    """A Delta type in Hive spelling, canonical (for comparison and for Glue columns)."""
    if isinstance(delta_type, PrimitiveType):
        name = delta_type.type
        return render(parse(name)) if name.startswith("decimal") else _FROM_DELTA.get(name, name)
    if isinstance(delta_type, ArrayType):
        return f"array<{type_text(delta_type.element_type)}>"
    if isinstance(delta_type, MapType):
        return f"map<{type_text(delta_type.key_type)},{type_text(delta_type.value_type)}>"
    if isinstance(delta_type, StructType):
        return render(parse("struct<" + ",".join(f"`{f.name}`:{type_text(f.type)}" for f in delta_type.fields) + ">"))
    raise AssertionError(delta_type)


def comparable(column: Column) -> str:
    """The column's type as the Delta log will hold it (char/varchar are strings there)."""
    return type_text(to_delta(parse(column.type)))
