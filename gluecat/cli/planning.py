"""`gluecat plan` and `gluecat apply`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from gluecat.apply import ApplyResult, apply_plan, refuse_destruction, verify_unchanged, work_units
from gluecat.cli import progress
from gluecat.cli.interrupt import EXIT_INTERRUPTED, stop_on_signals
from gluecat.cli.output import print_json, stderr, stdout
from gluecat.connect import Connection, connect
from gluecat.errors import GluecatError
from gluecat.lint import Finding
from gluecat.load import Project, load_project
from gluecat.plain import counted, counted_phrase
from gluecat.plan import serialize
from gluecat.plan.gate import gate_refusal
from gluecat.plan.model import Plan
from gluecat.planner import load_checked, make_plan
from gluecat.render import human, markdown
from gluecat.targets import Targets

EXIT_CHANGES = 2


def _warn(finding: Finding) -> None:
    stderr.print(str(finding), markup=False, style="yellow")


def _plan_live(project: Project, connection: Connection, targets: Targets) -> Plan:
    with progress.status(stderr, "reading the live catalog") as update:
        return make_plan(project, connection, targets, update)


def render(plan: Plan, output_format: str, destroy_allowed: bool = False) -> None:
    shown = serialize.masked(plan)
    if output_format == "json":
        print_json(serialize.to_json(shown))
    elif output_format == "markdown":
        sys.stdout.write(markdown.render(shown))
    else:
        human.render(shown, stdout, destroy_allowed)


def plan_command(
    root: Path,
    output_format: str,
    out: Path | None,
    detailed_exitcode: bool,
    targets: Targets,
    fail_on: str | None = None,
) -> int:
    project = load_checked(root, _warn, targets)
    with connect(project) as connection:
        plan = _plan_live(project, connection, targets)
    if out:
        out.write_text(json.dumps(serialize.to_json(plan), indent=1) + "\n", encoding="utf-8")
        stderr.print(f"Saved the plan to {out}; apply it with `gluecat apply {out}`.", markup=False)
    render(plan, output_format)
    refusal = gate_refusal(plan, fail_on or project.config.policy.fail_on)
    if refusal:
        stderr.print(refusal, markup=False, style="red")
        return 1
    return EXIT_CHANGES if detailed_exitcode and plan.has_changes else 0


def apply_command(path: Path, auto_approve: bool, allow_destroy: bool, targets: Targets) -> int:
    if path.is_file():
        return _apply_saved(path, allow_destroy)
    if not auto_approve:
        _require_terminal()  # before reading the whole live catalog, not after
    project = load_checked(path, _warn, targets)
    with connect(project) as connection:
        plan = _plan_live(project, connection, targets)
        render(plan, "human", allow_destroy)
        if not plan.has_changes:
            return 0
        refuse_destruction(plan, allow_destroy)
        if not auto_approve and not _confirmed():
            stdout.print("Apply cancelled; nothing was changed.")
            return 1
        # Someone may have changed what we planned while we waited for "yes": never overwrite it.
        verify_unchanged(connection, plan, tables=False)
        return _report(_execute(connection, plan))


def _apply_saved(path: Path, allow_destroy: bool) -> int:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise GluecatError(f"{path}: not a readable plan file ({exc})") from exc
    plan = serialize.from_json(data)
    project = load_project(Path(plan.catalog))
    render(plan, "human", allow_destroy)
    refuse_destruction(plan, allow_destroy)
    with connect(project) as connection:
        verify_unchanged(connection, plan)
        return _report(_execute(connection, plan))


def _require_terminal() -> None:
    if not sys.stdin.isatty():
        raise GluecatError("apply asks for confirmation, and there is no terminal: pass --auto-approve")


def _confirmed() -> bool:
    _require_terminal()
    return typer.confirm("Apply these changes?", default=False)


def _execute(connection: Connection, plan: Plan) -> ApplyResult:
    with progress.bar(stderr, "applying", work_units(plan)) as bar, stop_on_signals(bar.note) as stop:
        return apply_plan(connection, plan, bar, stop)


def _report(result: ApplyResult) -> int:
    done = ", ".join(counted_phrase(count, what) for what, count in sorted(result.done.items())) or "nothing"
    for failure in result.failures:
        stderr.print(f"failed {failure.address}: {failure.message}", markup=False, style="red")
    if result.interrupted:
        stdout.print(f"Interrupted: {done}; re-run apply to finish.", markup=False)
        return EXIT_INTERRUPTED
    if result.ok:
        stdout.print(f"Apply complete: {done}.", markup=False)
        return 0
    stdout.print(
        f"Apply finished with {counted(len(result.failures), 'failure')} ({done}). Re-run apply to converge.",
        markup=False,
    )
    return 1
