"""An Iceberg REST catalog's namespaces and tables in the shapes the rest of gluecat speaks (Glue's).

A namespace is a database; a nested one is written with dots (`sales.eu` is the namespace
`sales` → `eu`). Its `comment` and `location` properties are the database's description and location,
the others its parameters. A table is an Iceberg table: its shape carries what Glue would for one
(`table_type`, `metadata_location`, the location), and the planner reads the rest from its metadata.
"""

from __future__ import annotations

from typing import Any

from gluecat.backends.base import Shape

COMMENT = "comment"
LOCATION = "location"


def namespace_of(database: str) -> tuple[str, ...]:
    return tuple(database.split("."))


def database_name(namespace: tuple[str, ...]) -> str:
    return ".".join(namespace)


def database_from_rest(name: str, properties: dict[str, str]) -> Shape:
    shape: Shape = {"Name": name, "Parameters": {k: v for k, v in properties.items() if k not in (COMMENT, LOCATION)}}
    if properties.get(COMMENT):
        shape["Description"] = properties[COMMENT]
    if properties.get(LOCATION):
        shape["LocationUri"] = properties[LOCATION]
    return shape


def namespace_properties(database_input: Shape) -> dict[str, str]:
    properties = {k: str(v) for k, v in (database_input.get("Parameters") or {}).items()}
    if database_input.get("Description"):
        properties[COMMENT] = database_input["Description"]
    if database_input.get("LocationUri"):
        properties[LOCATION] = database_input["LocationUri"]
    return properties


def table_from_rest(database: str, name: str, metadata_location: str | None, location: str) -> Shape:
    """What Glue would list for the same Iceberg table (pyiceberg's GlueCatalog writes these keys)."""
    parameters: dict[str, Any] = {"table_type": "ICEBERG"}
    if metadata_location:
        parameters["metadata_location"] = metadata_location
    return {
        "Name": name,
        "DatabaseName": database,
        "TableType": "EXTERNAL_TABLE",
        "Parameters": parameters,
        "StorageDescriptor": {"Location": location, "Columns": []},
    }
