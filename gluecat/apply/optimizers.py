"""Apply table optimizer changes: one Create, Update or DeleteTableOptimizer call each, after the table's own change."""

from __future__ import annotations

from gluecat.backends.connect import Connection
from gluecat.backends.optimizers import optimizers_of
from gluecat.changes.model import Action, Change
from gluecat.changes.payloads import OptimizerWrite, as_payload
from gluecat.kinds.iceberg.optimizers import fingerprint


def apply_optimizer_change(connection: Connection, change: Change) -> str:
    """Carry out one optimizer change; what it did, for the apply summary."""
    assert change.table is not None
    optimizers = optimizers_of(connection)
    desired = as_payload(change.desired, OptimizerWrite)
    kind = desired["Type"]
    if change.action is Action.DELETE:
        optimizers.delete(change.database, change.table, kind)
    elif change.action is Action.CREATE:
        optimizers.create(change.database, change.table, kind, desired.get("TableOptimizerConfiguration", {}))
    else:
        optimizers.update(change.database, change.table, kind, desired.get("TableOptimizerConfiguration", {}))
    return f"optimizers {change.action.past}"


def live_version(connection: Connection, change: Change) -> str:
    """What a re-check compares with the version the plan recorded (ABSENT for none, or no table)."""
    assert change.table is not None
    optimizers = optimizers_of(connection)
    return fingerprint(
        optimizers.get(change.database, change.table, as_payload(change.desired, OptimizerWrite)["Type"])
    )
