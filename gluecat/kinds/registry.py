"""Every kind of table gluecat manages: what the planner, lint, spark-conf and DDL iterate.

Adding a kind is one module under `gluecat/kinds/` implementing `Kind`, its model in
`gluecat/model/table.py`, and one line here.
"""

from __future__ import annotations

from typing import Any

from gluecat.kinds.base import Kind
from gluecat.kinds.delta import DELTA
from gluecat.kinds.hive import HIVE
from gluecat.kinds.iceberg import ICEBERG
from gluecat.kinds.registration import REGISTRATION
from gluecat.kinds.view import VIEW
from gluecat.model import Database
from gluecat.model.table import Table

KINDS: tuple[Kind[Any], ...] = (HIVE, ICEBERG, DELTA, VIEW, REGISTRATION)
_BY_MODEL: dict[type, Kind[Any]] = {kind.model: kind for kind in KINDS}


def kind_of(table: Table) -> Kind[Any]:
    return _BY_MODEL[type(table)]


def desired_table_input(table: Table, database: Database, ignore: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """What a create sends (volatile and ignored parameters left out; a registration exactly as
    carried); None for Iceberg, which pyiceberg registers from the table's metadata."""
    return kind_of(table).table_input(table, database, ignore)
