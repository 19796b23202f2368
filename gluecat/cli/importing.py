"""`gluecat import`."""

from __future__ import annotations

from pathlib import Path

from rich.markup import escape

from gluecat.adopt.catalog import HEADER, Files, ImportResult, Selection, import_catalog
from gluecat.adopt.catalog_file import CatalogKeys, compare_catalog_keys, write_catalog_keys
from gluecat.adopt.refs import References, Secret
from gluecat.adopt.table import REGISTRATION
from gluecat.adopt.yamlout import dump
from gluecat.backends.connect import connect_to
from gluecat.backends.denied import DENIED, DENIED_PREFIX, denial_message
from gluecat.cli import progress
from gluecat.cli.output import stderr, stdout
from gluecat.errors import ExitCode, GluecatError
from gluecat.model import CatalogConfig
from gluecat.project.environments import choose
from gluecat.project.load import CATALOG_FILE, read_catalog_config
from gluecat.secrets.files import confined, write_inside
from gluecat.text.plain import counted


def _config(root: Path, env: str | None) -> CatalogConfig:
    """The catalog's settings in the chosen environment (defaults when catalog.yaml is not written yet)."""
    if not (root / CATALOG_FILE).is_file():
        if env:
            raise GluecatError(f"--env {env}: there is no {root / CATALOG_FILE} to declare environments in")
        return CatalogConfig()
    config, source = read_catalog_config(root)
    return choose(config, source, env).config


def import_command(root: Path, selection: Selection, force: bool, env: str | None = None, dry_run: bool = False) -> int:
    """Write the files (`dry_run`: say, file by file, what would be written, and write nothing)."""
    config = _config(root, env)
    if not (root / CATALOG_FILE).exists():
        confined(root, root / CATALOG_FILE)  # a dangling link out of the project: refused before anything
    references = References(config.vars)
    ignore = tuple(config.ignore_parameters)
    with connect_to(config, root) as connection, progress.status(stderr, "reading the live catalog"):
        result = import_catalog(connection, root, selection, ignore, force, references, config.warehouse, dry_run)
        region = connection.region
    catalog = root / CATALOG_FILE
    catalog_written = not catalog.exists()
    keys = (
        CatalogKeys()
        if catalog_written
        else compare_catalog_keys(config, result.lake_formation, result.lake_formation_read)
    )
    if dry_run:
        _list_outcomes(result, catalog, catalog_written, keys, force)
    elif catalog_written:
        write_inside(root, catalog, dump({**({"region": region} if region else {}), **result.lake_formation}, HEADER))
    else:  # Lake Formation's keys: those the file lacks added, those that differ replaced with --force
        write_catalog_keys(root, catalog, keys, force, dump)
    catalog_kept = bool(keys.differing) and not force
    if catalog_kept and not dry_run:
        stderr.print(f"[yellow]kept[/] {escape(str(catalog))}: {escape(keys.why())}; pass --force to overwrite it")
    for kept in [] if dry_run else result.kept:
        stderr.print(f"[yellow]kept[/] {escape(str(kept.path))}: {escape(kept.why)}; pass --force to overwrite it")
    for overwritten in [] if dry_run else result.overwritten:
        stderr.print(f"[yellow]overwrote[/] {escape(str(overwritten.path))}: {escape(overwritten.why)}")
    if keys.differing and force and not dry_run:
        stderr.print(f"[yellow]overwrote[/] {escape(str(catalog))}: {escape(keys.why())}")
    for note in _grouped_notes(result.notes):
        stderr.print(f"[yellow]warning[/] {escape(note)}")
    for failure in _grouped(result.failed):
        stderr.print(f"[red]not imported[/] {escape(failure)}")
    _list_secrets(references.secrets)
    for line in summary(result, _catalog_outcome(catalog_written, keys, force), dry_run):
        stdout.print(line, markup=False)
    return ExitCode.ERROR if result.failed or result.kept or catalog_kept else ExitCode.OK


def _grouped(failures: list[str]) -> list[str]:
    """One line per failure, but the tables one missing permission kept out share one line naming it."""
    lines: list[str] = []
    by_denial: dict[str, list[str]] = {}
    for failure in failures:
        address, _, reason = failure.partition(": ")
        if reason.startswith(DENIED_PREFIX):
            by_denial.setdefault(reason, []).append(address)
        else:
            lines.append(failure)
    return [f"{', '.join(addresses)}: {reason}" for reason, addresses in by_denial.items()] + lines


def _grouped_notes(notes: list[str]) -> list[str]:
    """The tables imported as registrations for want of one permission (their metadata's S3 reads)
    share one warning naming it."""
    lines: list[str] = []
    by_action: dict[str, list[str]] = {}
    for note in notes:
        address, _, rest = note.partition(": ")
        denial = DENIED.search(rest)
        if rest.startswith(REGISTRATION) and denial:
            by_action.setdefault(denial.group(1), []).append(address)
        else:
            lines.append(note)
    grouped = [f"{', '.join(tables)}: {REGISTRATION}s: {denial_message(a)}" for a, tables in by_action.items()]
    return grouped + lines


def _catalog_outcome(written: bool, keys: CatalogKeys, force: bool) -> str:
    """catalog.yaml: `written` (new), `updated` (keys added or, with --force, replaced), `differs`
    (kept) or `unchanged`."""
    if written:
        return "written"
    if keys.differing and not force:
        return "differs"
    return "unchanged" if keys.unchanged else "updated"


def _list_outcomes(result: ImportResult, catalog: Path, written: bool, keys: CatalogKeys, force: bool) -> None:
    """--dry-run: one line per file, in path order: new, unchanged, differs (kept), or overwrite (--force);
    catalog.yaml's when it is new or would change."""
    outcomes: list[tuple[Path, str]] = [(catalog, "new")] if written else []
    if keys.differing:
        kept = "; pass --force to overwrite it" if not force else ""
        outcomes.append((catalog, f"{'overwrite' if force else 'differs'}: {keys.why()}{kept}"))
    elif keys.added:
        outcomes.append((catalog, f"update: adds {', '.join(keys.added)}"))
    for files in (result.database_files, result.table_files):
        replaced = {differing.path: differing.why for differing in files.overwritten}
        outcomes += [(path, f"overwrite: {replaced[path]}" if path in replaced else "new") for path in files.written]
        outcomes += [(path, "unchanged") for path in files.unchanged]
        outcomes += [(kept.path, f"differs: {kept.why}; pass --force to overwrite it") for kept in files.kept]
    for path, outcome in sorted(outcomes, key=lambda pair: pair[0]):
        word, _, why = outcome.partition(": ")
        stdout.print(f"{word:<9} {path}" + (f": {why}" if why else ""), markup=False)


def summary(result: ImportResult, catalog: str, dry_run: bool = False) -> list[str]:
    """What import did, in files, then file by kind: every file counted once, and the tables they hold
    (`dry_run`: what it would do, and that nothing was written). `catalog`: catalog.yaml's outcome,
    counted when it is written, updated or differs."""
    lines = _summary(result, catalog)
    if not dry_run:
        return lines
    lines = [line.replace(" written", " to write").replace(" updated", " to update") for line in lines]
    lines[0] = "Would import" + lines[0].removeprefix("Imported")
    return [*lines, "Dry run: nothing was written."]


def _summary(result: ImportResult, catalog: str) -> list[str]:
    tables, databases = result.table_files, result.database_files
    written = len(tables.written) + len(databases.written) + (catalog in ("written", "updated"))
    unchanged = len(tables.unchanged) + len(databases.unchanged)
    differ = len(tables.kept) + len(databases.kept) + (catalog == "differs")
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
    if catalog != "unchanged":
        lines.append(f"  {CATALOG_FILE} {'differs (kept)' if catalog == 'differs' else catalog}")
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
