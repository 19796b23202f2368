"""The TableInput gluecat sends to Glue for a table file, whatever its format."""

from __future__ import annotations

from typing import Any

from gluecat.convert.delta import DELTA_PARAMETERS, delta_table_input
from gluecat.convert.hive import hive_table_input
from gluecat.convert.locations import table_location
from gluecat.convert.parameters import managed
from gluecat.convert.view import view_table_input
from gluecat.model import Database, DeltaTable, HiveTable, RegistrationTable, Table, ViewTable


def desired_table_input(table: Table, database: Database, ignore: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """What a create sends (volatile and ignored parameters left out; a registration exactly as
    carried); None for Iceberg, which pyiceberg registers from the table's metadata."""
    shape: dict[str, Any]
    if isinstance(table, RegistrationTable):
        return {**table.table_input, "Name": table.name}
    if isinstance(table, HiveTable):
        shape = dict(hive_table_input(table, table_location(table, database)))
    elif isinstance(table, ViewTable):
        shape = dict(view_table_input(table, database.name))
    elif isinstance(table, DeltaTable):
        assert table.location is not None  # lint requires it
        shape = dict(delta_table_input(table, table.location))
        shape["Parameters"] = {**managed(table.parameters, ignore), **DELTA_PARAMETERS}
        return shape
    else:
        return None
    shape["Parameters"] = managed(shape["Parameters"], ignore)
    return shape
