"""Hive type trees <-> Iceberg types, and the promotions Iceberg allows."""

from __future__ import annotations

from collections.abc import Iterator

from pyiceberg.schema import Schema
from pyiceberg.types import (
    BinaryType,
    BooleanType,
    DateType,
    DecimalType,
    DoubleType,
    FixedType,
    FloatType,
    IcebergType,
    IntegerType,
    ListType,
    LongType,
    MapType,
    NestedField,
    StringType,
    StructType,
    TimestampType,
    TimestamptzType,
    TimeType,
    UUIDType,
)

from gluecat.model import IcebergColumn
from gluecat.model.hivetype import Array, Char, Decimal, HiveType, Map, Primitive, Struct, Varchar, parse, render

_PRIMITIVES: dict[str, IcebergType] = {
    "boolean": BooleanType(),
    "tinyint": IntegerType(),
    "smallint": IntegerType(),
    "int": IntegerType(),
    "bigint": LongType(),
    "float": FloatType(),
    "double": DoubleType(),
    "string": StringType(),
    "binary": BinaryType(),
    "date": DateType(),
    "timestamp": TimestampType(),
    "timestamptz": TimestamptzType(),
    "uuid": UUIDType(),
}
_NAMES: dict[type[IcebergType], str] = {
    BooleanType: "boolean",
    IntegerType: "int",
    LongType: "bigint",
    FloatType: "float",
    DoubleType: "double",
    StringType: "string",
    BinaryType: "binary",
    FixedType: "binary",
    DateType: "date",
    TimeType: "string",
    TimestampType: "timestamp",
    TimestamptzType: "timestamptz",
    UUIDType: "uuid",
}


def to_iceberg(hive_type: HiveType, ids: Iterator[int]) -> IcebergType:
    """A Hive type tree as an Iceberg type; nested fields are optional, ids from `ids`."""
    match hive_type:
        case Primitive(name):
            return _PRIMITIVES[name]
        case Decimal(precision, scale):
            return DecimalType(precision, scale)
        case Char() | Varchar():
            return StringType()
        case Array(element):
            element_id = next(ids)
            return ListType(element_id, to_iceberg(element, ids), element_required=False)
        case Map(key, value):
            key_id, value_id = next(ids), next(ids)
            return MapType(key_id, to_iceberg(key, ids), value_id, to_iceberg(value, ids), value_required=False)
        case Struct(fields):
            return StructType(
                *[NestedField(next(ids), f.name, to_iceberg(f.type, ids), required=False) for f in fields]
            )
    raise AssertionError(hive_type)


def schema_of(columns: list[IcebergColumn]) -> Schema:
    ids = iter(range(1, 1_000_000))
    fields = []
    for column in columns:
        field_id = next(ids)
        field_type = to_iceberg(parse(column.type, iceberg=True), ids)
        fields.append(NestedField(field_id, column.name, field_type, required=column.required, doc=column.comment))
    return Schema(*fields)


def type_text(iceberg_type: IcebergType) -> str:
    """An Iceberg type in gluecat's spelling (Hive strings plus timestamptz and uuid)."""
    if isinstance(iceberg_type, DecimalType):
        return f"decimal({iceberg_type.precision},{iceberg_type.scale})"
    if isinstance(iceberg_type, ListType):
        return f"array<{type_text(iceberg_type.element_type)}>"
    if isinstance(iceberg_type, MapType):
        return f"map<{type_text(iceberg_type.key_type)},{type_text(iceberg_type.value_type)}>"
    if isinstance(iceberg_type, StructType):
        inner = ",".join(f"{f.name}:{type_text(f.field_type)}" for f in iceberg_type.fields)
        return render(parse(f"struct<{inner}>", iceberg=True))
    return _NAMES.get(type(iceberg_type), str(iceberg_type))


def promotion_allowed(live: HiveType, desired: HiveType) -> bool:
    """Iceberg's safe promotions: int -> bigint, float -> double, wider decimal precision."""
    if isinstance(live, Primitive) and isinstance(desired, Primitive):
        return (live.name, desired.name) in {("int", "bigint"), ("float", "double")}
    if isinstance(live, Decimal) and isinstance(desired, Decimal):
        return desired.scale == live.scale and desired.precision > live.precision
    return False
