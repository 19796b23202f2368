"""The pages that run: the tutorial, the README's tour and every page with a ```console block, against the
sandbox, command by command, in a fresh folder holding a copy of the repository's `catalogs/` (the
example catalog is a sandbox catalog), as a reader types them.

A ```console block holds `$ COMMAND` lines, each followed by lines gluecat must print (in any
order, among others; `…` stands for what differs between runs); `# exits N` after a command is its
exit code (0 otherwise). A ```yaml block marked `<!-- write: PATH -->` is written to PATH before the
next command, one marked `<!-- file: PATH -->` must be what PATH holds then.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.docs_pages import DOCS, README, Block, blocks, pages

RUNNING_PAGES = [page for page in [*pages(), README] if any(b.lang == "console" for b in blocks(page))]
EXITS = re.compile(r"#\s*exits\s+(\d+)\s*$")


@dataclass
class Command:
    argv: list[str]
    exit_code: int
    shown: list[str] = field(default_factory=list)
    where: str = ""


def commands(block: Block) -> list[Command]:
    found: list[Command] = []
    for offset, line in enumerate(block.text.splitlines(), start=1):
        if line.startswith("$ "):
            text = line[2:]
            exits = EXITS.search(text)
            argv = shlex.split(text, comments=True)
            where = f"{block.where} (+{offset})"
            found.append(Command(argv, int(exits.group(1)) if exits else 0, where=where))
        elif line.strip():
            assert found, f"{block.where}: output before any command"
            found[-1].shown.append(line)
    return found


def _pattern(line: str) -> re.Pattern[str]:
    words = " ".join(line.split())
    return re.compile(".*".join(re.escape(part) for part in words.split("…")))


def _check_shown(command: Command, output: str) -> None:
    printed = [" ".join(line.split()) for line in output.splitlines()]
    for line in command.shown:
        pattern = _pattern(line)
        assert any(pattern.fullmatch(p) for p in printed), (
            f"{command.where}: `{shlex.join(command.argv)}` did not print the page's line\n  {line.strip()}\n"
            f"it printed:\n{output}"
        )


def _run(command: Command, cwd: Path) -> None:
    program, *args = command.argv
    if program == "rm":
        for name in args:
            (cwd / name).unlink()
        return
    assert program == "gluecat", f"{command.where}: the page runs only gluecat (and rm), not {program}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "GLUECAT_"))}
    result = subprocess.run(
        [sys.executable, "-m", "gluecat", *args],
        cwd=cwd,
        env={**env, "HOME": str(cwd), "COLUMNS": "200"},
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    output = result.stdout + result.stderr
    assert "Traceback" not in output, output
    assert result.returncode == command.exit_code, (
        f"{command.where}: `{shlex.join(command.argv)}` exited {result.returncode}, the page says"
        f" {command.exit_code}:\n{output}"
    )
    _check_shown(command, output)


@pytest.mark.parametrize("page", RUNNING_PAGES, ids=[str(page.relative_to(DOCS.parent)) for page in RUNNING_PAGES])
def test_the_page_runs_as_shown(page: Path, tmp_path: Path) -> None:
    shutil.copytree(
        DOCS.parent / "catalogs", tmp_path / "catalogs", ignore=shutil.ignore_patterns(".gluecat")
    )  # never the sandbox state a run of the README left
    ran = 0
    for block in blocks(page):
        if block.lang == "yaml" and "write" in block.marker:
            (tmp_path / block.marker["write"]).write_text(block.text, encoding="utf-8")
        elif block.lang == "yaml" and "file" in block.marker:
            held = (tmp_path / block.marker["file"]).read_text(encoding="utf-8")
            assert held == block.text, f"{block.where}: {block.marker['file']} holds otherwise:\n{held}"
        elif block.lang == "console":
            for command in commands(block):
                _run(command, tmp_path)
                ran += 1
    assert ran >= 2, f"{page.name}: only {ran} commands ran"


def test_the_tutorial_and_the_readme_run() -> None:
    assert {DOCS / "tutorial.md", README} <= set(RUNNING_PAGES)
    assert len(RUNNING_PAGES) >= 6


def test_a_line_the_command_does_not_print_fails_the_check() -> None:
    command = Command(["gluecat", "plan", "shop"], 0, ["Plan: 9 to create, …", "version 1  …"], "page:1")
    _check_shown(command, "Plan: 9 to create, 0 to update\nversion 1  2026-01-01T00:00:00\n")
    with pytest.raises(AssertionError, match="did not print"):
        _check_shown(Command(["gluecat"], 0, ["No changes."], "page:1"), "Plan: 1 to create\n")
