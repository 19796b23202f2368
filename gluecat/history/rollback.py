"""`gluecat rollback`: an earlier version written back, as a plan like any other.

The plan is the project with one table's definition replaced by the version's (read into the same
model a table file holds): the planner diffs it with the live table, the gate weighs it, apply
writes it with the live VersionId, so a table someone changed meanwhile is refused, not overwritten.
A kind that never evolves (a registration) plans nothing for a table that exists: its version's
TableInput is written over the live one whole. An Iceberg table is rolled back by its own
snapshots instead: a Glue version would point it at old metadata and silently drop every commit since.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gluecat.backends.connect import Connection
from gluecat.changes.model import Action, Change, FieldDiff, Plan
from gluecat.changes.payloads import glue_input
from gluecat.convert.parameters import is_volatile
from gluecat.convert.shapes import CARRIED_TABLE_KEYS, TABLE_INPUT_KEYS
from gluecat.errors import ConflictError, GluecatError, LiveStateError
from gluecat.history.diff import version_diffs
from gluecat.kinds.base import Writer
from gluecat.kinds.registry import desired_table_input, kind_of, writer_of
from gluecat.model.suggest import closest, either
from gluecat.model.table import Table
from gluecat.plan.planner import make_plan
from gluecat.project.load import LoadedDatabase, LoadedTable, Project
from gluecat.project.source import SourceFile
from gluecat.project.targets import Targets

Shape = dict[str, Any]
ICEBERG_REFUSAL = (
    "{address} is an Iceberg table: a Glue version would point it at old metadata and drop every commit"
    " since; roll back one of its snapshots with --to-snapshot ID (`gluecat history` lists them)"
)


def project_database(project: Project, database: str) -> LoadedDatabase:
    for loaded in project.databases:
        if loaded.name == database:
            return loaded
    close = closest(database, [d.name for d in project.databases])
    hint = f": did you mean {either(close)}?" if close else ": roll back tables the project manages"
    raise GluecatError(f"database {database} is not in the project{hint}")


def table_file(project: Project, database: str, name: str) -> LoadedTable | None:
    return next((t for t in project_database(project, database).tables if t.name == name), None)


def with_table(project: Project, database: str, model: Table) -> Project:
    """The project with `database`'s table file for `model` replaced (or added) by `model`."""
    loaded = project_database(project, database)
    assert model.name is not None
    existing = table_file(project, database, model.name)
    path = project.root / database / "tables" / f"{model.name}.yaml"
    source = existing.source if existing else SourceFile(path, {})
    tables = [t for t in loaded.tables if t.name != model.name] + [LoadedTable(model, source)]
    changed = dataclasses.replace(loaded, tables=tuple(tables))
    databases = tuple(changed if d.name == database else d for d in project.databases)
    return dataclasses.replace(project, databases=databases)


def rollback_plan(
    project: Project,
    connection: Connection,
    database: str,
    model: Table,
    version_id: str,
    progress: Callable[[str], None],
    version_table: Shape | None = None,
) -> Plan:
    """The plan that writes `model` (version `version_id`'s definition, read from `version_table`,
    Glue's shape of it) over the live table."""
    assert model.name is not None
    address = f"{database}.{model.name}"
    targets = Targets.parse([address])
    plan = make_plan(with_table(project, database, model), connection, targets, progress)
    live = connection.catalog.table(database, model.name)
    if live is not None and not kind_of(model).evolves:
        carried = desired_table_input(model, project_database(project, database).model)
        assert carried is not None
        plan = _written_whole(plan, address, live, carried, kind_of(model).format)
    elif version_table is not None and live is not None:
        plan = _without_later_fields(plan, address, live, version_table, tuple(project.config.ignore_parameters))
    note = f"rolls {address} back to its Glue version {version_id}"
    return dataclasses.replace(plan, notes=(note, *plan.notes))


def _written_whole(plan: Plan, address: str, live: Shape, carried: Shape, kind: str) -> Plan:
    """The plan with an update writing `carried` (the version's TableInput) over the live table,
    unless the live table carries exactly that already."""
    if any(c.kind == "table" and c.address == address for c in plan.changes):
        return plan
    held = {key: live[key] for key in CARRIED_TABLE_KEYS if key in live}
    if held == carried:
        return plan
    diffs = version_diffs(held, carried) or [
        FieldDiff(f"table_input.{key}", held.get(key), carried.get(key))
        for key in sorted(set(held) | set(carried))
        if held.get(key) != carried.get(key)
    ]
    change = Change(address, "table", Action.UPDATE, address.split(".", 1)[0], live["Name"], copy.deepcopy(carried),
                    tuple(diffs), live_version=live.get("VersionId"), table_kind=kind)  # fmt: skip
    return dataclasses.replace(plan, changes=(*plan.changes, change))


# Keys a version can lack that a later one added: the plan compares only what a file declares, so a
# rollback removes them itself, or the table would keep them and not equal the version.
_OPTIONAL_TOP = {
    "Description": "description", "Owner": "owner", "Retention": "retention",
    "ViewOriginalText": "view_original_text", "ViewExpandedText": "view_expanded_text", "TargetTable": "target_table",
}  # fmt: skip
_PARAMETER_MAPS = (
    ("parameters", ("Parameters",)),
    ("storage_parameters", ("StorageDescriptor", "Parameters")),
    ("serde.parameters", ("StorageDescriptor", "SerdeInfo", "Parameters")),
)


def _without_later_fields(plan: Plan, address: str, live: Shape, version: Shape, ignore: tuple[str, ...]) -> Plan:
    """The plan's table update (or a new one) also removing what the live table holds and the version
    lacks: parameters (an engine's volatile ones and `ignore_parameters` kept), a description, view
    texts. A replace or another kind's change is left as planned."""
    found = next((c for c in plan.changes if c.kind == "table" and c.address == address), None)
    if found is not None and (found.action is not Action.UPDATE or writer_of(found) is not Writer.CATALOG):
        return plan
    as_input = {key: live[key] for key in TABLE_INPUT_KEYS if key in live}  # the live table, writable
    desired = copy.deepcopy(glue_input(found.desired) if found and found.desired else as_input)
    removed: list[FieldDiff] = []
    for key, label in _OPTIONAL_TOP.items():
        if key in live and key not in version and key in desired:
            removed.append(FieldDiff(label, live[key], None))
            del desired[key]
    for label, path in _PARAMETER_MAPS:
        held, kept, wanted = _at(live, path), _at(version, path), _at(desired, path)
        for key in sorted(set(held) - set(kept)):
            if key in wanted and not is_volatile(key, ignore):
                removed.append(FieldDiff(f"{label}.{key}", held[key], None))
                del wanted[key]
    if not removed:
        return plan
    if found is None:
        change = Change(address, "table", Action.UPDATE, address.split(".", 1)[0], live["Name"], desired,
                        tuple(removed), live_version=live.get("VersionId"))  # fmt: skip
        return dataclasses.replace(plan, changes=(*plan.changes, change))
    change = dataclasses.replace(found, desired=desired, diffs=(*found.diffs, *removed))
    return dataclasses.replace(plan, changes=tuple(change if c is found else c for c in plan.changes))


def _at(shape: Shape, path: tuple[str, ...]) -> dict[str, Any]:
    """The mapping at `path` inside `shape` (the same object, so removing from it edits `shape`)."""
    for key in path:
        inner = shape.get(key)
        if not isinstance(inner, dict):
            return {}
        shape = inner
    return shape


@dataclass(frozen=True)
class SnapshotRollback:
    address: str
    current: int | None
    target: int
    undone: tuple[str, ...]  # the commits after the target, newest first: "<id> <operation>"


def snapshot_rollback(connection: Connection, database: str, name: str, snapshot_id: int) -> SnapshotRollback:
    """What rolling back to `snapshot_id` undoes; refused unless it is an ancestor of the current one."""
    from pyiceberg.table.snapshots import ancestors_of

    table = _load(connection, database, name)
    address = f"{database}.{name}"
    metadata = table.metadata
    if metadata.snapshot_by_id(snapshot_id) is None:
        known = ", ".join(str(s.snapshot_id) for s in metadata.snapshots) or "none"
        raise GluecatError(f"{address} has no snapshot {snapshot_id} (its snapshots: {known})")
    if snapshot_id == metadata.current_snapshot_id:
        raise GluecatError(f"{address} is already at snapshot {snapshot_id}")
    undone: list[str] = []
    for snapshot in ancestors_of(table.current_snapshot(), metadata):
        if snapshot.snapshot_id == snapshot_id:
            return SnapshotRollback(address, metadata.current_snapshot_id, snapshot_id, tuple(undone))
        operation = snapshot.summary.operation.value if snapshot.summary else "commit"
        undone.append(f"{snapshot.snapshot_id} {operation}")
    raise GluecatError(
        f"snapshot {snapshot_id} is not an ancestor of {address}'s current snapshot: only an earlier state of"
        " the current history can be rolled back to"
    )


def roll_back_snapshot(connection: Connection, rollback: SnapshotRollback) -> None:
    """One Iceberg commit making `rollback.target` current; refused if the table moved since it was read."""
    from pyiceberg.exceptions import CommitFailedException

    database, name = rollback.address.split(".", 1)
    table = _load(connection, database, name)
    if table.metadata.current_snapshot_id != rollback.current:
        raise ConflictError(f"{rollback.address}: its current snapshot changed since it was read; nothing was written")
    try:
        table.manage_snapshots().rollback_to_snapshot(rollback.target).commit()
    except CommitFailedException as exc:
        raise ConflictError(f"{rollback.address}: a concurrent Iceberg commit won: {exc}") from exc
    except ValueError as exc:
        raise LiveStateError(f"{rollback.address}: Iceberg refused the rollback: {exc}") from exc


def _load(connection: Connection, database: str, name: str) -> Any:
    try:
        return connection.iceberg.catalog.load_table((database, name))
    except Exception as exc:
        raise LiveStateError(f"{database}.{name}: cannot read its Iceberg metadata: {exc}") from exc
