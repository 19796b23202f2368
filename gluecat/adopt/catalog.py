"""`gluecat import`: live Glue -> YAML, so that the very next plan shows no changes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gluecat.adopt.access import adopt_access
from gluecat.adopt.compare import Reading, database_difference, read_database, table_difference
from gluecat.adopt.optimizers import is_iceberg, live_optimizers, with_optimizers
from gluecat.adopt.refs import References
from gluecat.adopt.table import MODEL_ERRORS, adopt_table, database_exceptions, reason_of
from gluecat.adopt.yamlout import check_writable, dump
from gluecat.backends.base import Shape
from gluecat.backends.connect import Connection
from gluecat.convert.database import database_from_glue
from gluecat.convert.parameters import managed
from gluecat.errors import GluecatError, Interrupted
from gluecat.model import Database, LintPolicy
from gluecat.model.base import model_data
from gluecat.project.gcpause import paused_gc
from gluecat.project.targets import addresses, unmatched
from gluecat.secrets.files import OutsideRoot, Writer
from gluecat.text.plain import counted

HEADER = "# Written by gluecat import. Edit freely: gluecat plan shows what your edits change.\n"
READ_WORKERS = 8
NAME_MAX = 255  # bytes in one file or directory name, on the file systems a repository lives on


@dataclass(frozen=True)
class Differing:
    """A file whose meaning differs from what import would write, and the first field that does."""

    path: Path
    why: str


@dataclass
class Files:
    """What became of one kind of file (table files, database files): each is in exactly one list."""

    written: list[Path] = field(default_factory=list)  # new, or overwritten with --force
    unchanged: list[Path] = field(default_factory=list)  # already meant what import would write
    kept: list[Differing] = field(default_factory=list)  # differs, and --force was not given
    unwritable: list[Path] = field(default_factory=list)  # the file system refused it (named in `failed`)
    overwritten: list[Differing] = field(default_factory=list)  # also in `written`: what --force replaced


@dataclass
class ImportResult:
    table_files: Files = field(default_factory=Files)
    database_files: Files = field(default_factory=Files)
    failed: list[str] = field(default_factory=list)  # skipped databases and tables, unwritable files, each with why
    notes: list[str] = field(default_factory=list)  # imported, with something a reviewer should know
    tables: int = 0  # tables imported: one table file each
    skipped_databases: int = 0
    skipped_tables: int = 0  # not counting those of a skipped database
    lake_formation: dict[str, Any] = field(default_factory=dict)  # catalog.yaml's lf_tags and tag_grants
    lake_formation_read: bool = False  # whether there was a Lake Formation to read them from

    @property
    def kept(self) -> list[Differing]:
        return sorted([*self.database_files.kept, *self.table_files.kept], key=lambda kept: kept.path)

    @property
    def overwritten(self) -> list[Differing]:
        return sorted([*self.database_files.overwritten, *self.table_files.overwritten], key=lambda over: over.path)


@dataclass(frozen=True)
class _Planned:
    """A file import would write: its text, and the data its meaning is compared by."""

    text: str
    data: dict[str, Any]  # as Glue holds it: what the text means once its references are resolved
    database: Database | None  # a table file's database (default locations); None: a database.yaml


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


@paused_gc()  # pages of partitions and tables: millions of short-lived dicts, no cycles among them
def import_catalog(
    connection: Connection,
    root: Path,
    selection: Selection,
    ignore: tuple[str, ...],
    force: bool,
    references: References | None = None,
    warehouse: str | None = None,
    dry_run: bool = False,
) -> ImportResult:
    """Every selected database and table that can be a file is written; the others are named with why.

    `references` puts `${var.…}`/`${env.…}` where an environment's values would be (none: no vars).
    A file already there is compared by meaning, read as a plan reads it (`warehouse` places Iceberg
    tables left to their default location): one that means the same is left as it is. `dry_run`
    writes nothing and reports the same outcome: `written` then holds the files import would write."""
    refs = references or References({})
    reading = Reading(refs.variables, warehouse, ignore, selection.partitions)
    result = ImportResult()
    files: dict[Path, _Planned] = {}
    live_databases = connection.catalog.databases()
    selection.check_databases(db["Name"] for db in live_databases)
    databases = [db for db in live_databases if selection.database(db["Name"])]
    with ThreadPoolExecutor(max_workers=READ_WORKERS) as pool:
        listings = list(pool.map(lambda db: connection.catalog.tables(db["Name"]), databases))
    selection.check_tables(
        {db["Name"]: [t["Name"] for t in tables] for db, tables in zip(databases, listings, strict=True)}
    )
    iceberg = [(db["Name"], t["Name"]) for db, ts in zip(databases, listings, strict=True) for t in ts if is_iceberg(t)]
    wanted_optimizers = [k for k in iceberg if selection.table(*k)]
    optimizers = live_optimizers(connection, wanted_optimizers, result.failed.append, result.notes.append)
    chosen = [
        (db["Name"], t)
        for db, ts in zip(databases, listings, strict=True)
        for t in ts
        if selection.table(db["Name"], t["Name"])
    ]
    access = adopt_access(connection.lakeformation, chosen, [db["Name"] for db in databases], result.notes.append)
    result.lake_formation, result.lake_formation_read = access.catalog_keys(), access.read
    for live_db, tables in zip(databases, listings, strict=True):
        try:
            database = _database(live_db, ignore)
        except MODEL_ERRORS as exc:
            were = "was" if len(tables) == 1 else "were"
            result.failed.append(
                f"{live_db['Name']}: {reason_of(exc)} (its {counted(len(tables), 'table')} {were} not imported)"
            )
            result.skipped_databases += 1
            continue
        if database.lint:
            result.notes.append(f"{database.name}: adopted with lint exceptions ({', '.join(database.lint.allow)})")
        directory = root / database.name
        data = model_data(database)
        access.onto_database(database.name, data)
        files[directory / "database.yaml"] = _Planned(dump(refs.apply(data, database.name), HEADER), data, None)
        placed = _placing(directory / "database.yaml", database, reading)
        for live_table in tables:
            if selection.table(database.name, live_table["Name"]):
                options = (ignore, selection.partitions)
                table = _import_table(connection, database, live_table, options, result)
                if table is not None:
                    with_optimizers(table, optimizers.get((database.name, live_table["Name"])))
                    access.onto_table(database.name, live_table["Name"], table)
                    text = dump(refs.apply(table, f"{database.name}.{live_table['Name']}"), HEADER)
                    files[directory / "tables" / f"{live_table['Name']}.yaml"] = _Planned(text, table, placed)
    with Writer(root) as writer:
        for done, (path, planned) in enumerate(files.items()):
            try:
                _write_each(writer, path, planned, (force, dry_run), reading, result)
            except KeyboardInterrupt:
                if dry_run:
                    raise
                raise Interrupted(
                    f"{done:,} of {len(files):,} database and table files written or found unchanged, each one"
                    " whole; re-run import to write the rest"
                ) from None
    return result


def _write_each(
    writer: Writer, path: Path, planned: _Planned, options: tuple[bool, bool], reading: Reading, result: ImportResult
) -> None:
    outcome = result.database_files if planned.database is None else result.table_files
    try:
        _write(writer, path, planned, options, reading, outcome)
    except OutsideRoot as exc:  # a link that leaves the project: nothing is read or written there
        outcome.unwritable.append(path)
        result.failed.append(str(exc))
    except OSError as exc:  # a file system that refuses the name or the write: the other files still are
        outcome.unwritable.append(path)
        result.failed.append(f"{path}: cannot write it: {exc.strerror or exc}")


def _placing(path: Path, imported: Database, reading: Reading) -> Database:
    """The database a table file's default location is under, as a plan places it: the project's
    database.yaml when it loads, else the database import writes."""
    if not path.is_file():
        return imported
    existing = read_database(path, reading)
    return existing if isinstance(existing, Database) else imported


def _database(live: Shape, ignore: tuple[str, ...]) -> Database:
    _check_file_name(live["Name"])
    database = database_from_glue(live)
    database = database.model_copy(update={"parameters": managed(database.parameters, ignore)})
    check_writable(model_data(database))
    allow = database_exceptions(database)
    return database.model_copy(update={"lint": LintPolicy(allow=allow)}) if allow else database


def _import_table(
    connection: Connection,
    database: Database,
    live: Shape,
    options: tuple[tuple[str, ...], bool],
    result: ImportResult,
) -> dict[str, Any] | None:
    """The table file's data as Glue holds it (before references), or None when the table is skipped
    (and named in `result`)."""
    address = f"{database.name}.{live['Name']}"
    try:
        _check_file_name(live["Name"], ".yaml")
        adopted = adopt_table(connection, database, live, *options)
        check_writable(adopted.data)
    except MODEL_ERRORS as exc:
        result.failed.append(f"{address}: {reason_of(exc)}")
        result.skipped_tables += 1
        return None
    result.tables += 1
    result.notes.extend(f"{address}: {note}" for note in adopted.notes)
    return adopted.data


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


def _write(
    writer: Writer, path: Path, planned: _Planned, options: tuple[bool, bool], reading: Reading, outcome: Files
) -> None:
    """Write the file unless one that means the same is there; one that differs only with `force`
    (with `dry_run`, only say so). Never through a link that leaves the writer's root: OutsideRoot."""
    force, dry_run = options
    writer.confined(path)
    if path.exists():
        if path.read_bytes() == planned.text.encode("utf-8"):
            outcome.unchanged.append(path)
            return
        if planned.database is None:
            difference = database_difference(path, planned.data, reading)
        else:
            difference = table_difference(path, planned.data, planned.database, reading)
        if difference is None:
            outcome.unchanged.append(path)
            return
        if not force:
            outcome.kept.append(Differing(path, str(difference)))
            return
        outcome.overwritten.append(Differing(path, str(difference)))
    if not dry_run:
        writer.write(path, planned.text)
    outcome.written.append(path)
