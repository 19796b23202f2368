"""Database ↔ DatabaseInput."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gluecat.model import Database

if TYPE_CHECKING:
    from mypy_boto3_glue.type_defs import DatabaseInputTypeDef


def database_input(database: Database) -> DatabaseInputTypeDef:
    shape: DatabaseInputTypeDef = {"Name": database.name, "Parameters": dict(database.parameters)}
    if database.description:
        shape["Description"] = database.description
    if database.location:
        shape["LocationUri"] = database.location
    return shape


def database_from_glue(live: Mapping[str, Any]) -> Database:
    return Database(
        name=live["Name"],
        description=live.get("Description") or None,
        location=live.get("LocationUri") or None,
        parameters=dict(live.get("Parameters") or {}),
    )
