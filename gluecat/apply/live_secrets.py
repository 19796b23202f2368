"""Secrets a saved plan held back (gluecat/secrets/held.py), taken from the live objects again just
before apply writes them: the plan checked their versions, and Glue's own checks guard the write."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from gluecat.backends.base import Catalog, Shape
from gluecat.changes.model import Change, PartitionChanges, PartitionWrite
from gluecat.changes.payloads import glue_input
from gluecat.secrets import held


def filled(change: Change, live: Callable[[], Shape | None]) -> dict[str, Any]:
    """The change's desired shape with what the saved plan held back read from `live()`."""
    desired = glue_input(change.desired)
    return held.fill(desired, live(), change.address) if held.holds(desired) else desired


def filled_glue(shape: dict[str, Any], live: Callable[[], Shape | None], address: str) -> dict[str, Any]:
    return held.fill(shape, live(), address) if held.holds(shape) else shape


def filled_moves(catalog: Catalog, group: PartitionChanges) -> PartitionChanges:
    """The partitions a plan moves, each with what the saved plan held back of it read again."""
    marked = [write.values for write in group.updates if held.holds(write.live)]
    if not marked:
        return group
    now = {tuple(p["Values"]): p for p in catalog.partitions_by_values(group.database, group.table, marked)}

    def again(write: PartitionWrite) -> PartitionWrite:
        if write.live is None or not held.holds(write.live):
            return write
        live = held.fill(write.live, now.get(tuple(write.values)), group.address(write.values))
        return dataclasses.replace(write, live=live)

    return dataclasses.replace(group, updates=tuple(again(write) for write in group.updates))
