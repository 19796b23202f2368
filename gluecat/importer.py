"""`gluecat import`: live Glue -> YAML, so that the very next plan shows no changes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gluecat.connect import Connection
from gluecat.convert.database import database_from_glue
from gluecat.convert.delta import DELTA_PARAMETERS
from gluecat.convert.hive import hive_table_from_glue
from gluecat.convert.partitions import own_from_glue
from gluecat.convert.view import view_from_glue
from gluecat.errors import GluecatError
from gluecat.formats.iceberg_diff import COMMENT, FORMAT_VERSION, live_sort, live_spec
from gluecat.formats.iceberg_types import type_text
from gluecat.glue import Glue, Shape
from gluecat.model import Column, Database, DeltaTable, IcebergColumn, IcebergTable
from gluecat.model.hivetype import HiveTypeError
from gluecat.partition_fold import fold_partitions
from gluecat.plan.parameters import managed
from gluecat.targets import addresses, unmatched
from gluecat.yamlout import dump, model_data

HEADER = "# Written by gluecat import. Edit freely: gluecat plan shows what your edits change.\n"
READ_WORKERS = 8


@dataclass
class ImportResult:
    written: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    refused: list[Path] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
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
    connection: Connection, root: Path, selection: Selection, ignore: tuple[str, ...], force: bool
) -> ImportResult:
    result = ImportResult()
    files: dict[Path, str] = {}
    live_databases = connection.glue.databases()
    selection.check_databases(db["Name"] for db in live_databases)
    databases = [db for db in live_databases if selection.database(db["Name"])]
    with ThreadPoolExecutor(max_workers=READ_WORKERS) as pool:
        listings = list(pool.map(lambda db: connection.glue.tables(db["Name"]), databases))
    selection.check_tables(
        {db["Name"]: [t["Name"] for t in tables] for db, tables in zip(databases, listings, strict=True)}
    )
    for live_db, tables in zip(databases, listings, strict=True):
        database = database_from_glue(live_db)
        database = database.model_copy(update={"parameters": managed(database.parameters, ignore)})
        directory = root / database.name
        files[directory / "database.yaml"] = dump(model_data(database), HEADER)
        for live_table in tables:
            if not selection.table(database.name, live_table["Name"]):
                continue
            address = f"{database.name}.{live_table['Name']}"
            try:
                model = table_model(connection, database, live_table, ignore, selection.partitions)
            except (ValidationError, GluecatError, HiveTypeError, KeyError) as exc:
                result.failed.append(f"{address}: {_reason(exc)}")
                continue
            result.tables += 1
            files[directory / "tables" / f"{live_table['Name']}.yaml"] = dump(model, HEADER)
    for path, text in files.items():
        _write(path, text, force, result)
    return result


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


def _reason(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        return "; ".join(
            f"{'.'.join(map(str, e['loc']))}: {e['msg'].removeprefix('Value error, ')}" for e in exc.errors()
        )
    return str(exc)


def table_model(
    connection: Connection, database: Database, live: Shape, ignore: tuple[str, ...], with_partitions: bool
) -> dict[str, Any]:
    """The YAML data for one live table, as the format it really is."""
    parameters = live.get("Parameters") or {}
    kind = str(parameters.get("table_type", "")).upper()
    if kind == "ICEBERG":
        return model_data(_iceberg(connection, live))
    if kind == "DELTA" or parameters.get("spark.sql.sources.provider") == "delta":
        return model_data(_delta(connection, live, ignore))
    if live.get("TableType") == "VIRTUAL_VIEW":
        view = view_from_glue(live, database.name)
        return model_data(view.model_copy(update={"parameters": managed(view.parameters, ignore)}))
    table = hive_table_from_glue(live)
    table = table.model_copy(
        update={
            "parameters": managed(table.parameters, ignore),
            "storage_parameters": managed(table.storage_parameters, ignore),
        }
    )
    data = model_data(table)
    if table.table_type is None:  # Glue holds none: say so, or the default would add one
        data["table_type"] = None
    if with_partitions and table.partition_keys:
        keys = [k.name for k in table.partition_keys]
        data["partitions"] = _partitions(connection.glue, database.name, live, keys, ignore)
    return data


def _partitions(
    glue: Glue, database: str, live: Shape, keys: list[str], ignore: tuple[str, ...]
) -> list[dict[str, Any]]:
    found = glue.partitions(database, live["Name"], expected=10_000)
    template = live.get("StorageDescriptor") or {}
    described = [
        (tuple(p["Values"]), (p.get("StorageDescriptor") or {}).get("Location", ""), own_from_glue(p, template, ignore))
        for p in found
    ]
    return fold_partitions(keys, described, template.get("Location"))


def _iceberg(connection: Connection, live: Shape) -> IcebergTable:
    metadata = connection.iceberg.read_metadata(live["Parameters"]["metadata_location"])
    properties: dict[str, str | None] = {k: v for k, v in metadata.properties.items() if k != COMMENT}
    properties[FORMAT_VERSION] = str(metadata.format_version)
    return IcebergTable(
        name=live["Name"],
        format="iceberg",
        description=metadata.properties.get(COMMENT),
        location=metadata.location,
        columns=[
            IcebergColumn(name=f.name, type=type_text(f.field_type), required=f.required, comment=f.doc)
            for f in metadata.schema().fields
        ],
        partition_spec=[{"column": c, "transform": t} for c, t, _ in live_spec(metadata)],
        sort_order=live_sort(metadata),
        properties=properties,
    )


def _delta(connection: Connection, live: Shape, ignore: tuple[str, ...]) -> DeltaTable:
    location = (live.get("StorageDescriptor") or {}).get("Location")
    log = connection.delta.read(location) if location else None
    if log is None:
        raise GluecatError(f"registered as Delta, but there is no Delta log at {location!r}")
    glue_columns = {c["Name"]: c for c in (live.get("StorageDescriptor") or {}).get("Columns") or []}
    columns = [
        Column(name=name, type=text, comment=glue_columns.get(name, {}).get("Comment"))
        for name, text in log.columns.items()
    ]
    parameters = {k: v for k, v in managed(live.get("Parameters") or {}, ignore).items() if k not in DELTA_PARAMETERS}
    return DeltaTable(
        name=live["Name"],
        format="delta",
        description=log.description or live.get("Description") or None,
        location=location,
        columns=columns,
        partition_columns=log.partition_columns,
        properties=log.configuration,
        parameters=parameters,
    )
