"""Ctrl-C, SIGTERM or SIGKILL in the first second of a sandbox command prints no traceback: not while Python
loads gluecat, not while the command waits for its sandbox server to start (the server, left with
no one to answer, ends quietly), and the server it started never outlives it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.integration.helpers import copy_example

WAIT_SECONDS = 120  # a generous bound on a loaded machine, never a measured time


def _start(project: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "gluecat", "plan", project.name],
        cwd=project.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def _wait_for(condition: object, what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"never saw {what}"
        time.sleep(0.01)


def _loaded(pid: int, library: str) -> bool:
    try:
        return library in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


def _gone(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc to see where the command is")
@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_while_gluecat_loads_is_one_line_and_exit_130(tmp_path: Path, sent: signal.Signals) -> None:
    project = copy_example(tmp_path / "example")
    command = _start(project)
    _wait_for(lambda: _loaded(command.pid, "pydantic_core"), "gluecat loading its models")  # mid-import
    command.send_signal(sent)
    _, err = command.communicate(timeout=WAIT_SECONDS)
    assert command.returncode == 130
    assert "Traceback" not in err and err.strip() == "error: interrupted"


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc to see where the command is")
@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
def test_a_signal_while_the_sandbox_server_starts_prints_no_traceback(tmp_path: Path, sent: signal.Signals) -> None:
    project = copy_example(tmp_path / "example")
    command = _start(project)
    _wait_for(lambda: _children(command.pid), "the sandbox server started")
    (server,) = _children(command.pid)
    command.send_signal(sent)
    _, err = command.communicate(timeout=WAIT_SECONDS)  # the server shares stderr: read until it ends too
    _wait_for(lambda: _gone(server), "the sandbox server end")
    assert "Traceback" not in err and "BrokenPipe" not in err, err
    if sent == signal.SIGINT:
        assert command.returncode == 130 and err.strip() == "error: interrupted"
    assert not (project / ".gluecat" / "sandbox.served").exists()

    again = subprocess.run(
        [sys.executable, "-m", "gluecat", "plan", project.name, "--detailed-exitcode"],
        cwd=project.parent,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert again.returncode == 2, again.stderr  # the sandbox is there to use, and empty
