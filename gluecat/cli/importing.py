"""`gluecat import`."""

from __future__ import annotations

from pathlib import Path

from rich.markup import escape

from gluecat.adopt.importing import (
    Files,
    ImportOutcome,
    ImportResult,
    Secret,
    Selection,
    grouped_failures,
    grouped_notes,
    import_project,
)
from gluecat.cli import progress
from gluecat.cli.output import stderr, stdout
from gluecat.errors import ExitCode
from gluecat.project.load import CATALOG_FILE
from gluecat.text.plain import counted


def import_command(root: Path, selection: Selection, force: bool, env: str | None = None, dry_run: bool = False) -> int:
    """Write the files (`dry_run`: say, file by file, what would be written, and write nothing)."""
    outcome = import_project(
        root, selection, force, env, dry_run, lambda: progress.status(stderr, "reading the live catalog")
    )
    result, catalog = outcome.result, outcome.catalog
    if dry_run:
        _list_outcomes(outcome)
    if outcome.catalog_kept and not dry_run:
        why = outcome.keys.why()
        stderr.print(f"[yellow]kept[/] {escape(str(catalog))}: {escape(why)}; pass --force to overwrite it")
    for kept in [] if dry_run else result.kept:
        stderr.print(f"[yellow]kept[/] {escape(str(kept.path))}: {escape(kept.why)}; pass --force to overwrite it")
    for overwritten in [] if dry_run else result.overwritten:
        stderr.print(f"[yellow]overwrote[/] {escape(str(overwritten.path))}: {escape(overwritten.why)}")
    if outcome.keys.differing and force and not dry_run:
        stderr.print(f"[yellow]overwrote[/] {escape(str(catalog))}: {escape(outcome.keys.why())}")
    for note in grouped_notes(result.notes):
        stderr.print(f"[yellow]warning[/] {escape(note)}")
    for failure in grouped_failures(result.failed):
        stderr.print(f"[red]not imported[/] {escape(failure)}")
    _list_secrets(outcome.secrets)
    for line in summary(result, outcome.catalog_outcome, dry_run):
        stdout.print(line, markup=False)
    return ExitCode.ERROR if result.failed or result.kept or outcome.catalog_kept else ExitCode.OK


def _list_outcomes(outcome: ImportOutcome) -> None:
    """--dry-run: one line per file, in path order: new, unchanged, differs (kept), or overwrite (--force);
    catalog.yaml's when it is new or would change."""
    catalog, keys, force = outcome.catalog, outcome.keys, outcome.force
    outcomes: list[tuple[Path, str]] = [(catalog, "new")] if outcome.catalog_written else []
    if keys.differing:
        kept = "; pass --force to overwrite it" if not force else ""
        outcomes.append((catalog, f"{'overwrite' if force else 'differs'}: {keys.why()}{kept}"))
    elif keys.added:
        outcomes.append((catalog, f"update: adds {', '.join(keys.added)}"))
    for files in (outcome.result.database_files, outcome.result.table_files):
        replaced = {differing.path: differing.why for differing in files.overwritten}
        outcomes += [(path, f"overwrite: {replaced[path]}" if path in replaced else "new") for path in files.written]
        outcomes += [(path, "unchanged") for path in files.unchanged]
        outcomes += [(kept.path, f"differs: {kept.why}; pass --force to overwrite it") for kept in files.kept]
    for path, outcome_text in sorted(outcomes, key=lambda pair: pair[0]):
        word, _, why = outcome_text.partition(": ")
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


def _list_secrets(secrets: tuple[Secret, ...]) -> None:
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
