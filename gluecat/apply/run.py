"""Carry out a Plan: databases, then tables in parallel (each with its partitions), then
deletions; every per-entry error collected; nothing destroyed without permission."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

from gluecat.apply.created_inputs import CreatedInputs
from gluecat.apply.failures import engine_failure
from gluecat.apply.indexes import Waiter, apply_index_change, in_order
from gluecat.apply.indexes import live_version as index_version
from gluecat.apply.live_secrets import filled, filled_moves
from gluecat.apply.optimizers import apply_optimizer_change
from gluecat.apply.optimizers import live_version as optimizer_version
from gluecat.apply.partition_schema import follow_entries
from gluecat.apply.tables import reads_table_metadata, write_table
from gluecat.backends.base import Catalog, EntryError
from gluecat.backends.connect import Connection
from gluecat.changes.fingerprint import fingerprint, partition_input_of
from gluecat.changes.model import ACCESS_KINDS, Action, Change, PartitionChanges, PartitionWrite, Plan
from gluecat.changes.payloads import glue_input
from gluecat.convert.partitions import created, updated
from gluecat.errors import AccessDeniedError, ConflictError, GluecatError, PlanError, UnreachableError
from gluecat.kinds.glue_diff import ABSENT, version_of
from gluecat.plan.destroys import destroys

TABLE_WORKERS = 8


class Progress(Protocol):
    def advance(self, units: int) -> None: ...
    def note(self, message: str) -> None: ...


@dataclass(frozen=True)
class Failure:
    address: str
    message: str


@dataclass
class ApplyResult:
    done: Counter[str] = field(default_factory=Counter)
    failures: list[Failure] = field(default_factory=list)
    interrupted: bool = False
    unreachable: bool = False  # Glue stopped answering: apply stopped sending
    denied: set[str] = field(default_factory=set)  # IAM actions AWS refused: apply stopped sending

    def gave_up(self, exc: GluecatError, stop: threading.Event) -> None:
        """Once Glue does not answer at all, no further call is made (each would wait out its retries);
        nor once a permission is missing (the policy needs fixing, and the rest would be refused too)."""
        if isinstance(exc, UnreachableError):
            self.unreachable = True
            stop.set()
        if isinstance(exc, AccessDeniedError):
            self.denied.add(exc.action)
            stop.set()

    @property
    def ok(self) -> bool:
        return not self.failures and not self.interrupted


def work_units(plan: Plan) -> int:
    return len(plan.changes) + sum(p.count for p in plan.partitions)


def refuse_destruction(plan: Plan, allow_destroy: bool) -> None:
    """Safety rule 1: a plan that deletes anything is refused whole, before any change."""
    if plan.destructive and not allow_destroy:
        doomed = [c.address for c in plan.changes if c.destructive]
        doomed += [p.address(v) for p in plan.partitions for v in p.deletes[:5]]
        raise PlanError(
            f"the plan {destroys(plan)} (" + ", ".join(doomed[:10])
            + ("…" if len(doomed) > 10 else "")
            + "); nothing was changed. Review it, then apply with --allow-destroy"
        )  # fmt: skip


def verify_unchanged(connection: Connection, plan: Plan, creates: bool = True) -> None:
    """Refuse the whole plan, before any change, when a live object it writes changed since.

    Every database, table and partition index the plan updates, replaces or deletes is compared with
    the version (or fingerprint) the plan recorded, and so is every partition it moves or deletes.
    A saved plan also checks what it creates (creates=True); a fresh apply leaves creates to Glue,
    which refuses to create what appeared meanwhile."""
    catalog = connection.catalog
    checked = [c for c in plan.changes if creates or c.action not in (Action.CREATE, Action.REGISTER)]
    checked = [c for c in checked if c.kind not in ACCESS_KINDS]  # Lake Formation's: see apply/access.py
    with ThreadPoolExecutor(max_workers=TABLE_WORKERS) as pool:
        now = list(pool.map(partial(_live_version, connection), checked))
    stale = [change.address for change, version in zip(checked, now, strict=True) if version != change.live_version]
    for group in plan.partitions:
        stale += _stale_partitions(catalog, group)
    access = [c for c in plan.changes if c.kind in ACCESS_KINDS]
    if access:
        from gluecat.apply.access import stale_access

        stale += stale_access(connection.lakeformation, access, creates)
    if stale:
        shown = ", ".join(stale[:10]) + ("…" if len(stale) > 10 else "")
        raise ConflictError(
            f"the plan is stale: {shown} changed in {'Lake Formation or Glue' if access else 'Glue'} since it was"
            " made; nothing was changed. Run plan again"
        )


def _live_version(connection: Connection, change: Change) -> str | None:
    if change.kind == "database":
        if change.action is Action.CREATE:
            return change.live_version  # CreateDatabase refuses a database that appeared meanwhile
        live = connection.catalog.database(change.database)
        return ABSENT if live is None else fingerprint(live)
    assert change.table is not None
    if change.kind == "index":
        return index_version(connection.catalog, change.database, change.table)
    if change.kind == "optimizer":
        return optimizer_version(connection, change)
    if reads_table_metadata(change):
        return connection.iceberg.fingerprint(change.database, change.table) or ABSENT
    table = connection.catalog.table(change.database, change.table)
    return ABSENT if table is None else version_of(table)


def _stale_partitions(catalog: Catalog, group: PartitionChanges) -> list[str]:
    """Partitions to update or delete that someone else changed or removed since the plan."""
    if not group.live_fingerprints:
        return []
    now = {
        tuple(p["Values"]): fingerprint(partition_input_of(p))
        for p in catalog.partitions_by_values(group.database, group.table, [v for v, _ in group.live_fingerprints])
    }
    return [group.address(v) for v, planned in group.live_fingerprints if now.get(v) != planned]


def apply_plan(
    connection: Connection, plan: Plan, progress: Progress, stop: threading.Event | None = None
) -> ApplyResult:
    """Databases first, then tables in parallel. Once `stop` is set no new call is made:
    calls in flight finish, and the result says what was done."""
    stop = stop or threading.Event()
    result = ApplyResult()
    progress = _Counted(progress)
    failed_databases: set[str] = set()
    for change in (c for c in plan.changes if c.kind == "database"):
        if stop.is_set():
            break
        if not _attempt(result, change.address, partial(_database, connection.catalog, change), progress, stop):
            failed_databases.add(change.database)
    tables = _table_work(plan)
    for key in [k for k in tables if k[0] in failed_databases]:
        result.failures.append(Failure(f"{key[0]}.{key[1]}", "skipped: its database failed"))
        del tables[key]
    with ThreadPoolExecutor(max_workers=TABLE_WORKERS) as pool:
        work = [pool.submit(_table, connection, item, result, progress, stop) for item in tables.values()]
        for future in work:
            future.result()
    access = [c for c in plan.changes if c.kind in ACCESS_KINDS]
    if access:  # once the databases and tables they are about exist
        from gluecat.apply.access import apply_access

        apply_access(connection.lakeformation, access, result, progress, stop)
    # A signal that came once every step had been attempted interrupted nothing.
    stopped = result.unreachable or result.denied
    result.interrupted = stop.is_set() and not stopped and progress.units < work_units(plan)
    return result


class _Counted:
    """The progress sink, counting the units of work attempted."""

    def __init__(self, progress: Progress) -> None:
        self.units = 0
        self._progress = progress
        self._lock = threading.Lock()

    def advance(self, units: int) -> None:
        with self._lock:
            self.units += units
        self._progress.advance(units)

    def note(self, message: str) -> None:
        self._progress.note(message)


@dataclass
class _TableWork:
    """What apply does to one table, in order: the table, its partitions, its partition indexes, its optimizers."""

    change: Change | None = None
    group: PartitionChanges | None = None
    indexes: list[Change] = field(default_factory=list)
    optimizers: list[Change] = field(default_factory=list)


def _table_work(plan: Plan) -> dict[tuple[str, str], _TableWork]:
    work: dict[tuple[str, str], _TableWork] = {}
    for change in plan.changes:
        if change.kind in ("table", "index", "optimizer") and change.table:
            item = work.setdefault((change.database, change.table), _TableWork())
            if change.kind == "index":
                item.indexes.append(change)
            elif change.kind == "optimizer":
                item.optimizers.append(change)
            else:
                item.change = change
    for group in plan.partitions:
        work.setdefault((group.database, group.table), _TableWork()).group = group
    return work


def _table(
    connection: Connection, work: _TableWork, result: ApplyResult, progress: Progress, stop: threading.Event
) -> None:
    if stop.is_set():
        return
    change, group = work.change, work.group
    if change and not _attempt(result, change.address, lambda: write_table(connection, change), progress, stop):
        if group:
            result.failures.append(Failure(f"{group.database}.{group.table}", "partitions skipped: table failed"))
        result.failures.extend(Failure(c.address, "skipped: its table failed") for c in work.indexes + work.optimizers)
        return
    if group:
        _partitions(connection.catalog, group, result, progress, stop)
    waiter = Waiter(connection.catalog, progress.note, stop)
    for index_change in in_order(work.indexes):
        if stop.is_set():
            return
        _attempt(result, index_change.address, partial(apply_index_change, connection.catalog, index_change, waiter),
                 progress, stop)  # fmt: skip
    for optimizer in work.optimizers:
        if stop.is_set():
            return
        _attempt(result, optimizer.address, partial(apply_optimizer_change, connection, optimizer), progress, stop)


def _attempt(
    result: ApplyResult, address: str, step: Callable[[], str], progress: Progress, stop: threading.Event
) -> bool:
    try:
        done = step()
    except ConflictError as exc:
        result.failures.append(Failure(address, f"{exc}; it was not overwritten — run plan again"))
        progress.note(f"conflict {address}")
        return False
    except Exception as exc:  # gluecat's, or an engine library's own error: this table's failure, not the apply's end
        failure = exc if isinstance(exc, GluecatError) else engine_failure(exc, address)
        if failure is None:
            raise
        result.failures.append(Failure(address, str(failure)))
        if not isinstance(failure, AccessDeniedError):  # a denial is reported once, at the end
            progress.note(f"failed {address}: {failure}")
        result.gave_up(failure, stop)
        return False
    finally:
        progress.advance(1)
    result.done[done] += 1
    return True


def _database(catalog: Catalog, change: Change) -> str:
    if change.action is Action.CREATE:
        catalog.create_database(glue_input(change.desired))
    else:
        catalog.update_database(change.database, filled(change, lambda: catalog.database(change.database)))
    return f"databases {change.action.past}"


def _partitions(
    catalog: Catalog, group: PartitionChanges, result: ApplyResult, progress: Progress, stop: threading.Event
) -> None:
    group = filled_moves(catalog, group)
    creates = CreatedInputs(group)
    updates = [{"PartitionValueList": list(w.values), "PartitionInput": _moved(group, w)} for w in group.updates]
    steps: list[tuple[Action, Callable[[Callable[[int], bool]], list[EntryError]]]] = [
        (Action.CREATE, lambda sent: catalog.create_partitions(group.database, group.table, creates, sent)),
        (Action.UPDATE, lambda sent: catalog.update_partitions(group.database, group.table, updates, sent)),
        (Action.DELETE, lambda sent: catalog.delete_partitions(group.database, group.table, list(group.deletes), sent)),
        (Action.UPDATE, lambda sent: _follow_table_schema(catalog, group, sent)),
    ]
    for action, step in steps:
        if stop.is_set():
            return
        sent = _Sent(progress, stop)
        try:
            errors = step(sent)
        except Exception as exc:
            failure = exc if isinstance(exc, GluecatError) else engine_failure(exc, f"{group.database}.{group.table}")
            if failure is None:
                raise
            result.failures.append(Failure(f"{group.database}.{group.table}", f"partitions: {failure}"))
            if sent.count:  # the batches before the failing one went through
                result.done[f"partitions {action.past}"] += sent.count
            result.gave_up(failure, stop)
            return
        for error in errors:
            result.failures.append(Failure(group.address(error.values), f"{error.code}: {error.message}"))
        if sent.count - len(errors) > 0:
            result.done[f"partitions {action.past}"] += sent.count - len(errors)


def _moved(group: PartitionChanges, write: PartitionWrite) -> dict[str, Any]:
    """A partition at its new location, keeping everything else it holds (safety rule 6)."""
    if write.live is None:
        return created(group.storage, write.values, write.location, write.own)
    live = {**write.live, "StorageDescriptor": write.live.get("StorageDescriptor") or group.storage}
    return updated(live, write.own, write.location)


class _Sent:
    """Counts the entries of the batches sent; tells the batch loop to stop once asked to."""

    def __init__(self, progress: Progress, stop: threading.Event) -> None:
        self.count = 0
        self._progress = progress
        self._stop = stop

    def __call__(self, entries: int) -> bool:
        self.count += entries
        self._progress.advance(entries)
        return not self._stop.is_set()


def _follow_table_schema(catalog: Catalog, group: PartitionChanges, sent: Callable[[int], bool]) -> list[EntryError]:
    """Read the partitions to bring in step now, so each keeps exactly what it holds but its schema."""
    if not group.follows:
        return []
    wanted = set(group.follows)
    drifted: list[dict[str, Any]] = []
    lock = threading.Lock()

    def keep(page: list[dict[str, Any]]) -> None:  # hold the drifted partitions, not the whole table
        chosen = [partition for partition in page if tuple(partition["Values"]) in wanted]
        with lock:
            drifted.extend(chosen)

    catalog.each_partition_page(group.database, group.table, len(group.follows), keep)
    return catalog.update_partitions(group.database, group.table, follow_entries(group, drifted), sent)
