"""Every kind of table gluecat manages: what the planner, lint, spark-conf and DDL iterate.

Adding a kind is one module under `gluecat/kinds/` implementing `Kind`, its model in
`gluecat/model/table.py`, and one line here. A live table's kind is decided here alone
(`recognise`): plan, import, impact and history ask it, never a table's parameters.
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

__all__ = ["DELTA", "HIVE", "ICEBERG", "KINDS", "REGISTRATION", "VIEW", "desired_table_input", "kind_of", "recognise"]

KINDS: tuple[Kind[Any], ...] = (HIVE, ICEBERG, DELTA, VIEW, REGISTRATION)
_BY_MODEL: dict[type, Kind[Any]] = {kind.model: kind for kind in KINDS}
# The order kinds are asked whether a live entry is theirs: Hive, which claims any table, last.
_RECOGNITION: tuple[Kind[Any], ...] = (*(kind for kind in KINDS if kind is not HIVE), HIVE)


def kind_of(table: Table) -> Kind[Any]:
    return _BY_MODEL[type(table)]


def desired_table_input(table: Table, database: Database, ignore: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """What a create sends (volatile and ignored parameters left out; a registration exactly as
    carried); None for Iceberg, which pyiceberg registers from the table's metadata."""
    return kind_of(table).table_input(table, database, ignore)


def recognise(live: dict[str, Any]) -> Kind[Any]:
    """The kind a live catalog entry is: the first kind that claims it (Hive when none else does)."""
    return next(kind for kind in _RECOGNITION if kind.claims(live))
