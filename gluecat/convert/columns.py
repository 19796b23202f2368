"""Columns ↔ Glue Column shapes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from gluecat.model import Column

if TYPE_CHECKING:
    from mypy_boto3_glue.type_defs import ColumnTypeDef


def column_shape(column: Column) -> ColumnTypeDef:
    shape: ColumnTypeDef = {"Name": column.name, "Type": column.type}
    if column.comment:
        shape["Comment"] = column.comment
    if column.parameters:
        shape["Parameters"] = dict(column.parameters)
    return shape


def column_shapes(columns: Iterable[Column]) -> list[ColumnTypeDef]:
    return [column_shape(column) for column in columns]


def columns_from_glue(live: Iterable[Mapping[str, Any]]) -> list[Column]:
    return [
        Column(
            name=c["Name"],
            type=c.get("Type", "string"),
            comment=c.get("Comment") or None,
            parameters=dict(c.get("Parameters") or {}),
        )
        for c in live
    ]
