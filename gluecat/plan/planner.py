"""Load -> lint -> read live -> diff: the steps `plan` and `apply` share."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from gluecat.access.plan import plan_access
from gluecat.backends.connect import Connection
from gluecat.backends.glue import Glue
from gluecat.changes.model import Action, Plan
from gluecat.errors import SpecError, SpecErrors
from gluecat.lint.rules import Finding, lint
from gluecat.plan.diff import build_plan, partition_sinks
from gluecat.plan.live import read_live
from gluecat.plan.metastore_types import metastore_note
from gluecat.project.gcpause import paused_gc
from gluecat.project.load import Project, load_project
from gluecat.project.targets import Targets


def load_checked(
    root: Path, warn: Callable[[Finding], None], env: str | None = None, targets: Targets | None = None
) -> Project:
    """A project whose targeted objects lint without errors; warnings, and errors of objects the
    plan does not touch (they block their own plans, not this one), go to `warn`."""
    project = load_project(root, env)
    targets = targets or Targets()
    errors = []
    for finding in lint(project):
        if finding.severity == "error" and _targeted(finding.address, targets):
            errors.append(finding)
        elif finding.severity == "error":
            warn(replace(finding, severity="warning", message=f"{finding.message} (not targeted by this plan)"))
        else:
            warn(finding)
    if errors:
        raise SpecErrors([SpecError(f.position, f"{f.message} [{f.rule}]") for f in errors])
    return project


def _targeted(address: str, targets: Targets) -> bool:
    database, dot, table = address.partition(".")
    return targets.table(database, table) if dot else targets.touches(database)


def make_plan(project: Project, connection: Connection, targets: Targets, progress: Callable[[str], None]) -> Plan:
    targets.check({db.name: [t.name for t in db.tables] for db in project.databases})
    with paused_gc():  # pages of partitions: millions of short-lived dicts, no cycles among them
        live = read_live(connection, project, targets, progress, partition_sinks(project))
        plan = build_plan(project, live, targets)
        access = plan_access(project, connection.lakeformation, targets, plan.changes)
        plan = replace(plan, changes=(*plan.changes, *access))
    plan = replace(plan, env=project.env)
    refused = metastore_note(plan) if project.config.backend == "hive" else None
    notes = [note for note in (targets.note(), *plan.notes, refused, *crowded_versions(plan, connection)) if note]
    return replace(plan, notes=tuple(notes))


VERSIONS_WARNING = 90_000  # Glue keeps at most 100,000 versions of a table, then refuses every update


def crowded_versions(plan: Plan, connection: Connection) -> list[str]:
    """A warning for each table the plan updates that holds more than 90,000 versions. VersionIds count
    up from 1, so only a table whose current id passes 90,000 is counted (GetTableVersions, in pages)."""
    if not isinstance(connection.catalog, Glue):
        return []
    notes = []
    for change in plan.changes:
        version = change.live_version or ""
        if change.kind != "table" or change.action is not Action.UPDATE or change.table is None:
            continue
        if not version.isdigit() or int(version) <= VERSIONS_WARNING:
            continue
        held = len(connection.glue.table_versions(change.database, change.table))
        if held > VERSIONS_WARNING:
            notes.append(
                f"warning: {change.address} holds {held:,} versions and Glue refuses updates at 100,000:"
                f" `gluecat prune-versions --keep N --target {change.address}` deletes old ones,"
                " `skip_archive: true` stops keeping them"
            )
    return notes
