"""Load -> lint -> read live -> diff: the steps `plan` and `apply` share."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from gluecat.access.plan import plan_access, replaced_grants
from gluecat.backends.connect import Connection
from gluecat.changes.model import Action, Plan
from gluecat.errors import SpecError, SpecErrors
from gluecat.lint.rules import SCHEMA_RULE, Finding, lint
from gluecat.plan.diff import build_plan, partition_sinks
from gluecat.plan.downstream import name_downstream_views
from gluecat.plan.live import read_live
from gluecat.project.gcpause import paused_gc
from gluecat.project.load import Project, declared_by, load_partial
from gluecat.project.targets import Targets


def load_checked(
    root: Path, warn: Callable[[Finding], None], env: str | None = None, targets: Targets | None = None
) -> Project:
    """A project whose targeted objects load and lint without errors. Every error of the targeted
    objects is reported at once (the files' and lint's); warnings, and errors of objects the plan does
    not touch (they block their own plans, not this one), go to `warn`."""
    targets = targets or Targets()
    project, load_errors = load_partial(root, env, only=targets if targets.scoped else None)
    if project is None:
        raise SpecErrors(load_errors)
    findings = [Finding(e.position, "error", SCHEMA_RULE, e.message) for e in load_errors]
    errors = []
    for finding in [*findings, *lint(project)]:
        address = finding.address or declared_by(project.root, finding.position.path)
        if finding.severity == "error" and _targeted(address, targets):
            errors.append(finding)
        elif finding.severity == "error":
            warn(replace(finding, severity="warning", message=f"{finding.message} (not targeted by this plan)"))
        else:
            warn(finding)
    if errors:
        errors.sort(key=lambda f: (str(f.position.path), f.position.line, f.position.column))
        raise SpecErrors([SpecError(f.position, _worded(f)) for f in errors])
    return _without_files(project, {e.position.path for e in load_errors})


def _without_files(project: Project, paths: set[Path]) -> Project:
    """The project less the tables whose files had errors (untargeted ones: what validate could
    read of them is for lint, never for a plan)."""
    databases = tuple(
        replace(db, tables=tuple(t for t in db.tables if t.source.path not in paths)) for db in project.databases
    )
    return replace(project, databases=databases)


def _worded(finding: Finding) -> str:
    return finding.message if finding.rule == "schema" else f"{finding.message} [{finding.rule}]"


def _targeted(address: str, targets: Targets) -> bool:
    if not address:  # catalog.yaml, or a file outside every database: every plan needs it right
        return True
    database, dot, table = address.partition(".")
    return targets.table(database, table) if dot else targets.touches(database)


def make_plan(project: Project, connection: Connection, targets: Targets, progress: Callable[[str], None]) -> Plan:
    targets.check({db.name: [t.name for t in db.tables] for db in project.databases})
    with paused_gc():  # pages of partitions: millions of short-lived dicts, no cycles among them
        live = read_live(connection, project, targets, progress, partition_sinks(project))
        plan = name_downstream_views(build_plan(project, live, targets), project, live)
        access = plan_access(project, connection.lakeformation, targets, plan.changes)
        catalog_changes, warnings = replaced_grants(connection.lakeformation, plan.changes, project, targets)
        plan = replace(plan, changes=(*catalog_changes, *access), notes=(*plan.notes, *warnings))
    plan = replace(plan, env=project.env)
    refused = connection.capabilities.refused_before_apply(plan)
    notes = [note for note in (targets.note(), *plan.notes, refused, *crowded_versions(plan, connection)) if note]
    return replace(plan, notes=tuple(notes))


VERSIONS_WARNING = 90_000  # Glue keeps at most 100,000 versions of a table, then refuses every update


def crowded_versions(plan: Plan, connection: Connection) -> list[str]:
    """A warning for each table the plan updates that holds more than 90,000 versions. VersionIds count
    up from 1, so only a table whose current id passes 90,000 is counted (GetTableVersions, in pages)."""
    if not connection.capabilities.versions:
        return []
    notes = []
    for change in plan.changes:
        version = change.live_version or ""
        if change.kind != "table" or change.action is not Action.UPDATE or change.table is None:
            continue
        if not version.isdigit() or int(version) <= VERSIONS_WARNING:
            continue
        held = len(connection.versions("plan").table_versions(change.database, change.table))
        if held > VERSIONS_WARNING:
            notes.append(
                f"warning: {change.address} holds {held:,} versions and Glue refuses updates at 100,000:"
                f" `gluecat prune-versions --keep N --target {change.address}` deletes old ones,"
                " `skip_archive: true` stops keeping them"
            )
    return notes
