"""Every kind of table gluecat manages: what the planner, lint, spark-conf and DDL iterate.

Adding a kind is one module under `gluecat/kinds/` implementing `Kind`, its model in
`gluecat/model/table.py`, and one line here. A live table's kind is decided here alone
(`recognise`): plan, import, impact and history ask it, never a table's parameters.
"""

from __future__ import annotations

from typing import Any

from gluecat.changes.model import Change
from gluecat.kinds.base import Kind, Writer
from gluecat.kinds.delta import DELTA
from gluecat.kinds.hive import HIVE
from gluecat.kinds.iceberg import ICEBERG
from gluecat.kinds.registration import REGISTRATION
from gluecat.kinds.view import VIEW
from gluecat.model import Database
from gluecat.model.table import Table

__all__ = [
    "DELTA",
    "HIVE",
    "ICEBERG",
    "KINDS",
    "REGISTRATION",
    "VIEW",
    "desired_table_input",
    "kind_named",
    "kind_of",
    "recognise",
    "writer_of",
]

KINDS: tuple[Kind[Any], ...] = (HIVE, ICEBERG, DELTA, VIEW, REGISTRATION)
_BY_MODEL: dict[type, Kind[Any]] = {kind.model: kind for kind in KINDS}
_BY_NAME: dict[str, Kind[Any]] = {kind.format: kind for kind in KINDS}
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


def kind_named(name: str) -> Kind[Any]:
    """The kind a change's `table_kind` names; ValueError for a name no kind has."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(f"{name!r} is no kind of table ({', '.join(_BY_NAME)})") from None


def writer_of(change: Change) -> Writer:
    """How apply writes the change: its table's kind decides; what is not a table is the catalog's."""
    if change.kind != "table" or change.table_kind is None:
        return Writer.CATALOG
    return kind_named(change.table_kind).writer(change.action, change.desired)
