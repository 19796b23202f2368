"""`gluecat import`."""

from __future__ import annotations

from pathlib import Path

from rich.markup import escape

from gluecat.adopt.catalog import HEADER, Files, ImportResult, Selection, import_catalog
from gluecat.adopt.refs import References, Secret
from gluecat.adopt.yamlout import dump
from gluecat.backends.connect import connect_to
from gluecat.cli import progress
from gluecat.cli.output import stderr, stdout
from gluecat.errors import GluecatError
from gluecat.model import CatalogConfig
from gluecat.project.environments import choose
from gluecat.project.load import CATALOG_FILE, read_catalog_config
from gluecat.text.plain import counted


def _config(root: Path, env: str | None) -> CatalogConfig:
    """The catalog's settings in the chosen environment (defaults when catalog.yaml is not written yet)."""
    if not (root / CATALOG_FILE).is_file():
        if env:
            raise GluecatError(f"--env {env}: there is no {root / CATALOG_FILE} to declare environments in")
        return CatalogConfig()
    config, source = read_catalog_config(root)
    return choose(config, source, env).config


def import_command(root: Path, selection: Selection, force: bool, env: str | None = None) -> int:
    config = _config(root, env)
    references = References(config.vars)
    ignore = tuple(config.ignore_parameters)
    with connect_to(config, root) as connection, progress.status(stderr, "reading the live catalog"):
        result = import_catalog(connection, root, selection, ignore, force, references, config.warehouse)
        region = connection.session.region_name
    catalog = root / CATALOG_FILE
    catalog_written = not catalog.exists()
    if catalog_written:
        catalog.parent.mkdir(parents=True, exist_ok=True)
        catalog.write_text(dump({"region": region} if region else {}, HEADER), encoding="utf-8")
    for kept in result.kept:
        stderr.print(f"[yellow]kept[/] {escape(str(kept.path))}: {escape(kept.why)}; pass --force to overwrite it")
    for overwritten in result.overwritten:
        stderr.print(f"[yellow]overwrote[/] {escape(str(overwritten.path))}: {escape(overwritten.why)}")
    for note in result.notes:
        stderr.print(f"[yellow]warning[/] {escape(note)}")
    for failure in result.failed:
        stderr.print(f"[red]not imported[/] {escape(str(failure))}")
    _list_secrets(references.secrets)
    for line in summary(result, catalog_written):
        stdout.print(line, markup=False)
    return 1 if result.failed or result.kept else 0


def summary(result: ImportResult, catalog_written: bool) -> list[str]:
    """What import did, in files, then file by kind: every file counted once, and the tables they hold."""
    tables, databases = result.table_files, result.database_files
    written = len(tables.written) + len(databases.written) + catalog_written
    unchanged = len(tables.unchanged) + len(databases.unchanged)
    differ = len(tables.kept) + len(databases.kept)
    unwritable = len(tables.unwritable) + len(databases.unwritable)
    skipped = result.skipped_databases + result.skipped_tables + unwritable
    why = [
        counted(result.skipped_databases, "database") if result.skipped_databases else "",
        counted(result.skipped_tables, "table") if result.skipped_tables else "",
        f"{counted(unwritable, 'file')} not writable" if unwritable else "",
    ]
    lines = [
        f"Imported {counted(result.tables, 'table')}: {counted(written, 'file')} written, {unchanged:,} unchanged,"
        f" {differ:,} differ{' (kept)' if differ else ''}, {skipped:,} skipped"
        + (f" ({', '.join(part for part in why if part)})." if skipped else "."),
        f"  {_files(tables, 'table file')}",
        f"  {_files(databases, 'database file')}",
    ]
    if catalog_written:
        lines.append(f"  {CATALOG_FILE} written")
    return lines


def _files(files: Files, noun: str) -> str:
    """`3 table files: 1 written, 2 unchanged, 0 differ` (and what --force overwrote, what could not be written)."""
    total = len(files.written) + len(files.unchanged) + len(files.kept) + len(files.unwritable)
    written = f"{len(files.written):,} written"
    if files.overwritten:
        written += f" ({len(files.overwritten):,} over a file that differed)"
    counts = f"{written}, {len(files.unchanged):,} unchanged, {len(files.kept):,} differ"
    if files.unwritable:
        counts += f", {len(files.unwritable):,} not writable"
    return f"{counted(total, noun)}: {counts}"


def _list_secrets(secrets: list[Secret]) -> None:
    """The environment variables the files now name: the user sets them before plan and apply."""
    if not secrets:
        return
    stdout.print(
        f"Secret-looking values were not written; set {counted(len(secrets), 'environment variable')}"
        " to them before plan or apply:",
        markup=False,
    )
    for secret in secrets:
        stdout.print(f"  {secret.variable}  ({secret.where})", markup=False)
