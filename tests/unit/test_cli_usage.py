"""Usage errors exit 1 (2 is reserved for `plan --detailed-exitcode`), in one line; -h and --version."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gluecat import __version__
from gluecat.cli import app

COMMANDS = ["validate", "plan", "apply", "spark-conf", "sandbox", "import"]
ROOT = Path(__file__).parents[2]


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["plan", "--bogus"], "--bogus"),
        (["plan", "--format", "xml"], "xml"),
        (["plan", "--detailed-exitcod"], "--detailed-exitcode"),
        (["frobnicate"], "frobnicate"),
        (["plan", "a", "b", "c"], "b c"),
        (["import", "--database"], "--database"),
        (["sandbox", "--port", "many"], "--port"),
    ],
)
def test_usage_errors_exit_1_in_one_line(args: list[str], named: str) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert named in lines[0]
    assert "Traceback" not in result.output


def test_no_command_shows_help_and_exits_1() -> None:
    result = CliRunner().invoke(app, [])
    assert result.exit_code == 1
    assert "Usage" in result.output


@pytest.mark.parametrize("command", [[], *([c] for c in COMMANDS)])
@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_help_flags_on_every_command(command: list[str], flag: str) -> None:
    result = CliRunner().invoke(app, [*command, flag])
    assert result.exit_code == 0, result.output
    assert "Usage" in result.stdout


@pytest.mark.parametrize("command", [[], *([c] for c in COMMANDS)])
def test_version_on_every_command(command: list[str]) -> None:
    result = CliRunner().invoke(app, [*command, "--version"])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"gluecat {__version__}\n"


def test_the_real_process_exits_1_on_a_usage_error() -> None:
    """Through `python -m gluecat`, as CI runs it, not only through the test runner."""
    completed = subprocess.run(
        [sys.executable, "-m", "gluecat", "plan", "--bogus"], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert completed.returncode == 1
    assert completed.stderr.count("\n") == 1
    assert "No such option: --bogus" in completed.stderr


def test_debug_works_after_the_command_name_too(tmp_path: Path) -> None:
    from gluecat.cli.usage import DEBUG

    for args in (["--debug", "validate", str(tmp_path)], ["validate", str(tmp_path), "--debug"]):
        result = CliRunner().invoke(app, args)
        assert "No such option" not in result.output, result.output
        assert DEBUG["on"] is True
    CliRunner().invoke(app, ["validate", str(tmp_path)])
    assert DEBUG["on"] is False  # one run's flag never reaches the next
