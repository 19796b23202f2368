"""Which directory a command means: the catalog project it was given, found as git finds a repository."""

from __future__ import annotations

import os
from pathlib import Path

from gluecat.errors import GluecatError
from gluecat.model.suggest import closest, either

CATALOG_FILE = "catalog.yaml"
DATABASE_FILE = "database.yaml"
TABLES_DIR = "tables"
YAML_SUFFIXES = (".yaml", ".yml")
MISSPELT = ("catalog.yml", "Catalog.yaml", "catalog.YAML", "catalog.json")


def project_root(given: Path) -> Path:
    """`given` when it holds catalog.yaml; its directory when it is that file; else the nearest
    directory above holding one (a command run inside a database folder). A path that does not
    exist, or a project without catalog.yaml anywhere above, is one line with what would be right."""
    if given.is_file() and given.name == CATALOG_FILE:
        return given.parent
    if not given.exists():
        raise GluecatError(f"no such directory: {given}{_did_you_mean(given)}")
    if not given.is_dir():
        raise GluecatError(f"{given} is a file: name the catalog project directory (the one holding {CATALOG_FILE})")
    if (given / CATALOG_FILE).is_file():
        return given
    for parent in given.resolve().parents:
        if (parent / CATALOG_FILE).is_file():
            return _from_here(parent)
    misspelt = next((name for name in MISSPELT if (given / name).is_file()), None)
    if misspelt:
        raise GluecatError(f"{given / misspelt}: gluecat reads {CATALOG_FILE}; rename it")
    return given  # the loader names what is missing, at catalog.yaml:1:1


def _from_here(found: Path) -> Path:
    """A project found above, as a path from where the command ran (`..`): plans name it as given."""
    try:
        return Path(os.path.relpath(found, Path.cwd()))
    except (OSError, ValueError):  # no current directory, or another drive: the path as found
        return found


def display_name(root: Path) -> str:
    """How a plan names its catalog: the path given (from where the command ran, never absolute unless
    given so), or the directory's name for `.` and for a project above (`..`)."""
    return root.resolve().name if all(part == ".." for part in root.parts) else str(root)  # ".", "..", "../.."


def _did_you_mean(given: Path) -> str:
    parent = given.parent if given.parent.exists() else None
    if parent is None:
        return ""
    siblings = [p.name for p in parent.iterdir() if p.is_dir()]
    close = closest(given.name, sorted(siblings))
    return f" — did you mean {either([str(parent / name) for name in close], quote='')}?" if close else ""
