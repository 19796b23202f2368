"""`gluecat import`."""

from __future__ import annotations

from pathlib import Path

from rich.markup import escape

from gluecat.adopt.catalog import HEADER, Selection, import_catalog
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
        result = import_catalog(connection, root, selection, ignore, force, references)
        region = connection.session.region_name
    catalog = root / CATALOG_FILE
    if not catalog.exists():
        catalog.parent.mkdir(parents=True, exist_ok=True)
        catalog.write_text(dump({"region": region} if region else {}, HEADER), encoding="utf-8")
        result.written.append(catalog)
    for path in result.refused:
        stderr.print(
            f"[yellow]kept[/] {escape(str(path))}: it differs from the live catalog; pass --force to overwrite it"
        )
    for note in result.notes:
        stderr.print(f"[yellow]warning[/] {escape(note)}")
    for failure in result.failed:
        stderr.print(f"[red]not imported[/] {escape(str(failure))}")
    _list_secrets(references.secrets)
    stdout.print(
        f"Imported {counted(result.tables, 'table')}: {counted(len(result.written), 'file')} written,"
        f" {len(result.unchanged):,} unchanged, {len(result.refused):,} kept, {len(result.failed):,} skipped.",
        markup=False,
    )
    return 1 if result.failed or result.refused else 0


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
