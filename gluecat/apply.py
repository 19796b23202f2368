"""Carry out a Plan: databases, then tables in parallel (each with its partitions), then
deletions; every per-entry error collected; nothing destroyed without permission."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Protocol

from gluecat.connect import Connection
from gluecat.convert.hive import partition_shape
from gluecat.errors import ConflictError, GluecatError, PlanError
from gluecat.glue import EntryError, Glue
from gluecat.partition_schema import follow_entries
from gluecat.plan.diff import ABSENT, fingerprint, partitions_fingerprint, version_of
from gluecat.plan.model import Action, Change, PartitionChanges, Plan

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

    @property
    def ok(self) -> bool:
        return not self.failures


def work_units(plan: Plan) -> int:
    return len(plan.changes) + sum(p.count for p in plan.partitions)


def refuse_destruction(plan: Plan, allow_destroy: bool) -> None:
    """Safety rule 1: a plan that deletes anything is refused whole, before any change."""
    if plan.destructive and not allow_destroy:
        doomed = [c.address for c in plan.changes if c.destructive]
        doomed += [p.address(v) for p in plan.partitions for v in p.deletes[:5]]
        raise PlanError(
            "the plan deletes or replaces " + ", ".join(doomed[:10])
            + ("…" if len(doomed) > 10 else "")
            + "; nothing was changed. Review it, then apply with --allow-destroy"
        )  # fmt: skip


def verify_unchanged(connection: Connection, plan: Plan) -> None:
    """A saved plan applies only to the state it was made from (VersionId / fingerprints)."""
    glue = connection.glue
    stale: list[str] = []
    for change in plan.changes:
        if change.kind == "database":
            live = glue.database(change.database)
            now = ABSENT if live is None else fingerprint(live)
        elif change.format == "iceberg" and change.action is Action.UPDATE:
            assert change.table is not None
            now = connection.iceberg.fingerprint(change.database, change.table) or ABSENT
        else:
            assert change.table is not None
            table = glue.table(change.database, change.table)
            now = ABSENT if table is None else version_of(table)
        if now != change.live_version:
            stale.append(change.address)
    for group in plan.partitions:
        if group.live_fingerprint and not _created_by_plan(plan, group):
            live_parts = glue.partitions(group.database, group.table, group.count)
            if partitions_fingerprint(live_parts) != group.live_fingerprint:
                stale.append(f"{group.database}.{group.table} partitions")
    if stale:
        raise ConflictError(
            "the saved plan is stale: " + ", ".join(stale) + " changed in Glue since it was made;"
            " nothing was changed. Run plan again"
        )


def _created_by_plan(plan: Plan, group: PartitionChanges) -> bool:
    return any(
        c.table == group.table and c.database == group.database and c.action in (Action.CREATE, Action.REPLACE)
        for c in plan.changes
    )


def apply_plan(connection: Connection, plan: Plan, progress: Progress) -> ApplyResult:
    result = ApplyResult()
    failed_databases: set[str] = set()
    for change in (c for c in plan.changes if c.kind == "database"):
        if not _attempt(result, change.address, partial(_database, connection.glue, change), progress):
            failed_databases.add(change.database)
    tables = _table_work(plan)
    for key in [k for k in tables if k[0] in failed_databases]:
        result.failures.append(Failure(f"{key[0]}.{key[1]}", "skipped: its database failed"))
        del tables[key]
    with ThreadPoolExecutor(max_workers=TABLE_WORKERS) as pool:
        list(pool.map(lambda item: _table(connection, item[0], item[1], result, progress), tables.values()))
    return result


def _table_work(plan: Plan) -> dict[tuple[str, str], tuple[Change | None, PartitionChanges | None]]:
    work: dict[tuple[str, str], tuple[Change | None, PartitionChanges | None]] = {}
    for change in plan.changes:
        if change.kind == "table" and change.table:
            work[(change.database, change.table)] = (change, None)
    for group in plan.partitions:
        table_change, _ = work.get((group.database, group.table), (None, None))
        work[(group.database, group.table)] = (table_change, group)
    return work


def _table(
    connection: Connection,
    change: Change | None,
    group: PartitionChanges | None,
    result: ApplyResult,
    progress: Progress,
) -> None:
    if change and not _attempt(result, change.address, lambda: _table_change(connection, change), progress):
        if group:
            result.failures.append(Failure(f"{group.database}.{group.table}", "partitions skipped: table failed"))
        return
    if group:
        _partitions(connection.glue, group, result, progress)


def _attempt(result: ApplyResult, address: str, step: Callable[[], str], progress: Progress) -> bool:
    try:
        done = step()
    except ConflictError as exc:
        result.failures.append(Failure(address, f"{exc}; it was not overwritten — run plan again"))
        progress.note(f"[red]conflict[/] {address}")
        return False
    except GluecatError as exc:
        result.failures.append(Failure(address, str(exc)))
        progress.note(f"[red]failed[/] {address}: {exc}")
        return False
    finally:
        progress.advance(1)
    result.done[done] += 1
    return True


def _database(glue: Glue, change: Change) -> str:
    assert change.desired is not None
    if change.action is Action.CREATE:
        glue.create_database(change.desired)
    else:
        glue.update_database(change.database, change.desired)
    return f"databases {change.action.past}"


def _table_change(connection: Connection, change: Change) -> str:
    assert change.table is not None
    glue = connection.glue
    if change.format == "iceberg" and change.action in (Action.CREATE, Action.UPDATE):
        assert change.desired is not None
        if change.action is Action.CREATE:
            connection.iceberg.create(change.database, change.table, change.desired)
        else:
            connection.iceberg.update(change.database, change.table, change.desired["ops"], change.live_version)
        return f"tables {change.action.past}"
    if change.format == "delta" and change.action in (Action.CREATE, Action.UPDATE):
        _delta_change(connection, change)
        return f"tables {change.action.past}"
    if change.action is Action.DELETE:
        glue.delete_table(change.database, change.table)
    elif change.action is Action.REPLACE:
        assert change.desired is not None
        glue.delete_table(change.database, change.table)
        glue.create_table(change.database, change.desired)
    elif change.action is Action.CREATE:
        assert change.desired is not None
        glue.create_table(change.database, change.desired)
    else:
        assert change.desired is not None
        glue.update_table(change.database, change.desired, change.live_version)
    return f"tables {change.action.past}"


def _delta_change(connection: Connection, change: Change) -> None:
    """The log first (create or alter), then the Glue registration that describes it."""
    assert change.desired is not None and change.table is not None
    location, delta, glue_input = change.desired["location"], change.desired["delta"], change.desired["glue"]
    if "create" in delta:
        connection.delta.create(location, change.table, delta["create"])
    elif delta:
        connection.delta.alter(location, delta)
    if change.action is Action.CREATE:
        connection.glue.create_table(change.database, glue_input)
    else:
        connection.glue.update_table(change.database, glue_input, change.live_version)


def _partitions(glue: Glue, group: PartitionChanges, result: ApplyResult, progress: Progress) -> None:
    creates = [dict(partition_shape(group.storage, w.values, w.location)) for w in group.creates]
    updates = [
        {"PartitionValueList": list(w.values), "PartitionInput": partition_shape(group.storage, w.values, w.location)}
        for w in group.updates
    ]
    errors = []
    try:
        errors += glue.create_partitions(group.database, group.table, creates, progress.advance)
        errors += glue.update_partitions(group.database, group.table, updates, progress.advance)
        errors += glue.delete_partitions(group.database, group.table, list(group.deletes), progress.advance)
        errors += _follow_table_schema(glue, group, progress)
    except GluecatError as exc:
        result.failures.append(Failure(f"{group.database}.{group.table}", f"partitions: {exc}"))
        return
    for error in errors:
        result.failures.append(Failure(group.address(error.values), f"{error.code}: {error.message}"))
    for action, count in ((Action.CREATE, len(group.creates)), (Action.UPDATE, len(group.updates) + len(group.follows)),
                          (Action.DELETE, len(group.deletes))):  # fmt: skip
        if count:
            result.done[f"partitions {action.past}"] += count


def _follow_table_schema(glue: Glue, group: PartitionChanges, progress: Progress) -> list[EntryError]:
    """Read the partitions to bring in step now, so each keeps exactly what it holds but its schema."""
    if not group.follows:
        return []
    live = glue.partitions(group.database, group.table, len(group.follows))
    return glue.update_partitions(group.database, group.table, follow_entries(group, live), progress.advance)
