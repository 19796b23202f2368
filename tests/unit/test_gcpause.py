"""The collector is paused while large acyclic data is built, and does not walk it again after."""

from __future__ import annotations

import gc
import subprocess
import sys
import weakref
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gluecat.cli import app
from gluecat.project import gcpause
from gluecat.project.gcpause import paused_gc

ROOT = Path(__file__).resolve().parents[2]


def test_no_collection_inside_and_what_was_built_is_out_of_the_collectors_sight_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(gcpause._loading, "command", True)  # run as a command, as gluecat's entry points mark it
    assert gc.isenabled()
    with paused_gc():
        assert not gc.isenabled()
        built = [{"Values": [str(n)], "StorageDescriptor": {"Location": f"s3://t/n={n}/"}} for n in range(1000)]
    assert gc.isenabled()
    tracked = {id(o) for generation in range(3) for o in gc.get_objects(generation)}
    assert not any(id(partition) in tracked for partition in built)
    assert gc.get_freeze_count() >= len(built)


def test_imported_as_a_library_nothing_is_frozen_and_cycles_made_inside_are_collected() -> None:
    class Node:
        def __init__(self) -> None:
            self.me = self

    frozen = gc.get_freeze_count()
    with paused_gc():
        made = [weakref.ref(Node()) for _ in range(1000)]  # garbage cycles, as an exception's traceback makes
    assert gc.isenabled() and gc.get_freeze_count() == frozen
    gc.collect()
    assert all(ref() is None for ref in made)


def test_a_disabled_collector_stays_disabled() -> None:
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


PROBE = """
import gc, sys
sys.argv[0], sys.orig_argv = {argv0!r}, {orig!r}
import gluecat
paused = not gc.isenabled()
from gluecat.project import gcpause
before = gc.get_freeze_count()
gcpause.started()
print(paused, gc.isenabled(), gc.get_freeze_count() > before)
"""


@pytest.mark.parametrize(
    ("argv0", "orig", "as_command"),
    [
        ("-m", ["python", "-m", "gluecat", "plan", "."], True),
        ("-m", ["python", "-X", "importtime", "-mgluecat", "plan"], True),
        ("/usr/local/bin/gluecat", ["python", "/usr/local/bin/gluecat", "plan"], True),
        ("-m", ["python", "-m", "gluecat.sandbox.server", "--port", "0"], False),  # a server runs for hours
        ("-m", ["python", "-m", "pytest", "-m", "gluecat"], False),
        ("script.py", ["python", "script.py", "-m", "gluecat"], False),
    ],
)
def test_the_collector_waits_while_the_command_loads_and_runs_once_it_starts(
    argv0: str, orig: list[str], as_command: bool
) -> None:
    """Run as a command, gluecat loads with the collector paused; the command's start freezes what
    loading built and runs the collector again. Imported as a library, nothing changes."""
    probe = PROBE.format(argv0=argv0, orig=orig)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    assert done.stdout.split() == ([str(as_command), "True", str(as_command)])


def test_every_command_starts_the_collector_again(tmp_path: Path) -> None:
    gcpause.pause_while_loading()
    try:
        result = CliRunner().invoke(app, ["validate", str(tmp_path / "missing")])
        assert result.exit_code == 1
        assert gc.isenabled()
    finally:
        gc.enable()
