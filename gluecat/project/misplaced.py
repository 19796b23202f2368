"""YAML files in a catalog project that no rule reads, each named with where it belongs: a table
skipped without a word would be missing from every plan, and deleted from Glue under `prune`."""

from __future__ import annotations

import os
from pathlib import Path

from gluecat.errors import SourcePosition, SpecError
from gluecat.project.root import CATALOG_FILE, DATABASE_FILE, TABLES_DIR, YAML_SUFFIXES
from gluecat.project.source import read_yaml


def holds_yaml(directory: Path) -> bool:
    """Whether a YAML file is anywhere under `directory` (dot-directories aside): a folder without
    one (docs/, scripts/) declares nothing; one with one and no database.yaml is an error."""
    for _folder, subfolders, names in os.walk(directory):
        subfolders[:] = [d for d in subfolders if not d.startswith(".")]
        if any(name.lower().endswith(YAML_SUFFIXES) and not name.startswith(".") for name in names):
            return True
    return False


def misplaced_files(directory: Path) -> list[SpecError]:
    """YAML files in a database directory that no rule reads: a table skipped without a word would
    be missing from every plan, and deleted from Glue under `prune`."""
    errors = []
    tables = directory / TABLES_DIR
    for folder, subfolders, names in os.walk(directory):  # names only: cheap for 10,000 table files
        subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
        here = Path(folder)
        for name in sorted(names):
            lowered = name.lower()
            if name.startswith(".") or not lowered.endswith(YAML_SUFFIXES):
                continue
            if (here == tables and name.endswith(YAML_SUFFIXES)) or (here == directory and name == DATABASE_FILE):
                continue  # read
            path = here / name
            errors.append(SpecError(SourcePosition(path, 1, 1), f"this file is not read: {_belongs(path, directory)}"))
    return errors


# Keys only a table file has (a database.yaml has description, location and parameters too).
_TABLE_KEYS = frozenset({"storage", "columns", "format", "partition_keys", "sql", "dialect", "table_input"})


def beside_catalog(root: Path, folders: list[Path]) -> list[SpecError]:
    """A table file or database.yaml beside catalog.yaml is read by nothing: said, not skipped.
    Other YAML there (mkdocs.yml, a CI tool's) is none of gluecat's business."""
    errors = []
    for path in sorted(p for p in root.iterdir() if p.is_file() and p.name.lower().endswith(YAML_SUFFIXES)):
        if path.name == CATALOG_FILE or path.name.startswith("."):
            continue
        if path.stem.lower() == "database":
            message = f"this file is not read: a database's file is {Path('DATABASE') / DATABASE_FILE}, in its folder"
        elif _TABLE_KEYS & set(_top_keys(path)):
            message = f"this file is not read: move it to {_table_home(folders, path.stem)} (one folder per database)"
        else:
            continue
        errors.append(SpecError(SourcePosition.whole(path), message))
    return errors


def tables_at_root(directory: Path, folders: list[Path]) -> list[SpecError]:
    """`tables/` beside catalog.yaml: its files belong in a database's tables/, not in tables/tables/."""
    errors = []
    for path in sorted(p for p in directory.rglob("*") if p.is_file() and p.name.lower().endswith(YAML_SUFFIXES)):
        home = _table_home(folders, path.stem)
        message = f"this file is not read: move it to {home} (tables/ is in a database's folder)"
        errors.append(SpecError(SourcePosition.whole(path), message))
    return errors


def _table_home(folders: list[Path], table: str) -> Path:
    """Where a table file goes: in the one database's tables/, or in DATABASE/tables/ when there are several."""
    databases = [folder for folder in folders if (folder / DATABASE_FILE).is_file()]
    home = databases[0] if len(databases) == 1 else (folders[0].parent if folders else Path(".")) / "DATABASE"
    return home / TABLES_DIR / f"{table}.yaml"


def _top_keys(path: Path) -> list[str]:
    """The top-level keys of a YAML file, or none when it is not one gluecat can read."""
    try:
        data = read_yaml(path).data
    except (SpecError, OSError):
        return []
    return [str(key) for key in data] if isinstance(data, dict) else []


def _belongs(path: Path, directory: Path) -> str:
    tables = directory / TABLES_DIR
    if path.parent == directory and path.stem.lower() == "database":
        read = directory / DATABASE_FILE
        return f"only {read} is read: remove this one" if read.is_file() else f"rename it to {read}"
    if path.parent == tables:
        return f"rename it to {path.with_suffix('.yaml').name} (lowercase suffix)"
    return f"move it to {tables / (path.stem + '.yaml')} (table files live in {TABLES_DIR}/ only)"
