"""ViewTable <-> the Glue shape of a view (TableType VIRTUAL_VIEW)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gluecat.convert import presto_view
from gluecat.convert.columns import column_shapes, columns_from_glue
from gluecat.model import ViewTable
from gluecat.model.hivetype import HiveTypeError

if TYPE_CHECKING:
    from mypy_boto3_glue.type_defs import TableInputTypeDef


def view_texts(view: ViewTable, database: str) -> tuple[str, str | None]:
    """(ViewOriginalText, ViewExpandedText) as the view's engine writes them."""
    if view.dialect == "athena":
        assert view.sql is not None  # model-validated
        columns = [(c.name, c.type) for c in view.columns]
        return presto_view.encode(view.sql, database, columns), presto_view.EXPANDED_TEXT
    if view.dialect == "spark":
        assert view.sql is not None
        return view.sql, view.sql  # Spark 3 writes the SQL to both
    assert view.view_original_text is not None
    return view.view_original_text, view.view_expanded_text


def view_parameters(view: ViewTable) -> dict[str, str]:
    owned = presto_view.PARAMETERS if view.dialect == "athena" else {}
    return {**view.parameters, **owned}


def view_table_input(view: ViewTable, database: str) -> TableInputTypeDef:
    assert view.name is not None
    original, expanded = view_texts(view, database)
    shape: TableInputTypeDef = {
        "Name": view.name,
        "TableType": "VIRTUAL_VIEW",
        "Parameters": view_parameters(view),
        "ViewOriginalText": original,
        "StorageDescriptor": {"Columns": column_shapes(view.columns)},
        "PartitionKeys": [],
    }
    if expanded is not None:
        shape["ViewExpandedText"] = expanded
    if view.description:
        shape["Description"] = view.description
    return shape


def view_from_glue(live: Mapping[str, Any], database: str) -> ViewTable:
    """Athena and Spark views as `dialect` + `sql` when that writes back the same meaning; else the texts."""
    descriptor = live.get("StorageDescriptor") or {}
    common: dict[str, Any] = {
        "name": live["Name"],
        "format": "view",
        "description": live.get("Description") or None,
        "columns": columns_from_glue(descriptor.get("Columns") or []),
    }
    parameters = dict(live.get("Parameters") or {})
    original, expanded = live.get("ViewOriginalText"), live.get("ViewExpandedText")
    athena = _athena_sql(original, database, common["columns"])
    if athena is not None and parameters.get("presto_view") == "true":
        rest = {k: v for k, v in parameters.items() if k not in presto_view.PARAMETERS}
        return ViewTable(**common, dialect="athena", sql=athena, parameters=rest)
    if original and original == expanded and presto_view.decode(original) is None and original.strip():
        return ViewTable(**common, dialect="spark", sql=original, parameters=parameters)
    return ViewTable(**common, view_original_text=original or "", view_expanded_text=expanded, parameters=parameters)


def _athena_sql(original: str | None, database: str, columns: list[Any]) -> str | None:
    """The view's SQL when gluecat's own encoding of it means exactly what Glue holds."""
    data = presto_view.decode(original)
    if data is None or not columns or not str(data["originalSql"]).strip():
        return None
    try:
        ours = presto_view.desired_meaning(data["originalSql"], database, [(c.name, c.type) for c in columns])
    except HiveTypeError:
        return None
    return ours.sql if presto_view.meaning(data) == ours else None
