"""Load -> lint -> read live -> diff: the steps `plan` and `apply` share."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from gluecat.backends.connect import Connection
from gluecat.changes.model import Plan
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
    plan = replace(plan, env=project.env)
    refused = metastore_note(plan) if project.config.backend == "hive" else None
    notes = [note for note in (targets.note(), *plan.notes, refused) if note]
    return replace(plan, notes=tuple(notes))
