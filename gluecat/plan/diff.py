"""The pure diff: loaded project + live catalog -> Plan. No I/O here.

Databases and deletes are planned here; each declared table by its kind (`gluecat.kinds`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from gluecat.changes import impact
from gluecat.changes.fingerprint import fingerprint
from gluecat.changes.model import Action, Change, PartitionChanges, Plan
from gluecat.convert.database import database_input
from gluecat.convert.locations import slashless
from gluecat.convert.parameters import managed
from gluecat.convert.shapes import DATABASE_INPUT_KEYS
from gluecat.errors import PlanError
from gluecat.kinds.base import LiveCatalog, PartitionSink, PlanContext
from gluecat.kinds.glue_diff import ABSENT, carry_over, parameter_diffs, scalar_diffs, version_of
from gluecat.kinds.registry import kind_of, recognise
from gluecat.project.load import LoadedDatabase, LoadedTable, Project
from gluecat.project.root import display_name
from gluecat.project.targets import Targets

Shape = dict[str, Any]


def build_plan(project: Project, live: LiveCatalog, targets: Targets) -> Plan:
    changes: list[Change] = []
    partitions: list[PartitionChanges] = []
    undeclared: list[str] = []
    context = PlanContext(live, project.config, recognise)
    ignore = context.ignore
    for database in project.databases:
        if not targets.touches(database.name):
            continue
        live_db = live.databases.get(database.name)
        if targets.database(database.name) or live_db is None:  # a targeted table needs its database
            change = _database_change(database, live_db, ignore)
            if change:
                changes.append(change)
        live_tables = live.tables.get(database.name, {}) if live_db else {}
        for table in database.tables:
            if not targets.table(database.name, table.name):
                continue
            for planned in kind_of(table.model).changes(table.model, table, database, context):
                if isinstance(planned, Change):
                    changes.append(planned)
                else:
                    partitions.append(planned)
        if live_db and (targets.database(database.name) or targets.gone(database.name)):
            declared = {t.name for t in database.tables}
            gone = live_tables if targets.database(database.name) else targets.gone(database.name)
            unlisted = sorted(name for name in gone if name not in declared and name in live_tables)
            if project.config.prune:
                changes.extend(_delete_table(database.name, name, live_tables[name]) for name in unlisted)
            else:
                undeclared.extend(f"{database.name}.{name}" for name in unlisted)
    if context.refusals:
        refusals = context.refusals
        raise PlanError("the plan holds changes that cannot be made safely:\n  " + "\n  ".join(refusals))
    plan = Plan(display_name(project.root), tuple(changes), tuple(partitions), targets=targets.texts())
    databases = _unmanaged_databases(project, live) if targets.everything else ()
    notes = [_undeclared_note(undeclared)] if undeclared else []
    notes += [_left_alone_note(group) for group in partitions if group.left_alone]
    notes += [_unmanaged_databases_note(databases)] if databases else []
    if not notes:
        return plan
    return dataclasses.replace(plan, notes=tuple(notes), undeclared=tuple(undeclared), unmanaged_databases=databases)


# A metastore's own database, which every Hive Metastore (and Athena) creates: never the project's.
DEFAULT_DATABASE = "default"


def _unmanaged_databases(project: Project, live: LiveCatalog) -> tuple[str, ...]:
    declared = {database.name for database in project.databases}
    return tuple(sorted(name for name in live.databases if name not in declared and name != DEFAULT_DATABASE))


def _unmanaged_databases_note(names: tuple[str, ...]) -> str:
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    return (
        f"{len(names)} live database{'s' if len(names) != 1 else ''} not in the YAML, left alone: {shown};"
        " `gluecat import --database NAME` writes one"
    )


def _undeclared_note(names: list[str]) -> str:
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    return (
        f"{len(names)} live table{'s' if len(names) != 1 else ''} not in the YAML, left alone (prune is off):"
        f" {shown}; `gluecat import` writes them, `prune: true` would delete them"
    )


def _left_alone_note(group: PartitionChanges) -> str:
    shown = ", ".join(group.address(values) for values in group.left_alone_first)
    more = (
        f" and {group.left_alone - len(group.left_alone_first):,} more"
        if group.left_alone > len(group.left_alone_first)
        else ""
    )
    count = group.left_alone
    return (
        f"{count:,} live partition{'s' if count != 1 else ''} of {group.database}.{group.table} not in the YAML,"
        f" left alone (prune is off): {shown}{more}; declare them under `partitions:`, `prune: true` would delete them"
    )


def _database_change(database: LoadedDatabase, live: Shape | None, ignore: tuple[str, ...]) -> Change | None:
    desired: Shape = dict(database_input(database.model))
    desired["Parameters"] = managed(database.model.parameters, ignore)
    if live is None:
        return Change(
            database.name,
            "database",
            Action.CREATE,
            database.name,
            None,
            desired,
            live_version=ABSENT,
        )
    diffs = list(scalar_diffs({"description": (live.get("Description"), desired.get("Description"))}))
    # A Hive Metastore drops a location's trailing slash, as table locations are compared too.
    locations = (slashless(live.get("LocationUri")), slashless(desired.get("LocationUri")))
    diffs += scalar_diffs({"location": locations})
    diffs += parameter_diffs("parameters", live.get("Parameters") or {}, desired["Parameters"])
    if not diffs:
        return None
    merged = carry_over(live, DATABASE_INPUT_KEYS, desired)
    merged.update({k: v for k, v in desired.items() if k != "Parameters"})
    return Change(
        database.name,
        "database",
        Action.UPDATE,
        database.name,
        None,
        merged,
        tuple(diffs),
        fingerprint(live),
    )


def _delete_table(database: str, name: str, live: Shape) -> Change:
    return Change(
        f"{database}.{name}", "table", Action.DELETE, database, name, None,
        live_version=version_of(live), reason="not declared in YAML (prune: true)",
        findings=(impact.table_delete(f"{database}.{name}"),),
    )  # fmt: skip


def partition_sinks(project: Project) -> Callable[[LoadedDatabase, LoadedTable, Shape], PartitionSink | None]:
    """What each table's live partitions are folded into as they are read (its kind decides)."""

    def sink_for(database: LoadedDatabase, table: LoadedTable, live: Shape) -> PartitionSink | None:
        return kind_of(table.model).sink(table.model, database, live, project.config, recognise(live))

    return sink_for
