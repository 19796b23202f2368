"""ViewTable <-> the Glue shape of a view (TableType VIRTUAL_VIEW)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gluecat.convert import presto_view
from gluecat.convert.columns import column_shapes, columns_from_glue
from gluecat.convert.extra import VIEW_STORAGE_KEYS, VIEW_TABLE_KEYS, extra_from_glue, merge_extra
from gluecat.model import ViewTable
from gluecat.model.hivetype import HiveTypeError

if TYPE_CHECKING:
    from mypy_boto3_glue.type_defs import TableInputTypeDef


def view_texts(view: ViewTable, database: str, trino: bool = True) -> tuple[str, str | None]:
    """(ViewOriginalText, ViewExpandedText) as the view's engine writes them (`trino`: an Athena view
    in the form Trino reads too)."""
    if view.dialect == "athena":
        assert view.sql is not None  # model-validated
        columns = [(c.name, c.type) for c in view.columns]
        return presto_view.encode(view.sql, database, columns, view.description, trino), presto_view.EXPANDED_TEXT
    if view.dialect == "spark":
        assert view.sql is not None
        return view.sql, view.sql  # Spark 3 writes the SQL to both
    assert view.view_original_text is not None
    return view.view_original_text, view.view_expanded_text


def view_parameters(view: ViewTable) -> dict[str, str]:
    """The dialect's own parameters, then the declared ones; a declared null leaves one out."""
    owned = presto_view.PARAMETERS if view.dialect == "athena" else {}
    merged = {**owned, **view.parameters}
    return {key: value for key, value in merged.items() if value is not None}


def view_table_input(view: ViewTable, database: str, trino: bool = True) -> TableInputTypeDef:
    """`trino`: whether the catalog's readers include Trino (an Athena view's form depends on it)."""
    assert view.name is not None
    original, expanded = view_texts(view, database, trino)
    shape: TableInputTypeDef = {
        "Name": view.name,
        "TableType": "VIRTUAL_VIEW",
        "Parameters": view_parameters(view),
        "ViewOriginalText": original,
        # An empty SerdeInfo, as Athena writes it: Trino refuses a view without one.
        "StorageDescriptor": {"Columns": column_shapes(view.columns), "SerdeInfo": {}},
        "PartitionKeys": [],
    }
    if expanded is not None:
        shape["ViewExpandedText"] = expanded
    if view.description and not description_in_text(view, trino):
        shape["Description"] = view.description
    merge_extra(shape, view.extra)  # type: ignore[arg-type]
    return shape


def description_in_text(view: ViewTable, trino: bool) -> bool:
    """Whether the view's description is in its text (an Athena view Trino reads), not Glue's Description."""
    return view.dialect == "athena" and trino


def view_from_glue(live: Mapping[str, Any], database: str) -> ViewTable:
    """Athena and Spark views as `dialect` + `sql` when that writes back the same meaning; else the texts."""
    descriptor = live.get("StorageDescriptor") or {}
    common: dict[str, Any] = {
        "name": live["Name"],
        "format": "view",
        "description": live.get("Description") or None,
        "columns": columns_from_glue(descriptor.get("Columns") or []),
        "extra": extra_from_glue(live, VIEW_STORAGE_KEYS, VIEW_TABLE_KEYS),
    }
    parameters = dict(live.get("Parameters") or {})
    original, expanded = live.get("ViewOriginalText"), live.get("ViewExpandedText")
    athena = _athena_sql(original, database, common["columns"])
    if athena is not None and parameters.get("presto_view") == "true":
        data = presto_view.decode(original) or {}
        common["description"] = data.get("comment") or common["description"]
        return ViewTable(**common, dialect="athena", sql=athena, parameters=_beyond_athena(parameters))
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


def _beyond_athena(parameters: Mapping[str, str]) -> dict[str, str | None]:
    """What `dialect: athena` does not write by itself: other keys, a null for an Athena key the
    view lacks (Terraform and CDK write no `comment`), a value that differs from Athena's."""
    rest: dict[str, str | None] = {k: v for k, v in parameters.items() if presto_view.PARAMETERS.get(k) != v}
    rest.update({k: None for k in presto_view.PARAMETERS if k not in parameters})
    return rest
