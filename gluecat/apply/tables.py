"""How a table change is written: its kind says with what (`kinds.registry.writer_of`), and each
writer is one function here. Apply never asks which kind a table is."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from gluecat.apply.live_secrets import filled, filled_glue
from gluecat.backends.connect import Connection
from gluecat.changes.model import Action, Change
from gluecat.changes.payloads import DeltaWrite, IcebergCreate, IcebergRegister, IcebergUpdate, as_payload, glue_input
from gluecat.convert.partition_index import split_indexes
from gluecat.kinds.base import Writer
from gluecat.kinds.registry import writer_of


def write_table(connection: Connection, change: Change) -> str:
    """Carry out one table change; what it did, as the summary counts it."""
    assert change.table is not None
    _WRITES[writer_of(change)](connection, change)
    return f"tables {change.action.past}"


def reads_table_metadata(change: Change) -> bool:
    """Whether the change's stale check reads the table format's metadata (an Iceberg commit checks
    the metadata it was planned against), not the catalog entry."""
    return change.action is Action.UPDATE and writer_of(change) is Writer.ICEBERG


def _catalog(connection: Connection, change: Change) -> None:
    catalog, table = connection.catalog, str(change.table)
    if change.action is Action.DELETE:
        catalog.delete_table(change.database, table)
    elif change.action in (Action.REPLACE, Action.CREATE):
        if change.action is Action.REPLACE:
            catalog.delete_table(change.database, table)
        catalog.create_table(change.database, *split_indexes(glue_input(change.desired)))
    else:
        desired = filled(change, lambda: catalog.table(change.database, table))
        catalog.update_table(change.database, desired, change.live_version)


def _iceberg(connection: Connection, change: Change) -> None:
    if change.action is Action.CREATE:
        connection.iceberg.create(change.database, str(change.table), as_payload(change.desired, IcebergCreate))
    else:
        ops = as_payload(change.desired, IcebergUpdate)["ops"]
        connection.iceberg.update(change.database, str(change.table), ops, change.live_version)


def _iceberg_register(connection: Connection, change: Change) -> None:
    desired = as_payload(change.desired, IcebergRegister)
    connection.iceberg.register(change.database, str(change.table), desired["metadata_location"])
    if desired["ops"]:
        connection.iceberg.update(change.database, str(change.table), desired["ops"], None)


def _delta(connection: Connection, change: Change) -> None:
    """The log first (create or alter), then the Glue registration that describes it."""
    assert change.table is not None
    desired = as_payload(change.desired, DeltaWrite)
    location, delta, registration = desired["location"], desired["delta"], dict(desired["glue"])
    if "create" in delta:
        connection.delta.create(location, change.table, delta["create"])
    elif delta:
        connection.delta.alter(location, delta)
    if change.action is Action.CREATE:
        connection.catalog.create_table(change.database, registration)
    else:
        live = partial(connection.catalog.table, change.database, change.table)
        registration = filled_glue(registration, live, change.address)
        connection.catalog.update_table(change.database, registration, change.live_version)


_WRITES: dict[Writer, Callable[[Connection, Change], None]] = {
    Writer.CATALOG: _catalog,
    Writer.ICEBERG: _iceberg,
    Writer.ICEBERG_REGISTER: _iceberg_register,
    Writer.DELTA: _delta,
}
