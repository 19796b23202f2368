"""`gluecat import`: live Glue -> YAML, so that the very next plan shows no changes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from gluecat.adopt.refs import References
from gluecat.adopt.table import MODEL_ERRORS, adopt_table, database_exceptions, reason_of
from gluecat.adopt.yamlout import dump, model_data
from gluecat.backends.base import Shape
from gluecat.backends.connect import Connection
from gluecat.convert.database import database_from_glue
from gluecat.convert.parameters import managed
from gluecat.errors import GluecatError
from gluecat.model import Database, LintPolicy
from gluecat.project.targets import addresses, unmatched

HEADER = "# Written by gluecat import. Edit freely: gluecat plan shows what your edits change.\n"
READ_WORKERS = 8
NAME_MAX = 255  # bytes in one file or directory name, on the file systems a repository lives on


@dataclass
class ImportResult:
    written: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    refused: list[Path] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # skipped databases and tables, each with why
    notes: list[str] = field(default_factory=list)  # imported, with something a reviewer should know
    tables: int = 0


@dataclass(frozen=True)
class Selection:
    databases: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()  # db.table
    partitions: bool = False

    def database(self, name: str) -> bool:
        wanted = set(self.databases) | {t.split(".", 1)[0] for t in self.tables}
        return not wanted or name in wanted

    def table(self, database: str, name: str) -> bool:
        if not self.tables or database in self.databases:
            return True
        return f"{database}.{name}" in self.tables

    def check_databases(self, live: Iterable[str]) -> None:
        """Every --database, and the database of every --table, is in Glue."""
        names = sorted(live)
        for name in self.databases:
            if name not in names:
                raise unmatched("--database", name, names, "in Glue")
        for text in self.tables:
            database, dot, table = text.partition(".")
            if not dot or not table:
                raise GluecatError(f"--table {text!r}: write DATABASE.TABLE")
            if database not in names:  # suggest the same table in the database meant
                raise unmatched("--table", text, [f"{name}.{table}" for name in names], "in Glue")

    def check_tables(self, live: Mapping[str, Iterable[str]]) -> None:
        for text in self.tables:
            database, _, table = text.partition(".")
            if table not in live.get(database, ()):
                raise unmatched("--table", text, addresses(live), "in Glue")


def import_catalog(
    connection: Connection,
    root: Path,
    selection: Selection,
    ignore: tuple[str, ...],
    force: bool,
    references: References | None = None,
) -> ImportResult:
    """Every selected database and table that can be a file is written; the others are named with why.

    `references` puts `${var.…}`/`${env.…}` where an environment's values would be (none: no vars)."""
    refs = references or References({})
    result = ImportResult()
    files: dict[Path, str] = {}
    live_databases = connection.catalog.databases()
    selection.check_databases(db["Name"] for db in live_databases)
    databases = [db for db in live_databases if selection.database(db["Name"])]
    with ThreadPoolExecutor(max_workers=READ_WORKERS) as pool:
        listings = list(pool.map(lambda db: connection.catalog.tables(db["Name"]), databases))
    selection.check_tables(
        {db["Name"]: [t["Name"] for t in tables] for db, tables in zip(databases, listings, strict=True)}
    )
    for live_db, tables in zip(databases, listings, strict=True):
        try:
            database = _database(live_db, ignore)
        except MODEL_ERRORS as exc:
            result.failed.append(f"{live_db['Name']}: {reason_of(exc)} (its {len(tables)} tables were not imported)")
            continue
        if database.lint:
            result.notes.append(f"{database.name}: adopted with lint exceptions ({', '.join(database.lint.allow)})")
        directory = root / database.name
        files[directory / "database.yaml"] = dump(refs.apply(model_data(database), database.name), HEADER)
        for live_table in tables:
            if selection.table(database.name, live_table["Name"]):
                options = (ignore, selection.partitions)
                written = _import_table(connection, database, live_table, options, refs, result)
                files.update({directory / "tables" / f"{live_table['Name']}.yaml": written} if written else {})
    for path, text in files.items():
        try:
            _write(path, text, force, result)
        except OSError as exc:  # a file system that refuses the name or the write: the other files still are
            result.failed.append(f"{path}: cannot write it: {exc.strerror or exc}")
    return result


def _database(live: Shape, ignore: tuple[str, ...]) -> Database:
    _check_file_name(live["Name"])
    database = database_from_glue(live)
    database = database.model_copy(update={"parameters": managed(database.parameters, ignore)})
    allow = database_exceptions(database)
    return database.model_copy(update={"lint": LintPolicy(allow=allow)}) if allow else database


def _import_table(
    connection: Connection,
    database: Database,
    live: Shape,
    options: tuple[tuple[str, ...], bool],
    refs: References,
    result: ImportResult,
) -> str | None:
    """The table file's text, or None when the table is skipped (and named in `result`)."""
    address = f"{database.name}.{live['Name']}"
    try:
        _check_file_name(live["Name"], ".yaml")
        adopted = adopt_table(connection, database, live, *options)
    except MODEL_ERRORS as exc:
        result.failed.append(f"{address}: {reason_of(exc)}")
        return None
    result.tables += 1
    result.notes.extend(f"{address}: {note}" for note in adopted.notes)
    return dump(refs.apply(adopted.data, address), HEADER)


def _check_file_name(name: str, suffix: str = "") -> None:
    """The name becomes a directory or file stem: it must be one, and one the loader reads."""
    if "/" in name or "\\" in name or name.startswith(".") or "\0" in name:
        raise GluecatError(f"the name {name!r} cannot be a file or directory name (a '/', '\\' or leading '.')")
    size = len(f"{name}{suffix}".encode())
    if size > NAME_MAX:
        raise GluecatError(
            f"the name is too long for a file: '<name>{suffix}' is {size} bytes and file systems allow {NAME_MAX}"
            f" (gluecat can manage a name of {NAME_MAX - len(suffix)} bytes or fewer)"
        )


def _write(path: Path, text: str, force: bool, result: ImportResult) -> None:
    if path.exists():
        if path.read_text(encoding="utf-8") == text:
            result.unchanged.append(path)
            return
        if not force:
            result.refused.append(path)
            return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    result.written.append(path)
