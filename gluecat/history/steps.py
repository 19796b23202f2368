"""The steps of `gluecat history`, `rollback` and `prune-versions` that are not the command line's:
each takes plain arguments and returns what the command shows, or raises GluecatError; the command
asks, prints and maps outcomes to exit codes between them (gluecat/cli/history_run.py).

A rollback reads the version as import would write it (its YAML, the file's own directives kept),
plans it like any plan, and writes the table's file as import writes one."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gluecat.adopt.refs import References, Secret
from gluecat.adopt.table import adopt_table
from gluecat.adopt.yamlout import dump
from gluecat.backends.connect import Connection, connect
from gluecat.changes.model import Plan
from gluecat.errors import GluecatError
from gluecat.history.listing import History as History  # what `gluecat history` prints
from gluecat.history.listing import is_iceberg, table_history
from gluecat.history.prune import TableVersions as TableVersions  # prune-versions: what it deletes, how
from gluecat.history.prune import prune as prune
from gluecat.history.prune import prune_candidates as prune_candidates
from gluecat.history.rollback import (
    ICEBERG_REFUSAL,
    SnapshotRollback,
    project_database,
    rollback_plan,
    snapshot_rollback,
    table_file,
)
from gluecat.history.rollback import roll_back_snapshot as roll_back_snapshot
from gluecat.kinds.registry import kind_of
from gluecat.model import TABLE_MODELS
from gluecat.model.suggest import closest, either
from gluecat.model.table import Table, as_table
from gluecat.project.load import Project
from gluecat.secrets.files import confined, write_inside

Shape = dict[str, Any]
HEADER = (
    "# Rolled back by gluecat rollback to Glue version {version}. Edit freely: gluecat plan shows what edits change.\n"
)
# What the table's file says about how gluecat treats it, not what Glue holds: kept as written.
KEPT_KEYS = ("partitions", "lint", "allow_breaking", "partition_schema", "skip_archive")


def missing_table(project: Project, connection: Connection, database: str, name: str, why: str) -> GluecatError:
    """`sales.ordrs is not in the catalog: did you mean 'sales.orders'?`, from the project's tables and Glue's."""
    address = f"{database}.{name}"
    names = {f"{d.name}.{t.name}" for d in project.databases for t in d.tables}
    if connection.catalog.database(database) is not None:
        names |= {f"{database}.{t['Name']}" for t in connection.catalog.tables(database)}
    close = closest(address, sorted(names))
    hint = f": did you mean {either(close)}?" if close else why
    return GluecatError(f"{address} is not in the catalog{hint}")


# history


def read_history(project: Project, database: str, name: str, limit: int, page: int) -> History:
    """One page of the table's Glue versions (and an Iceberg table's snapshots)."""
    with connect(project) as connection:
        connection.versions("history")
        if connection.catalog.table(database, name) is None:
            raise missing_table(project, connection, database, name, "")
        return table_history(connection, database, name, limit, page)


# rollback


def table_path(project: Project, database: str, name: str) -> Path:
    return project.root / database / "tables" / f"{name}.yaml"


def check_rollback(project: Project, database: str, name: str, write_yaml: bool) -> None:
    """Refused before the catalog is read: a database the project lacks, a table file `--write-yaml`
    could not write (refused now, not after Glue was rolled back)."""
    project_database(project, database)
    if write_yaml:
        confined(project.root, table_path(project, database, name))


@contextmanager
def live_table(project: Project, database: str, name: str) -> Iterator[tuple[Connection, Shape]]:
    """The catalog, open while the command asks, and the table's live entry in it."""
    with connect(project) as connection:
        connection.versions("rollback")
        live = connection.catalog.table(database, name)
        if live is None:
            raise missing_table(project, connection, database, name, ": there is nothing to roll back")
        yield connection, live


@dataclass(frozen=True)
class Version:
    """A Glue version to write back: its number, Glue's shape of it, its table file's data and model."""

    wanted: str
    table: Shape
    data: dict[str, Any]
    model: Table

    @property
    def evolves(self) -> bool:
        """False for a registration: plans create it when missing and never change it."""
        return kind_of(self.model).evolves


def version_to_write(
    project: Project, connection: Connection, address: str, live: Shape, to_version: int | None
) -> Version:
    """Version `to_version` of the table, refused when the table is at it already, or Glue lacks it."""
    if is_iceberg(live):
        raise GluecatError(ICEBERG_REFUSAL.format(address=address))
    database, name = address.split(".", 1)
    wanted = str(to_version)
    if str(live.get("VersionId")) == wanted:
        raise GluecatError(f"{address} is at version {wanted} already")
    version = connection.versions("rollback").table_version(database, name, wanted)
    if version is None:
        raise GluecatError(f"{address} has no version {wanted} (`gluecat history` lists those Glue keeps)")
    data = version_data(project, connection, database, name, version["Table"])
    return Version(wanted, version["Table"], data, version_model(data, name))


def plan_version(
    project: Project, connection: Connection, database: str, version: Version, progress: Callable[[str], None]
) -> Plan:
    """The plan that writes the version back over the live table."""
    return rollback_plan(project, connection, database, version.model, version.wanted, progress, version.table)


def version_data(project: Project, connection: Connection, database: str, name: str, table: Shape) -> dict[str, Any]:
    """The table file's data for the version, as import would write it, with the file's own directives."""
    database_model = project_database(project, database).model
    adopted = adopt_table(connection, database_model, table, tuple(project.config.ignore_parameters), False)
    data = dict(adopted.data)
    data.pop("partitions", None)
    existing = table_file(project, database, name)
    if existing is not None and isinstance(existing.source.data, dict):
        data.update({k: existing.source.data[k] for k in KEPT_KEYS if k in existing.source.data})
    return data


def version_model(data: dict[str, Any], name: str) -> Table:
    planned = {k: v for k, v in data.items() if k != "partitions"}  # a rollback leaves partitions alone
    kind = TABLE_MODELS[str(planned.get("format", "hive"))]
    table = as_table(kind.model_validate({**planned, "name": name}))
    if table is None:
        raise GluecatError(f"{name}: its version is not a table gluecat can write back")
    return table


@dataclass(frozen=True)
class WrittenFile:
    path: Path
    secrets: tuple[Secret, ...]  # the environment variables the file names for secret-looking values


def write_version_file(
    project: Project, database: str, name: str, data: dict[str, Any], version: int | None
) -> WrittenFile:
    """The table's file rewritten with the version's definition, as import writes it: an environment's
    values as ${var.NAME}, secret-looking ones as ${env.NAME}."""
    path = table_path(project, database, name)
    references = References(project.config.vars)
    header = schema_comment(path) + HEADER.format(version=version)
    text = dump(references.apply(data, f"{database}.{name}"), header)
    write_inside(project.root, path, text)
    return WrittenFile(path, tuple(references.secrets))


def schema_comment(path: Path) -> str:
    """The file's `# yaml-language-server: $schema=...` line (as `gluecat init` writes it), kept on top."""
    try:
        first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    except (OSError, UnicodeDecodeError):
        return ""
    return first + "\n" if first.startswith("# yaml-language-server:") else ""


def require_iceberg(address: str, live: Shape) -> None:
    if not is_iceberg(live):
        raise GluecatError(f"{address} is not an Iceberg table: roll it back with --to-version N")


def snapshot_to_roll_back(connection: Connection, address: str, snapshot_id: int) -> SnapshotRollback:
    """What rolling the Iceberg table back to `snapshot_id` undoes (refused unless it is an ancestor)."""
    database, name = address.split(".", 1)
    return snapshot_rollback(connection, database, name, snapshot_id)
