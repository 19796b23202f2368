"""The command line stays thin: argument parsing, prompts, rendering and exit codes. The workflows
live in the packages that own their subject, and gluecat/cli/ reaches the low layers they are made
of (backends, apply, adopt, history, the kinds, the conversions, file writing) only through the
few modules listed here, each with why. The test fails when a cli module imports any other module
of those packages, and when a listed module is no longer imported (shrink the list)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLI = ROOT / "gluecat" / "cli"

# What a workflow is made of: not for the command line to import.
LOW = (
    "gluecat.access",
    "gluecat.adopt",
    "gluecat.apply",
    "gluecat.backends",
    "gluecat.convert",
    "gluecat.history",
    "gluecat.kinds",
    "gluecat.lineage",
    "gluecat.secrets.files",
)

# The doors: each workflow's steps, and what the command line needs between them.
DOORS = {
    "gluecat.adopt.importing": "import's workflow, and the result whose files the command lists",
    "gluecat.apply.saved": "a saved plan read and held to its project, then to its catalog",
    "gluecat.apply.run": "apply runs under the command's progress bar and its signals' stop; a plan is"
    " refused for what it destroys before the prompt and for what changed since after it",
    "gluecat.apply.access": "a plan is refused for the access it revokes, before the prompt",
    "gluecat.backends.connect": "a command holds one connection across its prompt and progress bar,"
    " and closes it (the sandbox saves) before its report",
    "gluecat.backends.denied": "a missing permission's one wording, in apply's report",
    "gluecat.backends.aws": "the one line an unexpected error of the AWS libraries is said in",
    "gluecat.backends.policy": "iam-policy's policy for a project",
    "gluecat.history.steps": "history's, rollback's and prune-versions' steps",
}


def imported_modules(source: str) -> set[str]:
    """Every module the source imports, at the top or inside a function (`from gluecat.history import
    steps` imports gluecat.history.steps)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            module = node.module
            found |= {f"{module}.{a.name}" if _is_module(module, a.name) else module for a in node.names}
    return found


def _is_module(package: str, name: str) -> bool:
    folder = ROOT.joinpath(*package.split("."))
    return (folder / f"{name}.py").is_file() or (folder / name / "__init__.py").is_file()


def _low(module: str) -> bool:
    return any(module == low or module.startswith(f"{low}.") for low in LOW)


def _reached() -> dict[str, set[str]]:
    """Each low module a cli module imports, and which cli modules import it."""
    reached: dict[str, set[str]] = {}
    for path in sorted(CLI.glob("*.py")):
        for module in imported_modules(path.read_text(encoding="utf-8")):
            if _low(module):
                reached.setdefault(module, set()).add(path.name)
    return reached


def test_the_command_line_reaches_the_low_layers_through_its_doors_alone() -> None:
    reached = _reached()
    undeclared = {module: sorted(users) for module, users in reached.items() if module not in DOORS}
    assert undeclared == {}, "move the workflow below gluecat/cli/, and call it from there"
    unused = sorted(set(DOORS) - set(reached))
    assert unused == [], "no cli module imports these any more: take them off DOORS"


def test_the_scan_sees_each_way_in() -> None:
    source = (
        "from gluecat.history import steps, listing\n"
        "import gluecat.adopt.table\n"
        "def f():\n"
        "    from gluecat.backends.glue import Glue\n"
        "    from gluecat.errors import GluecatError\n"
    )
    assert {m for m in imported_modules(source) if _low(m)} == {
        "gluecat.history.steps",
        "gluecat.history.listing",
        "gluecat.adopt.table",
        "gluecat.backends.glue",
    }
    assert not _low("gluecat.plan.saved") and _low("gluecat.secrets.files") and not _low("gluecat.secrets.redact")
