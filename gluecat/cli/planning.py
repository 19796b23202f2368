"""`gluecat plan` and `gluecat apply`."""

from __future__ import annotations

import shlex
import sys
from contextlib import ExitStack
from pathlib import Path

import typer

from gluecat.apply.access import refuse_revocation
from gluecat.apply.run import ApplyResult, Failure, apply_plan, refuse_destruction, verify_unchanged, work_units
from gluecat.apply.saved import check_saved, open_saved
from gluecat.backends.connect import Connection, connect
from gluecat.backends.denied import denial_message
from gluecat.changes.model import Plan
from gluecat.cli import progress
from gluecat.cli.interrupt import stop_on_signals
from gluecat.cli.output import print_json, stderr, stdout
from gluecat.errors import ExitCode, GluecatError
from gluecat.lint.rules import Finding
from gluecat.plan import saved, serialize
from gluecat.plan.gate import gate_refusal
from gluecat.plan.identity import save_plan
from gluecat.plan.planner import load_checked, make_plan
from gluecat.project.load import CATALOG_FILE, Project
from gluecat.project.root import project_root
from gluecat.project.targets import Targets
from gluecat.render import human, markdown
from gluecat.secrets import redact
from gluecat.text.plain import counted, counted_phrase


def warn_finding(finding: Finding) -> None:
    stderr.print(redact.scrub(str(finding)), markup=False, style="yellow")


def _plan_live(project: Project, connection: Connection, targets: Targets) -> Plan:
    with progress.status(stderr, "reading the live catalog") as update:
        return make_plan(project, connection, targets, update)


def render(plan: Plan, output_format: str, destroy_allowed: bool = False, docs_url: str | None = None) -> None:
    shown = serialize.masked(serialize.without_env_secrets(plan))
    if output_format == "json":
        print_json(serialize.to_json(shown))
    elif output_format == "markdown":
        sys.stdout.write(markdown.render(shown, docs_url=docs_url))
    else:
        human.render(shown, stdout, destroy_allowed)


def plan_command(
    root: Path,
    output_format: str,
    out: Path | None,
    detailed_exitcode: bool,
    targets: Targets,
    fail_on: str | None = None,
    env: str | None = None,
) -> int:
    if out:
        saved.check_destination(out)  # before minutes of reading, not after
    project = load_checked(root, warn_finding, env, targets)
    with connect(project) as connection:
        plan = _plan_live(project, connection, targets)
        if out:
            save_plan(out, plan, project, connection)
            stderr.print(
                f"Saved the plan to {out}; apply it with `gluecat apply {shlex.quote(str(out))}`.", markup=False
            )
    render(plan, output_format, docs_url=project.config.docs_url)
    refusal = gate_refusal(plan, fail_on or project.config.policy.fail_on, project.config.readers)
    if refusal:
        stderr.print(refusal, markup=False, style="red")
        return ExitCode.ERROR
    return ExitCode.CHANGES if detailed_exitcode and plan.has_changes else ExitCode.OK


def apply_command(
    path: Path, auto_approve: bool, allow_destroy: bool, targets: Targets, env: str | None = None,
    allow_revoke: bool = False,
) -> int:  # fmt: skip
    if path.is_file() and path.name != CATALOG_FILE:
        return _apply_saved(path, allow_destroy, env, targets, allow_revoke)
    if not path.exists() and path.suffix == ".json":
        raise GluecatError(f"no such plan file: {path} (`gluecat plan DIR --out {path}` writes one)")
    path = project_root(path)  # before asking anything: a mistyped directory is one line
    if not auto_approve:
        _require_terminal()  # before reading the whole live catalog, not after
    project = load_checked(path, warn_finding, env, targets)
    with ExitStack() as until_closed, connect(project) as connection:
        plan = _plan_live(project, connection, targets)
        render(plan, "human", allow_destroy)
        if not plan.has_changes:
            return ExitCode.OK
        refuse_destruction(plan, allow_destroy)
        refuse_revocation(plan, allow_revoke)
        if not auto_approve and not _confirmed():
            stdout.print("Apply cancelled; nothing was changed.")
            return ExitCode.ERROR
        # Someone may have changed what we planned while we waited for "yes": never overwrite it.
        verify_unchanged(connection, plan, creates=False)
        return apply_and_report(connection, plan, until_closed)


def _apply_saved(path: Path, allow_destroy: bool, env: str | None, targets: Targets, allow_revoke: bool) -> int:
    opened = open_saved(path, env, targets)
    render(opened.plan, "human", allow_destroy)
    refuse_destruction(opened.plan, allow_destroy)
    refuse_revocation(opened.plan, allow_revoke)
    with ExitStack() as until_closed, connect(opened.project) as connection:
        check_saved(connection, opened)
        return apply_and_report(connection, opened.plan, until_closed)


def _require_terminal() -> None:
    if not sys.stdin.isatty():
        raise GluecatError("apply asks for confirmation, and there is no terminal: pass --auto-approve")


def _confirmed() -> bool:
    _require_terminal()
    return typer.confirm("Apply these changes?", default=False)


def apply_and_report(connection: Connection, plan: Plan, until_closed: ExitStack | None = None) -> int:
    """Apply, then report: a failure said as it happened is not said again in the report."""
    noted: list[str] = []
    return report_apply(execute_plan(connection, plan, until_closed, noted), noted)


def execute_plan(
    connection: Connection, plan: Plan, until_closed: ExitStack | None = None, noted: list[str] | None = None
) -> ApplyResult:
    """Apply with SIGINT/SIGTERM turned into a stop; the handlers stay until `until_closed` ends
    (callers end it after the connection closes: a signal that lands once the work is done must
    not kill the report or the sandbox's save half-way), else until the work ends. `noted`
    collects the notes printed on the way."""
    with ExitStack() as local, progress.bar(stderr, "applying", work_units(plan)) as bar:
        shown = _Noting(bar, noted if noted is not None else [])
        stop = (until_closed or local).enter_context(stop_on_signals(shown.note))
        return apply_plan(connection, plan, shown, stop)


class _Noting:
    """The progress bar, recording each note it prints."""

    def __init__(self, bar: progress.RichBar | progress.PlainBar, noted: list[str]) -> None:
        self._bar = bar
        self.noted = noted

    def advance(self, units: int) -> None:
        self._bar.advance(units)

    def note(self, message: str) -> None:
        self.noted.append(message)
        self._bar.note(message)


SHOWN_PER_ERROR = 5


def failure_lines(failures: list[Failure]) -> list[str]:
    """One line per failure, but a message shared by many (every batch of a table, when Glue
    went away mid-apply) names its first few addresses and then counts the rest."""
    by_message: dict[str, list[str]] = {}
    for failure in failures:
        by_message.setdefault(failure.message, []).append(failure.address)
    lines: list[str] = []
    for message, addresses in by_message.items():
        lines.extend(f"failed {address}: {message}" for address in addresses[:SHOWN_PER_ERROR])
        if len(addresses) > SHOWN_PER_ERROR:
            rest = counted(len(addresses) - SHOWN_PER_ERROR, "more", "more")
            lines.append(f"failed {rest} with the same error: {message}")
    return lines


# What a failed table leaves undone: said by the failure itself.
_CONSEQUENCES = ("partitions skipped: table failed", "skipped: its table failed", "skipped: its database failed")


def report_apply(result: ApplyResult, noted: list[str] | None = None) -> int:
    """The apply's outcome; failure lines among `noted` (printed while it ran) are not repeated."""
    printed = set(noted or ())
    done = ", ".join(counted_phrase(count, what) for what, count in sorted(result.done.items())) or "nothing"
    if result.denied:  # one line per missing permission; what it left undone is in the counts
        for action in sorted(result.denied):
            stderr.print(f"error: {denial_message(action)}", markup=False, style="red")
        said = [denial_message(action) for action in result.denied]
        others = [
            f
            for f in result.failures
            if f.message not in _CONSEQUENCES and not any(message in f.message for message in said)
        ]
        for line in failure_lines(others):
            if line not in printed:
                stderr.print(redact.scrub(line), markup=False, style="red")
        stdout.print(f"Stopped: a permission is missing ({done}); grant it, then re-run apply.", markup=False)
        return ExitCode.ERROR
    for line in failure_lines(result.failures):
        if line not in printed:
            stderr.print(redact.scrub(line), markup=False, style="red")
    if result.interrupted:
        stdout.print(f"Interrupted: {done}; re-run apply to finish.", markup=False)
        return ExitCode.INTERRUPTED
    if result.unreachable:
        stdout.print(f"Stopped: Glue stopped answering ({done}); re-run apply once it answers.", markup=False)
        return ExitCode.ERROR
    if result.ok:
        stdout.print(f"Apply complete: {done}.", markup=False)
        return ExitCode.OK
    stdout.print(
        f"Apply finished with {counted(len(result.failures), 'failure')} ({done}). Re-run apply to converge.",
        markup=False,
    )
    return ExitCode.ERROR
