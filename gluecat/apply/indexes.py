"""Apply partition index changes: one call at a time per table, each waited for until Glue is done.

Glue builds an index in the background (CREATING, then ACTIVE or FAILED) and
takes a while to drop one (DELETING): apply polls GetPartitionIndexes, so that
when it returns the index is usable, and a FAILED build is an error that names
its backfill errors.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from gluecat.backends.base import Catalog
from gluecat.changes.model import Action, Change
from gluecat.changes.payloads import glue_input
from gluecat.errors import LiveStateError
from gluecat.kinds.glue_diff import ABSENT
from gluecat.kinds.hive.index_diff import indexes_fingerprint
from gluecat.text.plain import counted

FIRST_POLL = 0.25  # seconds; doubled after each look, up to LAST_POLL
LAST_POLL = 10.0
WAIT_LIMIT = 30 * 60.0  # a backfill of millions of partitions takes minutes, not hours
NOTE_EVERY = 30.0
ERRORS_SHOWN = 5
_ORDER = {Action.DELETE: 0, Action.REPLACE: 1, Action.CREATE: 2}


def in_order(changes: Iterable[Change]) -> list[Change]:
    """Deletes first: they make room under Glue's limit of 3 for the indexes created after."""
    return sorted(changes, key=lambda change: _ORDER[change.action])


def live_version(catalog: Catalog, database: str, table: str) -> str:
    """What a saved plan recorded for the table's indexes (ABSENT once the table is gone)."""
    if catalog.table(database, table) is None:
        return ABSENT
    return indexes_fingerprint(catalog.partition_indexes(database, table))


class Waiter:
    """Polls one index until it reaches the wanted state; notes progress; stops when asked."""

    def __init__(
        self,
        catalog: Catalog,
        note: Callable[[str], None],
        stop: threading.Event,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._catalog = catalog
        self._note = note
        self._stop = stop
        self._clock = clock

    def until(self, change: Change, name: str, wanted: str | None) -> bool:
        """Whether index `name` became `wanted` (ACTIVE), or gone when `wanted` is None; False when
        apply was interrupted meanwhile (Glue carries on with what it was sent)."""
        assert change.table is not None
        started = noted = self._clock()
        pause = FIRST_POLL
        goal = "to become ACTIVE" if wanted else "to be deleted"
        self._note(f"waiting for partition index {change.address} {goal}")
        while True:
            status, descriptor = self._status(change.database, change.table, name)
            if status == wanted:
                return True
            if status == "FAILED" and wanted:
                raise LiveStateError(f"Glue could not build partition index {name}: {backfill_text(descriptor)}")
            waited = self._clock() - started
            if waited > WAIT_LIMIT:
                raise LiveStateError(
                    f"partition index {name} is still {status} after {WAIT_LIMIT / 60:.0f} minutes;"
                    " Glue carries on: run apply again later"
                )
            if self._clock() - noted >= NOTE_EVERY:
                self._note(f"partition index {change.address}: still {status} after {waited:.0f} s")
                noted = self._clock()
            if self._stop.wait(pause):
                self._note(f"stopped waiting for partition index {change.address} ({status}); Glue carries on")
                return False
            pause = min(pause * 2, LAST_POLL)

    def _status(self, database: str, table: str, name: str) -> tuple[str | None, Mapping[str, Any]]:
        for descriptor in self._catalog.partition_indexes(database, table):
            if descriptor.get("IndexName") == name:
                return descriptor.get("IndexStatus"), descriptor
        return None, {}


def apply_index_change(catalog: Catalog, change: Change, waiter: Waiter) -> str:
    """Carry out one index change; what it did, for the apply summary (an interrupted replace has
    only deleted: the next apply creates the index again)."""
    assert change.table is not None
    index = glue_input(change.desired)
    name = str(index["IndexName"])
    if change.action in (Action.DELETE, Action.REPLACE):
        catalog.delete_partition_index(change.database, change.table, name)
        # A name is free again only once Glue has dropped it.
        if not waiter.until(change, name, None) and change.action is Action.REPLACE:
            return "indexes deleted"
    if change.action in (Action.CREATE, Action.REPLACE):
        catalog.create_partition_index(change.database, change.table, index)
        waiter.until(change, name, "ACTIVE")
    return f"indexes {change.action.past}"


def backfill_text(descriptor: Mapping[str, Any]) -> str:
    """`INVALID_PARTITION_TYPE_DATA_ERROR on 2 partitions: (2024-01-02, late), ...`."""
    parts = []
    for error in descriptor.get("BackfillErrors") or []:
        partitions = [", ".join(p.get("Values") or []) for p in error.get("Partitions") or []]
        shown = "; ".join(f"({values})" for values in partitions[:ERRORS_SHOWN])
        more = f" and {len(partitions) - ERRORS_SHOWN} more" if len(partitions) > ERRORS_SHOWN else ""
        parts.append(f"{error.get('Code')} on {counted(len(partitions), 'partition')}: {shown}{more}")
    return "; ".join(parts) or "FAILED without backfill errors"
