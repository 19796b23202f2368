"""Commands that overlap on one sandbox never lose each other's work (each runs as its own process)."""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from gluecat.sandbox.lock import SandboxLock

TIMEOUT = 300
ROUNDS = 4


def _start(*args: str, cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "gluecat", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _finish(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=TIMEOUT)
    return process.returncode, out, err


def _gluecat(*args: str, cwd: Path) -> tuple[int, str, str]:
    return _finish(_start(*args, cwd=cwd))


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "sales" / "tables").mkdir(parents=True)
    (project / "catalog.yaml").write_text("region: us-east-1\nsandbox: true\n")
    (project / "sales" / "database.yaml").write_text("location: s3://sandbox-lake/sales/\n")
    return project


def _add_table(project: Path, index: int) -> None:
    (project / "sales" / "tables" / f"t{index}.yaml").write_text(
        "storage: parquet\n"
        "columns: [{name: id, type: bigint}]\n"
        "partition_keys: [{name: dt, type: string}]\n"
        f"partitions:\n  - expand:\n      dt: {{from: 2024-01-01, to: 2024-01-{10 + index:02d}}}\n"
    )


def _saved_tables(project: Path) -> dict[str, int]:
    """Table name -> partition count, as the saved sandbox state holds them."""
    state = json.loads((project / ".gluecat" / "sandbox" / "state.json").read_text())
    return {
        table["name"]: len(table["partitions"])
        for catalog in state["glue"]
        for database in catalog["databases"]
        for table in database["tables"]
    }


def test_plan_and_apply_overlapping_lose_nothing(tmp_path: Path) -> None:
    project = _project(tmp_path)
    waited = 0
    for index in range(ROUNDS):
        _add_table(project, index)
        # Alternate which command starts first, so each order of taking the sandbox is exercised.
        first, second = ("plan", "apply") if index % 2 else ("apply", "plan")
        started = {first: _start(first, str(project), *_flags(first), cwd=tmp_path)}
        started[second] = _start(second, str(project), *_flags(second), cwd=tmp_path)
        results = {name: _finish(process) for name, process in started.items()}
        for name, (code, out, err) in results.items():
            assert code == 0, f"round {index} {name}: {out}{err}"
            assert "Traceback" not in err
            waited += "waiting for another gluecat command" in err
        assert _saved_tables(project) == {f"t{i}": 10 + i for i in range(index + 1)}, f"round {index}"

    assert waited, "the commands overlapped: one waited for the other at least once"
    code, out, err = _gluecat("plan", str(project), "--detailed-exitcode", cwd=tmp_path)
    assert code == 0, out + err
    assert "No changes" in out


def _flags(command: str) -> list[str]:
    return ["--auto-approve"] if command == "apply" else []


def test_read_only_commands_leave_the_saved_state_untouched(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _add_table(project, 0)
    assert _gluecat("apply", str(project), "--auto-approve", cwd=tmp_path)[0] == 0
    state = project / ".gluecat" / "sandbox" / "state.json"
    before = state.stat()

    code, out, err = _gluecat("plan", str(project), "--detailed-exitcode", cwd=tmp_path)
    assert code == 0, out + err
    after = state.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_a_command_waits_for_the_one_holding_the_sandbox(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _add_table(project, 0)
    lock = SandboxLock(project)
    assert lock.claim() is None
    try:
        apply = _start("apply", str(project), "--auto-approve", cwd=tmp_path)
        time.sleep(3)
        assert apply.poll() is None, "apply must wait while another process owns the sandbox"
    finally:
        lock.release()
    code, out, err = _finish(apply)
    assert code == 0, out + err
    assert err.count("waiting for another gluecat command") == 1
    assert _saved_tables(project) == {"t0": 10}


def _serve(project: Path, cwd: Path) -> tuple[subprocess.Popen[str], str]:
    sandbox = _start("sandbox", str(project), "--port", "0", cwd=cwd)
    assert sandbox.stderr is not None
    line = sandbox.stderr.readline()
    found = re.search(r"http://127\.0\.0\.1:\d+", line)
    assert found, line
    return sandbox, found.group(0)


def _answers(url: str) -> bool:
    try:
        urllib.request.urlopen(f"{url}/_gluecat/calls", data=b"{}", timeout=5).close()
    except (urllib.error.URLError, ConnectionError):
        return False
    return True


def test_commands_use_the_running_sandbox_and_sigterm_stops_and_saves_it(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _add_table(project, 0)
    assert _gluecat("apply", str(project), "--auto-approve", cwd=tmp_path)[0] == 0
    sandbox, url = _serve(project, tmp_path)
    try:
        _add_table(project, 1)
        code, out, err = _gluecat("apply", str(project), "--auto-approve", cwd=tmp_path)
        assert code == 0, out + err
        assert "waiting" not in err, "commands talk to the running sandbox instead of waiting for it"
        assert _saved_tables(project) == {"t0": 10, "t1": 11}, "what the apply wrote is saved at once"
        code, out, err = _gluecat("plan", str(project), "--detailed-exitcode", cwd=tmp_path)
        assert code == 0, out + err

        _add_table(project, 2)
        assert _gluecat("apply", str(project), "--auto-approve", cwd=tmp_path)[0] == 0
    finally:
        sandbox.send_signal(signal.SIGTERM)
        code, _, err = _finish(sandbox)
    assert code == 0, err
    assert not _answers(url), "SIGTERM stops the sandbox's server too"
    assert not (project / ".gluecat" / "sandbox.served").exists()
    assert _saved_tables(project) == {"t0": 10, "t1": 11, "t2": 12}, "the sandbox kept what applies did while it served"

    code, out, err = _gluecat("plan", str(project), "--detailed-exitcode", cwd=tmp_path)
    assert code == 0, out + err


def test_a_killed_sandbox_leaves_no_server_and_later_commands_proceed(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _add_table(project, 0)
    sandbox, url = _serve(project, tmp_path)
    assert _gluecat("apply", str(project), "--auto-approve", cwd=tmp_path)[0] == 0
    sandbox.kill()
    sandbox.wait(timeout=TIMEOUT)
    deadline = time.monotonic() + 30
    while _answers(url) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _answers(url), "the server notices its command is gone and exits"

    code, out, err = _gluecat("plan", str(project), "--detailed-exitcode", cwd=tmp_path)
    assert code == 0, out + err
    assert _saved_tables(project) == {"t0": 10}


def test_a_sandbox_whose_port_is_taken_says_so_in_one_line(tmp_path: Path) -> None:
    project = _project(tmp_path)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, _, err = _gluecat("sandbox", str(project), "--port", str(port), cwd=tmp_path)
    assert code == 1
    assert err.strip().splitlines() == [
        f"error: port {port} on 127.0.0.1 is in use by another program: stop it, or pass --port"
    ]
    assert not (project / ".gluecat" / "sandbox.served").exists()


def test_spark_conf_points_at_the_port_the_sandbox_serves_on(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _add_table(project, 0)
    sandbox, url = _serve(project, tmp_path)
    try:
        code, out, err = _gluecat("spark-conf", str(project), cwd=tmp_path)
    finally:
        sandbox.send_signal(signal.SIGTERM)
        _finish(sandbox)
    assert code == 0, err
    assert url != "http://127.0.0.1:5454"
    endpoints = {line.split()[-1] for line in out.splitlines() if line.startswith("spark.hadoop.fs.s3a.endpoint ")}
    assert endpoints == {url}, out

    code, out, _ = _gluecat("spark-conf", str(project), cwd=tmp_path)
    assert code == 0
    assert "http://127.0.0.1:5454" in out, "with no sandbox serving, the default port"
