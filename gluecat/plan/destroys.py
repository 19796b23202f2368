"""What a destructive plan destroys, in words: objects it deletes or replaces, and columns an update
drops (an Iceberg or Delta column, whose data cannot come back by re-adding it) — a column drop is
no deletion of its table."""

from __future__ import annotations

from gluecat.changes.model import Plan


def destroys(plan: Plan) -> str:
    """`deletes or replaces objects`, `drops columns`, `deletes or replaces objects and drops columns`."""
    doomed = [c for c in plan.changes if c.destructive]
    removes = any(c.action.destructive for c in doomed) or any(p.deletes for p in plan.partitions)
    drops = any(not c.action.destructive for c in doomed)
    if drops and not removes:
        return "drops columns"
    return "deletes or replaces objects and drops columns" if drops else "deletes or replaces objects"
