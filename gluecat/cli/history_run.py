"""The bodies of `gluecat history`, `rollback` and `prune-versions` (gluecat/cli/history.py declares them):
they ask, print and exit; their steps are gluecat/history/steps.py's."""

from __future__ import annotations

import json
import shlex
import sys
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import typer

from gluecat.apply.run import refuse_destruction, verify_unchanged
from gluecat.backends.connect import Connection, connect
from gluecat.cli import progress
from gluecat.cli.history import split_address
from gluecat.cli.interrupt import stop_on_signals
from gluecat.cli.output import print_json, stderr, stdout
from gluecat.cli.planning import apply_and_report, render, warn_finding
from gluecat.errors import ExitCode, GluecatError
from gluecat.history import steps
from gluecat.plan import saved
from gluecat.plan.identity import save_plan
from gluecat.plan.planner import load_checked
from gluecat.project.load import Project
from gluecat.project.targets import Targets
from gluecat.render.text import value
from gluecat.secrets import redact
from gluecat.text.plain import counted


def _require_terminal(command: str) -> None:
    if not sys.stdin.isatty():
        raise GluecatError(f"{command} asks for confirmation, and there is no terminal: pass --auto-approve")


def _confirmed(command: str, question: str) -> bool:
    _require_terminal(command)
    return typer.confirm(question, default=False)


# history


def history_command(root: Path, address: str, output_format: str, limit: int, page: int, env: str | None) -> int:
    database, name = split_address(address)
    project = load_checked(root, warn_finding, env)
    found = steps.read_history(project, database, name, limit, page)
    if output_format == "json":
        print_json(json.loads(json.dumps(found.as_json(), default=str)))
        return ExitCode.OK
    _print_history(found, limit, page)
    return ExitCode.OK


def _print_history(found: steps.History, limit: int, page: int) -> None:
    first = (page - 1) * limit + 1
    shown = f"{first}-{first + len(found.versions) - 1}" if found.versions else "none"
    stdout.print(
        f"{found.address}: {counted(found.total, 'Glue version')} kept (showing {shown}, newest first)", markup=False
    )
    for entry in found.versions:
        flags = " (current)" if entry.current else ""
        who = f" by {entry.by}" if entry.by else ""
        stdout.print(f"\nversion {entry.version_id}{flags}  {entry.written or 'time unknown'}{who}", markup=False)
        if entry.previous is None:
            stdout.print("    the oldest version Glue keeps", markup=False)
        elif not entry.diffs:
            stdout.print(f"    no field changed since version {entry.previous}", markup=False)
        for diff in entry.diffs:
            line = f"    ~ {diff.path}: {value(diff.before)} -> {value(diff.after)}"
            stdout.print(redact.scrub(line), markup=False)
    if first + len(found.versions) - 1 < found.total:
        stdout.print(f"\nMore with --page {page + 1}.", markup=False)
    if found.iceberg:
        stdout.print(f"\nIceberg snapshots ({len(found.snapshots)}, newest first):", markup=False)
        for snap in found.snapshots:
            marks = " (current)" if snap.current else ("" if snap.ancestor else " (not in the current history)")
            added = snap.summary.get("added-records")
            rows = f", {counted(int(added), 'row')} added" if added and added.isdigit() else ""
            when = datetime.fromtimestamp(snap.timestamp_ms / 1000, UTC).isoformat(timespec="seconds")
            stdout.print(f"  {snap.snapshot_id}{marks}  {when}  {snap.operation}{rows}", markup=False)


# rollback


@dataclass(frozen=True)
class Rollback:
    address: str
    to_version: int | None
    to_snapshot: int | None
    auto_approve: bool
    out: Path | None
    write_yaml: bool
    allow_destroy: bool


def rollback_command(root: Path, request: Rollback, env: str | None) -> int:
    database, name = split_address(request.address)
    if (request.to_version is None) == (request.to_snapshot is None):
        raise GluecatError("give one of --to-version N (a Hive table or view) or --to-snapshot ID (an Iceberg table)")
    if request.out:
        saved.check_destination(request.out)
    project = load_checked(root, warn_finding, env, Targets.parse([request.address]))
    steps.check_rollback(project, database, name, request.write_yaml)
    if not request.auto_approve and not request.out:
        _require_terminal("rollback")
    with steps.live_table(project, database, name) as (connection, live):
        if request.to_snapshot is not None:
            return _snapshot(connection, request, live)
        return _version(project, connection, request, live)


def _version(project: Project, connection: Connection, request: Rollback, live: dict[str, Any]) -> int:
    database, _ = split_address(request.address)
    version = steps.version_to_write(project, connection, request.address, live, request.to_version)
    with progress.status(stderr, "reading the live catalog") as update:
        plan = steps.plan_version(project, connection, database, version, update)
    if request.out:
        save_plan(request.out, plan, project, connection)
        render(plan, "human", request.allow_destroy)
        stderr.print(
            f"Saved the plan to {request.out}; apply it with `gluecat apply {shlex.quote(str(request.out))}`.",
            markup=False,
        )
        _yaml_step(project, request, version, saved_plan=request.out)
        return ExitCode.OK
    render(plan, "human", request.allow_destroy)
    if not plan.has_changes:
        stdout.print(
            f"{request.address} already means what version {version.wanted} held: nothing to write.", markup=False
        )
        _yaml_step(project, request, version)
        return ExitCode.OK
    refuse_destruction(plan, request.allow_destroy)
    if not request.auto_approve and not _confirmed("rollback", "Roll back?"):
        stdout.print("Rollback cancelled; nothing was changed.", markup=False)
        return ExitCode.ERROR
    verify_unchanged(connection, plan, creates=False)
    code = apply_and_report(connection, plan)
    if code == 0:
        _yaml_step(project, request, version)
    return code


def _yaml_step(project: Project, request: Rollback, version: steps.Version, saved_plan: Path | None = None) -> None:
    """`saved_plan`: the rollback is saved, not applied: the file is ahead of the catalog until it is."""
    database, name = split_address(request.address)
    path = steps.table_path(project, database, name)
    once = f"once `gluecat apply {shlex.quote(str(saved_plan))}` has run, " if saved_plan else ""
    if request.write_yaml:
        written = steps.write_version_file(project, database, name, version.data, request.to_version)
        for secret in written.secrets:
            stdout.print(
                f"Set {secret.variable} before the next plan: the file names it for {secret.where}.", markup=False
            )
        clean = f"{once}the next plan is clean" if saved_plan else "the next plan is clean"
        if saved_plan:
            clean += "; until then, plan shows the rollback"
        stdout.print(f"Wrote version {request.to_version}'s definition to {path}: {clean}.", markup=False)
        return
    if not path.exists():
        stdout.print(f"The project has no file for {database}.{name}: --write-yaml writes one at {path}.", markup=False)
        return
    if not version.evolves:  # a registration: plans create it when missing and never change it
        stdout.print(
            f"{path} still carries the registration as it was; plans leave a registration as it is, so the"
            " rollback stands: rerun with --write-yaml to record the version in the file.",
            markup=False,
        )
        return
    stdout.print(
        f"{path} still describes the table as it was: {once}the next plan would undo the rollback. Rerun with"
        " --write-yaml, or edit the file, before the next apply.",
        markup=False,
    )


def _snapshot(connection: Connection, request: Rollback, live: dict[str, Any]) -> int:
    steps.require_iceberg(request.address, live)
    if request.out:
        raise GluecatError("--out saves a Glue plan; a snapshot rollback is one Iceberg commit: run it without --out")
    assert request.to_snapshot is not None
    planned = steps.snapshot_to_roll_back(connection, request.address, request.to_snapshot)
    stdout.print(
        f"Rollback {planned.address} from snapshot {planned.current} to {planned.target}, undoing"
        f" {counted(len(planned.undone), 'commit')}:",
        markup=False,
    )
    for commit in planned.undone:
        stdout.print(f"  - {commit}", markup=False)
    if not request.auto_approve and not _confirmed("rollback", "Roll back?"):
        stdout.print("Rollback cancelled; nothing was changed.", markup=False)
        return ExitCode.ERROR
    steps.roll_back_snapshot(connection, planned)
    stdout.print(f"Rolled {planned.address} back to snapshot {planned.target}.", markup=False)
    return ExitCode.OK


# prune-versions


def prune_command(root: Path, keep: int, targets: Targets, auto_approve: bool, env: str | None) -> int:
    project = load_checked(root, warn_finding, env, targets)
    if not auto_approve:
        _require_terminal("prune-versions")
    # Ctrl-C or SIGTERM while deleting: the call in flight finishes, the count is reported, exit 130.
    # The handlers stay until the connection is closed, so the sandbox's save is not cut short.
    with ExitStack() as signals:
        return _prune(project, keep, targets, auto_approve, signals)


def _prune(project: Project, keep: int, targets: Targets, auto_approve: bool, signals: ExitStack) -> int:
    with connect(project) as connection:
        connection.versions("prune-versions")
        with progress.status(stderr, "reading table versions") as update:
            tables = steps.prune_candidates(project, connection, targets, keep, update)
        if not tables:
            stdout.print(f"No versions to delete: every table keeps {keep} or fewer.", markup=False)
            return ExitCode.OK
        for table in tables:
            stdout.print(_prune_line(table), markup=False)
        total = sum(len(t.delete) for t in tables)
        calls = sum(-(-len(t.delete) // 100) for t in tables)
        stdout.print(
            f"Prune: {counted(total, 'version')} of {counted(len(tables), 'table')} to delete,"
            f" in {counted(calls, 'BatchDeleteTableVersion call')}.",
            markup=False,
        )
        if not auto_approve and not _confirmed("prune-versions", "Delete these versions?"):
            stdout.print("Prune cancelled; nothing was deleted.", markup=False)
            return ExitCode.ERROR
        stop = signals.enter_context(stop_on_signals(lambda text: stderr.print(text, markup=False)))
        result = steps.prune(connection, tables, lambda _: not stop.is_set())
    for address, error in result.failures:
        stderr.print(f"failed {address} version {error.values[0]}: {error.code}: {error.message}", markup=False)
    stdout.print(f"Deleted {counted(result.deleted, 'version')} in {counted(result.calls, 'call')}.", markup=False)
    if result.stopped:
        stderr.print("Interrupted: the rest were not deleted; run prune-versions again to finish.", markup=False)
        return ExitCode.INTERRUPTED
    return ExitCode.ERROR if result.failures else ExitCode.OK


def _prune_line(table: steps.TableVersions) -> str:
    return (
        f"  - {table.address}: delete {counted(len(table.delete), 'version')} ({_ranges(table.delete)}),"
        f" keep {_ranges(table.kept)} (current {table.current})"
    )


def _ranges(ids: tuple[str, ...]) -> str:
    """`250-241, 7, 5-1`: runs of consecutive ids, newest first."""
    numbers = [int(i) for i in ids if i.isdigit()]
    runs: list[list[int]] = []
    for number in numbers:
        if runs and runs[-1][-1] - 1 == number:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)
