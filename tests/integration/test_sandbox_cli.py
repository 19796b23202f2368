"""`gluecat sandbox status` reads what the sandbox holds from its saved state, changing nothing and
starting no server; `gluecat sandbox reset` clears it, and refuses while a server runs for it."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from pathlib import Path

from gluecat.sandbox.lock import SandboxLock
from tests.integration.helpers import gluecat

TABLE = """\
storage: parquet
columns: [{name: id, type: bigint}]
partition_keys: [{name: dt, type: string}]
partitions:
  - expand:
      dt: {from: 2024-01-01, to: 2024-01-10}
"""


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "sales" / "tables").mkdir(parents=True)
    (project / "catalog.yaml").write_text("region: us-east-1\nsandbox: true\n")
    (project / "sales" / "database.yaml").write_text("location: s3://sandbox-lake/sales/\n")
    (project / "sales" / "tables" / "orders.yaml").write_text(TABLE)
    (project / "sales" / "tables" / "refunds.yaml").write_text(TABLE.replace("01-10", "01-03"))
    return project


def _applied(tmp_path: Path) -> Path:
    project = _project(tmp_path)
    applied = gluecat("apply", str(project), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    return project


def _gluecat_dir(project: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(project)): p.read_bytes() for p in sorted((project / ".gluecat").rglob("*")) if p.is_file()
    }


def test_status_reads_the_saved_state_and_changes_nothing(tmp_path: Path) -> None:
    project = _applied(tmp_path)
    before = _gluecat_dir(project)

    shown = gluecat("sandbox", "status", str(project))

    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    assert lines[0].startswith(f"State: {project / '.gluecat' / 'sandbox'} (")
    assert lines[1:] == [
        "Server: none running",
        "1 database, 2 tables, 13 partitions:",
        "  sales  2 tables, 13 partitions",
        "1 bucket, 0 objects:",
        "  sandbox-lake  0 objects",
    ]
    assert _gluecat_dir(project) == before, "status rewrites nothing"
    assert not (project / ".gluecat" / "sandbox.served").exists()

    as_json = gluecat("sandbox", "status", str(project), "--format", "json")

    assert as_json.exit_code == 0, as_json.output
    document = json.loads(as_json.stdout)
    assert document["running"] is False and document["served"] is None and document["saved"] is True
    assert document["databases"] == [{"name": "sales", "region": "us-east-1", "tables": 2, "partitions": 13}]
    assert document["buckets"] == [{"name": "sandbox-lake", "region": "us-east-1", "objects": 0}]
    state = project / ".gluecat" / "sandbox"
    assert document["size_bytes"] == sum(p.stat().st_size for p in state.rglob("*") if p.is_file()) > 0


def test_status_of_a_new_project_creates_nothing(tmp_path: Path) -> None:
    project = _project(tmp_path)

    shown = gluecat("sandbox", "status", str(project / "sales"))  # found from inside the project too

    assert shown.exit_code == 0, shown.output
    assert "(nothing saved yet)" in shown.stdout and "0 databases, 0 tables, 0 partitions" in shown.stdout
    assert not (project / ".gluecat").exists()


def test_a_project_that_is_not_a_sandbox_is_one_line_exit_1(tmp_path: Path) -> None:
    project = tmp_path / "real"
    project.mkdir()
    (project / "catalog.yaml").write_text("region: us-east-1\n")
    for args in (["status"], ["status", "--format", "json"], ["reset", "--yes"]):
        result = gluecat("sandbox", *args, str(project))
        assert result.exit_code == 1
        assert result.stderr.strip().splitlines() == [
            f"error: {project} is not a sandbox project: its catalog.yaml does not say `sandbox: true`"
        ]
        assert result.stdout == ""
    assert not (project / ".gluecat").exists()


def test_reset_asks_and_without_a_terminal_needs_yes(tmp_path: Path) -> None:
    project = _applied(tmp_path)
    before = _gluecat_dir(project)

    refused = gluecat("sandbox", "reset", str(project))

    assert refused.exit_code == 1
    assert refused.stderr.strip().splitlines() == [
        "error: reset asks for confirmation, and there is no terminal: pass --yes"
    ]
    assert _gluecat_dir(project) == before

    reset = gluecat("sandbox", "reset", str(project), "--yes")

    assert reset.exit_code == 0, reset.output
    assert reset.stdout.startswith(f"Reset the sandbox of {project}: deleted ")
    assert not (project / ".gluecat" / "sandbox").exists()
    assert "0 databases, 0 tables, 0 partitions" in gluecat("sandbox", "status", str(project)).stdout
    again = gluecat("sandbox", "reset", str(project), "--yes")
    assert again.exit_code == 0 and "nothing to reset" in again.stdout
    planned = gluecat("plan", str(project), "--detailed-exitcode")
    assert planned.exit_code == 2, "the sandbox is empty again: everything is to create"


def test_reset_is_refused_while_another_command_holds_the_sandbox(tmp_path: Path) -> None:
    project = _applied(tmp_path)
    before = _gluecat_dir(project)
    lock = SandboxLock(project)
    assert lock.claim() is None
    try:
        shown = gluecat("sandbox", "status", str(project))
        reset = gluecat("sandbox", "reset", str(project), "--yes")
    finally:
        lock.release()

    assert "Server: in use by another gluecat command; the counts below are as last saved" in shown.stdout
    assert reset.exit_code == 1
    assert reset.stderr.strip().splitlines() == [
        "error: the sandbox is in use by another gluecat command: stop it, then reset"
    ]
    assert _gluecat_dir(project) == before


def test_reset_is_refused_while_gluecat_sandbox_serves_it(tmp_path: Path) -> None:
    project = _applied(tmp_path)
    # The serving command keeps its form: `gluecat sandbox DIR --port N` (also `sandbox serve`).
    served = subprocess.Popen(
        [sys.executable, "-m", "gluecat", "sandbox", str(project), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert served.stderr is not None
        found = re.search(r"http://127\.0\.0\.1:\d+", served.stderr.readline())
        assert found, "gluecat sandbox DIR still serves"
        shown = gluecat("sandbox", "status", str(project), "--format", "json")
        reset = gluecat("sandbox", "reset", str(project), "--yes")
    finally:
        served.send_signal(signal.SIGTERM)
        served.communicate(timeout=120)

    document = json.loads(shown.stdout)
    assert document["running"] is True
    assert document["served"] == {"url": found.group(0), "pid": served.pid}
    assert document["databases"][0]["partitions"] == 13
    assert reset.exit_code == 1
    assert reset.stderr.strip().splitlines() == [
        f"error: the sandbox is served at {found.group(0)} by `gluecat sandbox` (process {served.pid}):"
        " stop it, then reset"
    ]
    assert (project / ".gluecat" / "sandbox" / "state.json").is_file()
