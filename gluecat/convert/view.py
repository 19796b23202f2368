"""ViewTable <-> the Glue shape of a view (TableType VIRTUAL_VIEW)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gluecat.convert.columns import column_shapes, columns_from_glue
from gluecat.model import ViewTable

if TYPE_CHECKING:
    from mypy_boto3_glue.type_defs import TableInputTypeDef


def view_table_input(view: ViewTable) -> TableInputTypeDef:
    assert view.name is not None
    shape: TableInputTypeDef = {
        "Name": view.name,
        "TableType": "VIRTUAL_VIEW",
        "Parameters": dict(view.parameters),
        "ViewOriginalText": view.view_original_text,
        "StorageDescriptor": {"Columns": column_shapes(view.columns)},
        "PartitionKeys": [],
    }
    if view.view_expanded_text is not None:
        shape["ViewExpandedText"] = view.view_expanded_text
    if view.description:
        shape["Description"] = view.description
    return shape


def view_from_glue(live: Mapping[str, Any]) -> ViewTable:
    descriptor = live.get("StorageDescriptor") or {}
    return ViewTable(
        name=live["Name"],
        format="view",
        description=live.get("Description") or None,
        columns=columns_from_glue(descriptor.get("Columns") or []),
        view_original_text=live.get("ViewOriginalText") or "",
        view_expanded_text=live.get("ViewExpandedText"),
        parameters=dict(live.get("Parameters") or {}),
    )
