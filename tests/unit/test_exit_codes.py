"""Exit codes live in one table with names (`gluecat.errors.ExitCode`): no command returns or exits with a
bare number, and the documentation's table is the module's."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from typer.testing import CliRunner

from gluecat.cli import app
from gluecat.errors import ExitCode, exit_code_table

ROOT = Path(__file__).parents[2]
EXITS = {"Exit", "exit", "_exit"}  # typer.Exit, sys.exit, os._exit


def bare_codes(source: str, returns: bool = True) -> list[int]:
    """Lines that exit with a literal number, or (`returns`) return one."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if returns and isinstance(node, ast.Return) and _numbers(node.value):
            lines.append(node.lineno)
        if isinstance(node, ast.Call) and _called(node.func) in EXITS and any(_numbers(a) for a in node.args):
            lines.append(node.lineno)
    return lines


def _numbers(node: ast.expr | None) -> bool:
    if isinstance(node, ast.IfExp):
        return _numbers(node.body) or _numbers(node.orelse)
    return isinstance(node, ast.Constant) and type(node.value) is int


def _called(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def test_no_command_exits_with_a_bare_number() -> None:
    package = ROOT / "gluecat"
    commands = {*(package / "cli").glob("*.py"), package / "__init__.py"}
    found = []
    for path in sorted(package.rglob("*.py")):
        # a command's body returns its exit code; anywhere else (the sandbox's server process) only exits count
        lines = bare_codes(path.read_text(encoding="utf-8"), returns=path in commands)
        found += [f"{path.relative_to(ROOT)}:{line}" for line in lines]
    assert not found, "use gluecat.errors.ExitCode: " + ", ".join(found)


def test_the_scan_sees_each_spelling() -> None:
    source = (
        "def f():\n    return 1\ndef g():\n    return 1 if x else 0\nraise typer.Exit(130)\nos._exit(2)\nsys.exit(1)\n"
    )
    assert sorted(bare_codes(source)) == [2, 4, 5, 6, 7]
    assert bare_codes("def f():\n    return ExitCode.OK\nraise typer.Exit(ExitCode.ERROR)\n") == []


def test_the_documented_table_is_the_module() -> None:
    page = (ROOT / "docs" / "reference" / "exit-codes.md").read_text(encoding="utf-8")
    match = re.search(r"<!-- exit codes:[^>]*-->\n(.*?)\n<!-- end of exit codes -->", page, re.S)
    assert match, "docs/reference/exit-codes.md has no exit code table"
    assert match.group(1) == exit_code_table(), "the documented exit codes differ: run python docs/gen_reference.py"


def test_the_codes_are_what_commands_exit_with(tmp_path: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(app, ["--version"]).exit_code == ExitCode.OK
    assert runner.invoke(app, ["validate", str(tmp_path / "nowhere")]).exit_code == ExitCode.ERROR
    assert runner.invoke(app, ["plan", "--no-such-option"]).exit_code == ExitCode.ERROR
    assert [int(code) for code in ExitCode] == [0, 1, 2, 130]  # what the documentation and CI scripts promise
