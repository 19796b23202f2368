"""`gluecat import`: the catalog's settings chosen, the live catalog read into files, catalog.yaml
written or its Lake Formation keys brought up to date; and the lines its failures and notes are said
in. The command prints what became of each file (gluecat/cli/importing.py)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

from gluecat.adopt.catalog import HEADER, import_catalog
from gluecat.adopt.catalog import Files as Files  # what the command counts, file by kind
from gluecat.adopt.catalog import ImportResult as ImportResult
from gluecat.adopt.catalog import Selection as Selection
from gluecat.adopt.catalog_file import CatalogKeys, compare_catalog_keys, write_catalog_keys
from gluecat.adopt.refs import References
from gluecat.adopt.refs import Secret as Secret
from gluecat.adopt.table import REGISTRATION
from gluecat.adopt.yamlout import dump
from gluecat.backends.connect import connect_to
from gluecat.backends.denied import DENIED, DENIED_PREFIX, denial_message
from gluecat.errors import GluecatError
from gluecat.model import CatalogConfig
from gluecat.project.environments import choose
from gluecat.project.load import CATALOG_FILE, read_catalog_config
from gluecat.secrets.files import confined, write_inside


@dataclass(frozen=True)
class ImportOutcome:
    result: ImportResult
    catalog: Path  # catalog.yaml
    catalog_written: bool  # catalog.yaml was not there: written whole (a dry run: would be)
    keys: CatalogKeys  # what import made of an existing catalog.yaml's keys
    force: bool
    secrets: tuple[Secret, ...]  # the environment variables the files now name

    @property
    def catalog_kept(self) -> bool:
        """catalog.yaml declares keys with another meaning, and --force was not given."""
        return bool(self.keys.differing) and not self.force

    @property
    def catalog_outcome(self) -> str:
        """catalog.yaml: `written` (new), `updated` (keys added or, with --force, replaced), `differs`
        (kept) or `unchanged`."""
        if self.catalog_written:
            return "written"
        if self.catalog_kept:
            return "differs"
        return "unchanged" if self.keys.unchanged else "updated"


def catalog_config(root: Path, env: str | None) -> CatalogConfig:
    """The catalog's settings in the chosen environment (defaults when catalog.yaml is not written yet)."""
    if not (root / CATALOG_FILE).is_file():
        if env:
            raise GluecatError(f"--env {env}: there is no {root / CATALOG_FILE} to declare environments in")
        return CatalogConfig()
    config, source = read_catalog_config(root)
    return choose(config, source, env).config


def import_project(
    root: Path,
    selection: Selection,
    force: bool,
    env: str | None,
    dry_run: bool,
    reading: Callable[[], AbstractContextManager[object]],
) -> ImportOutcome:
    """Write the files (`dry_run`: write nothing, and say what would be written); `reading` is shown
    while the live catalog is read."""
    config = catalog_config(root, env)
    if not (root / CATALOG_FILE).exists():
        confined(root, root / CATALOG_FILE)  # a dangling link out of the project: refused before anything
    references = References(config.vars)
    ignore = tuple(config.ignore_parameters)
    with connect_to(config, root) as connection, reading():
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
        return ImportOutcome(result, catalog, catalog_written, keys, force, tuple(references.secrets))
    if catalog_written:
        write_inside(root, catalog, dump({**({"region": region} if region else {}), **result.lake_formation}, HEADER))
    else:  # Lake Formation's keys: those the file lacks added, those that differ replaced with --force
        write_catalog_keys(root, catalog, keys, force, dump)
    return ImportOutcome(result, catalog, catalog_written, keys, force, tuple(references.secrets))


def grouped_failures(failures: list[str]) -> list[str]:
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


def grouped_notes(notes: list[str]) -> list[str]:
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
