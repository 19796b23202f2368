"""Load a catalog project (SPEC §1) into models, collecting every error with its position."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from gluecat.errors import SourcePosition, SpecError, SpecErrors
from gluecat.model import TABLE_MODELS, CatalogConfig, Database, Table
from gluecat.model.suggest import closest, either
from gluecat.model.table import as_table
from gluecat.project.best_effort import best_effort as partial_model
from gluecat.project.environments import choose
from gluecat.project.gcpause import paused_gc
from gluecat.project.interpolate import Context, interpolate, uninterpolated
from gluecat.project.misplaced import beside_catalog, holds_yaml, misplaced_files, tables_at_root
from gluecat.project.root import CATALOG_FILE as CATALOG_FILE  # re-exported: callers name them from the loader
from gluecat.project.root import DATABASE_FILE as DATABASE_FILE
from gluecat.project.root import TABLES_DIR as TABLES_DIR
from gluecat.project.root import YAML_SUFFIXES as YAML_SUFFIXES
from gluecat.project.root import project_root
from gluecat.project.source import KeyHint, SourceFile, allowed_keys, read_yaml, validation_errors
from gluecat.project.targets import Targets
from gluecat.project.yamlparse import Loc


@dataclass(frozen=True)
class LoadedTable:
    model: Table
    source: SourceFile

    @property
    def name(self) -> str:
        assert self.model.name is not None  # the loader always sets it
        return self.model.name


@dataclass(frozen=True)
class LoadedDatabase:
    model: Database
    source: SourceFile
    tables: tuple[LoadedTable, ...]

    @property
    def name(self) -> str:
        return self.model.name


@dataclass(frozen=True)
class Project:
    root: Path
    config: CatalogConfig
    source: SourceFile
    databases: tuple[LoadedDatabase, ...]
    env: str | None = None
    # ${env.X} whose X was not set, when the load did not require secrets (validate)
    unset_secrets: tuple[SpecError, ...] = field(default=(), repr=False)

    def table_count(self) -> int:
        return sum(len(db.tables) for db in self.databases)


def load_project(
    root: Path, env: str | None = None, secrets_required: bool = True, only: Targets | None = None
) -> Project:
    """Read catalog.yaml, every database.yaml and table file; raise SpecErrors listing all.

    `env` names the environment (None: default_env, or none); references are resolved in it.
    `only`: read just the files of these targets (and their databases'), nothing else."""
    project, errors = load_partial(root, env, secrets_required, only)
    if errors or project is None:
        raise SpecErrors(errors)
    return project


def read_catalog_config(root: Path) -> tuple[CatalogConfig, SourceFile]:
    """catalog.yaml alone (import and the CI matrix read it before, or without, the rest)."""
    errors: list[SpecError] = []
    loaded = _load_catalog(root / CATALOG_FILE, errors)
    if loaded is None:
        raise SpecErrors(errors)
    config, source = loaded
    assert isinstance(config, CatalogConfig)
    return config, source


def load_partial(
    root: Path, env: str | None = None, secrets_required: bool = True, only: Targets | None = None
) -> tuple[Project | None, list[SpecError]]:
    """What loads, and every error: validate lints the files that loaded even when others did not."""
    root = project_root(root)
    with paused_gc():
        return _load_partial(root, env, secrets_required, only)


def _load_partial(
    root: Path, env: str | None, secrets_required: bool, only: Targets | None
) -> tuple[Project | None, list[SpecError]]:
    catalog_path = root / CATALOG_FILE
    if not catalog_path.is_file():
        position = SourcePosition.whole(catalog_path)
        return None, [SpecError(position, f"not a catalog project: {CATALOG_FILE} is missing in {root}")]
    errors: list[SpecError] = []
    loaded = _load_catalog(catalog_path, errors)
    chosen = None
    if loaded is not None:
        config, source = loaded
        assert isinstance(config, CatalogConfig)
        chosen = choose(config, source, env)
    context = Context(chosen.config.vars, dict(os.environ), secrets_required) if chosen else None
    reader = _Reader(errors, context, only)
    databases = []
    folders = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
    if only is None:  # a targeted plan reads only its targets' files
        errors.extend(beside_catalog(root, folders))
    for directory in folders:
        if only is not None and not only.touches(directory.name):
            continue
        if not (directory / DATABASE_FILE).exists() and not holds_yaml(directory):
            continue  # docs/, scripts/: no database is declared there
        if directory.name == TABLES_DIR and not (directory / DATABASE_FILE).exists():
            errors.extend(tables_at_root(directory, folders))
            continue
        database = reader.database(directory)
        if database is not None:
            databases.append(database)
    if loaded is None or chosen is None:
        return None, errors
    project = Project(root, chosen.config, loaded[1], tuple(databases), chosen.name, tuple(reader.unset))
    return project, errors


class _Reader:
    """Reads database and table files, resolving references when the catalog loaded."""

    def __init__(self, errors: list[SpecError], context: Context | None, only: Targets | None = None) -> None:
        self.errors = errors
        self.context = context
        self.only = only
        self.unset: list[SpecError] = []

    def read(self, path: Path) -> SourceFile:
        source = read_yaml(path)
        if self.context is None:
            return source
        result = interpolate(source, self.context)
        self.errors.extend(result.errors)
        self.unset.extend(result.unset)
        return result.source

    def database(self, directory: Path) -> LoadedDatabase | None:
        return _load_database(directory, self.errors, self.read, self.only)


def _load_database(
    directory: Path,
    errors: list[SpecError],
    read: Callable[[Path], SourceFile] = read_yaml,
    only: Targets | None = None,
) -> LoadedDatabase | None:
    path = directory / DATABASE_FILE
    errors.extend(misplaced_files(directory))
    if not path.is_file():
        position = SourcePosition.whole(path)
        errors.append(SpecError(position, f"every database directory needs a {DATABASE_FILE}"))
        return None
    loaded = _load_model(path, Database, {"name": directory.name}, errors, read)
    table_paths = _table_files(directory / TABLES_DIR)
    if only is not None and not only.database(directory.name):
        wanted = set(only.tables_in(directory.name))
        table_paths = [path for path in table_paths if path.stem in wanted]
    errors.extend(_same_table_twice(table_paths))
    tables = tuple(table for table_path in table_paths if (table := _load_table(table_path, errors, read)) is not None)
    if loaded is None:
        return None
    database, source = loaded
    assert isinstance(database, Database)
    return LoadedDatabase(database, source, tables)


def _table_files(directory: Path) -> list[Path]:
    """Every table file, also those that are not plain files (reading reports them, not skips them:
    a table silently skipped would be planned for deletion under `prune`). Dot-files are editors'."""
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if p.suffix in YAML_SUFFIXES and not p.name.startswith("."))


def _same_table_twice(paths: list[Path]) -> list[SpecError]:
    """`orders.yaml` next to `orders.yml` declares one table twice: name both, keep neither silently."""
    first: dict[str, Path] = {}
    errors = []
    for path in paths:
        if path.stem in first:
            message = f"table '{path.stem}' is also declared in {first[path.stem]}; keep one of the two files"
            errors.append(SpecError(SourcePosition(path, 1, 1), message))
        else:
            first[path.stem] = path
    return errors


def _load_table(
    path: Path, errors: list[SpecError], read: Callable[[Path], SourceFile] = read_yaml
) -> LoadedTable | None:
    try:
        source = read(path)
    except SpecError as exc:
        errors.append(exc)
        return None
    if not source.data:
        message = (
            "the table file is empty: give it at least `storage: parquet` (or another storage) and"
            " `columns`, or `format: iceberg|delta|view|registration`"
        )
        errors.append(source.error((), message))
        return None
    table_format = source.data.get("format", "hive")
    model = TABLE_MODELS.get(table_format) if isinstance(table_format, str) else None
    if model is None:
        close = closest(str(table_format), TABLE_MODELS)
        suggestion = f" — did you mean {either(close)}?" if close else ""
        message = f"unknown format '{table_format}'{suggestion} (use hive, iceberg, delta, view or registration)"
        errors.append(source.error(("format",), message))
        return None
    hint = _other_format_hint(table_format)
    table = as_table(_validate(source, model, {"name": path.stem}, errors, hint, best_effort=True))
    return LoadedTable(table, source) if table is not None else None


def _other_format_hint(table_format: str) -> KeyHint:
    """Say which format a misplaced key belongs to (`partition_spec` on a hive table)."""

    def hint(loc: Loc) -> str | None:
        key = str(loc[-1])
        for other, model in TABLE_MODELS.items():
            if other != table_format and key in allowed_keys(model, loc[:-1]):
                return f"'{key}' is for format: {other} tables; this one is format: {table_format}"
        return None

    return hint


def _load_catalog(path: Path, errors: list[SpecError]) -> tuple[BaseModel, SourceFile] | None:
    loaded = _load_model(path, CatalogConfig, {}, errors)
    if loaded is None:
        return None
    found = uninterpolated(loaded[1])
    errors.extend(found)
    return None if found else loaded


def _load_model(
    path: Path,
    model: type[BaseModel],
    defaults: dict[str, Any],
    errors: list[SpecError],
    read: Callable[[Path], SourceFile] = read_yaml,
) -> tuple[BaseModel, SourceFile] | None:
    try:
        source = read(path)
    except SpecError as exc:
        errors.append(exc)
        return None
    loaded = _validate(source, model, defaults, errors)
    return (loaded, source) if loaded is not None else None


def _validate(
    source: SourceFile,
    model: type[BaseModel],
    defaults: dict[str, Any],
    errors: list[SpecError],
    key_hint: KeyHint | None = None,
    best_effort: bool = False,
) -> BaseModel | None:
    """Validate with `defaults` for absent keys; `name` must equal its default when given. With
    `best_effort`, a file with errors still gives the model of the rest, for validate to lint (its
    errors are recorded, so no other command gets that far)."""
    expected_name = defaults.get("name")
    given_name = source.data.get("name")
    if expected_name is not None and given_name is not None and given_name != expected_name:
        what = "directory" if source.path.name == DATABASE_FILE else "file name"
        errors.append(source.error(("name",), f"name '{given_name}' must equal the {what} '{expected_name}'"))
        return None
    data = {**defaults, **source.data}
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errors.extend(validation_errors(source, exc, model, key_hint))
        if not best_effort:
            return None
        partial, later = partial_model(model, data, exc)
        known = {(e.position, e.message) for e in errors}
        errors.extend(
            e for e in validation_errors(source, later, model, key_hint) if (e.position, e.message) not in known
        )
        return partial


def declared_by(root: Path, path: Path) -> str:
    """The address (`sales`, `sales.orders`) a project file declares, or '' for catalog.yaml and any
    file outside a database directory: an error there concerns the whole catalog."""
    try:
        parts = path.resolve().relative_to(root.resolve()).parts
    except ValueError:
        return ""
    if len(parts) < 2:
        return ""
    if len(parts) == 3 and parts[1] == TABLES_DIR:
        return f"{parts[0]}.{Path(parts[2]).stem}"
    return parts[0]
