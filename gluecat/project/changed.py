"""`--changed-since REF`: the objects whose files differ from a git ref, and nothing else.

A table file added, changed or renamed is planned as a full plan would plan it; a table file
removed (or renamed away) is a table the YAML no longer declares, planned under the usual prune
rules; a `database.yaml` change plans that database whole; a `catalog.yaml` change governs every
object, so the plan falls back to a full one and says so.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from gluecat.errors import GluecatError
from gluecat.project.load import DATABASE_FILE, TABLES_DIR, YAML_SUFFIXES
from gluecat.project.root import CATALOG_FILE
from gluecat.project.targets import Targets
from gluecat.text.plain import counted


@dataclass
class _Touched:
    catalog: bool = False
    databases: set[str] = field(default_factory=set)
    tables: set[tuple[str, str]] = field(default_factory=set)
    removed: set[tuple[str, str]] = field(default_factory=set)


def changed_since(root: Path, ref: str) -> Targets:
    """The targets of a plan of what changed in `root` since `ref` (working tree included)."""
    top = _git(
        root, "rev-parse", "--show-toplevel", failure=f"--changed-since needs a git repository: {root} is in none"
    )
    unknown = f"--changed-since {ref!r}: git knows no such commit here (fetch it first: `git fetch origin {ref}`)"
    _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", failure=unknown)
    inside = Path(os.path.relpath(root.resolve(), Path(top.strip()).resolve()))
    diff = _git(root, "diff", "--no-renames", "--name-status", "-z", ref, "--", ".", failure=f"git diff {ref} failed")
    fields = diff.split("\0")
    touched = _Touched()
    for status, path in zip(fields[0::2], fields[1::2], strict=False):
        _sort(touched, status, _inside(Path(path), inside))
    untracked = _git(root, "ls-files", "--others", "--exclude-standard", "-z", "--", ".", failure="git ls-files failed")
    for path in filter(None, untracked.split("\0")):
        _sort(touched, "A", Path(path))  # ls-files names paths from `root` already
    return _targets(root, ref, touched)


def _inside(path: Path, project: Path) -> Path | None:
    """`path` (from the repository's top) relative to the project, None when outside it."""
    try:
        return path.relative_to(project) if str(project) != "." else path
    except ValueError:
        return None


def _sort(touched: _Touched, status: str, path: Path | None) -> None:
    if path is None or path.suffix.lower() not in YAML_SUFFIXES or any(p.startswith(".") for p in path.parts):
        return
    parts = path.parts
    if parts == (CATALOG_FILE,):
        touched.catalog = True
    elif len(parts) == 3 and parts[1] == TABLES_DIR and path.suffix in YAML_SUFFIXES:
        (touched.removed if status.startswith("D") else touched.tables).add((parts[0], path.stem))
    elif len(parts) >= 2:  # database.yaml, or a file the loader will name as misplaced: the database whole
        touched.databases.add(parts[0])
        if parts[1:] == (DATABASE_FILE,) and status.startswith("D"):
            touched.catalog = True  # a database left the project: only a full plan tells what became of it


def _targets(root: Path, ref: str, touched: _Touched) -> Targets:
    if touched.catalog:
        return Targets(summary=f"{CATALOG_FILE} or a database changed since {ref}: planned in full")
    entries: list[tuple[str, str | None]] = [(database, None) for database in sorted(touched.databases)]
    tables = sorted(t for t in touched.tables if t[0] not in touched.databases)
    removed = tuple(sorted(t for t in touched.removed - touched.tables if t[0] not in touched.databases))
    read = sum(_table_files(root / database) for database in touched.databases) + len(tables)
    total = sum(_table_files(directory) for directory in root.iterdir() if directory.is_dir())
    summary = (
        f"Changed since {ref}: {counted(read + len(removed), 'table')} planned; {max(total - read, 0):,} not read"
        " (run a full plan for drift)"
    )
    entries += tables
    return Targets(tuple(entries), removed=removed, scoped=True, summary=summary)


def _table_files(directory: Path) -> int:
    """How many table files a database directory holds (names only: nothing is parsed)."""
    try:
        with os.scandir(directory / TABLES_DIR) as found:
            return sum(1 for entry in found if entry.name.endswith(YAML_SUFFIXES) and not entry.name.startswith("."))
    except OSError:
        return 0


def _git(root: Path, *args: str, failure: str) -> str:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=False)
    except OSError as exc:
        raise GluecatError(f"--changed-since needs git: {exc.strerror or exc}") from None
    if done.returncode != 0:
        detail = done.stderr.strip().splitlines()
        raise GluecatError(failure + (f" ({detail[-1]})" if detail and "--verify" not in args else ""))
    return done.stdout
