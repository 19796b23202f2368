"""`gluecat import`."""

from __future__ import annotations

from pathlib import Path

from rich.markup import escape

from gluecat.cli import progress
from gluecat.cli.output import stderr, stdout
from gluecat.connect import connect_to
from gluecat.errors import SpecErrors
from gluecat.importer import HEADER, Selection, import_catalog
from gluecat.load import CATALOG_FILE
from gluecat.model import CatalogConfig
from gluecat.plain import counted
from gluecat.source import read_yaml, validation_errors
from gluecat.yamlout import dump


def _config(root: Path) -> CatalogConfig:
    path = root / CATALOG_FILE
    if not path.is_file():
        return CatalogConfig()
    source = read_yaml(path)
    from pydantic import ValidationError

    try:
        return CatalogConfig.model_validate(dict(source.data))
    except ValidationError as exc:
        raise SpecErrors(validation_errors(source, exc, CatalogConfig)) from exc


def import_command(root: Path, selection: Selection, force: bool) -> int:
    config = _config(root)
    with connect_to(config, root) as connection, progress.status(stderr, "reading the live catalog"):
        result = import_catalog(connection, root, selection, tuple(config.ignore_parameters), force)
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
        stderr.print(f"[red]not imported[/] {escape(failure)}")
    stdout.print(
        f"Imported {counted(result.tables, 'table')}: {counted(len(result.written), 'file')} written,"
        f" {len(result.unchanged):,} unchanged, {len(result.refused):,} kept, {len(result.failed):,} skipped.",
        markup=False,
    )
    return 1 if result.failed or result.refused else 0
