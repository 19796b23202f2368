"""Lint rules over a loaded project (SPEC §5). Each rule yields findings with a YAML path."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal

from gluecat.convert.locations import table_location
from gluecat.errors import SourcePosition
from gluecat.load import LoadedDatabase, LoadedTable, Project
from gluecat.model import DeltaTable, HiveTable, IcebergTable, PartitionEntry
from gluecat.yamlparse import Loc

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Finding:
    position: SourcePosition
    severity: Severity
    rule: str
    message: str

    def __str__(self) -> str:
        label = "" if self.severity == "error" else "warning: "
        return f"{self.position}: {label}{self.message} [{self.rule}]"


@dataclass(frozen=True)
class Hit:
    """What a rule reports: where (a YAML path in the file it checks) and what."""

    loc: Loc
    rule: str
    message: str
    severity: Severity = "error"


def lint(project: Project) -> list[Finding]:
    findings: list[Finding] = []
    for database in project.databases:
        for hit in database_rules(database):
            findings.append(_finding(database.source.position(hit.loc), hit))
        for table in database.tables:
            for hit in table_rules(table, database):
                findings.append(_finding(table.source.position(hit.loc), hit))
    return findings


def _finding(position: SourcePosition, hit: Hit) -> Finding:
    return Finding(position, hit.severity, hit.rule, hit.message)


def database_rules(database: LoadedDatabase) -> Iterator[Hit]:
    location = database.model.location
    if not location:
        yield Hit(
            ("name",),
            "database-location",
            "database has no `location`: Spark's CREATE TABLE then fails with 'location is not"
            " defined for database'; add e.g. `location: s3://bucket/" + database.name + "/`",
        )
    elif not _is_s3(location):
        yield Hit(("location",), "s3-uri", f"location '{location}' must be an s3:// URI")


def table_rules(table: LoadedTable, database: LoadedDatabase) -> Iterator[Hit]:
    for rule in TABLE_RULES:
        yield from rule(table, database)


def _is_s3(uri: str) -> bool:
    return uri.startswith(("s3://", "s3a://"))


def _duplicate_columns(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    model = table.model
    counts = Counter(column.name for column in model.columns)
    for index, column in enumerate(model.columns):
        if counts[column.name] > 1:
            message = f"column '{column.name}' is declared {counts[column.name]} times"
            yield Hit(("columns", index, "name"), "duplicate-column", message)
    if isinstance(model, HiveTable):
        names = {column.name for column in model.columns}
        for index, key in enumerate(model.partition_keys):
            if key.name in names:
                yield Hit(
                    ("partition_keys", index, "name"),
                    "partition-key-is-column",
                    f"partition key '{key.name}' repeats a column: Glue and Spark keep partition"
                    " keys apart from columns; remove it from `columns`",
                )


def _location(table: LoadedTable, database: LoadedDatabase) -> Iterator[Hit]:
    model = table.model
    if isinstance(model, DeltaTable) and not model.location:
        yield Hit(
            ("name",),
            "delta-location",
            "a delta table needs `location`: the Delta log lives there",
        )
    if model.location and not _is_s3(model.location):
        yield Hit(("location",), "s3-uri", f"location '{model.location}' must be an s3:// URI")
    db_location = database.model.location
    if model.location and db_location and not model.location.startswith(db_location.rstrip("/")):
        yield Hit(
            ("location",),
            "location-outside-database",
            f"table location is outside its database location '{db_location}'",
            "warning",
        )


def _partition_columns(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    model = table.model
    names = {column.name for column in model.columns}
    if isinstance(model, DeltaTable):
        for index, name in enumerate(model.partition_columns):
            if name not in names:
                yield Hit(
                    ("partition_columns", index),
                    "partition-column-unknown",
                    f"partition column '{name}' is not among `columns`",
                )
    if isinstance(model, IcebergTable):
        referenced: list[tuple[str, int, str]] = [
            *(("partition_spec", i, f.column) for i, f in enumerate(model.partition_spec)),
            *(("sort_order", i, f.column) for i, f in enumerate(model.sort_order)),
        ]
        for key, index, column in referenced:
            if column not in names:
                yield Hit(
                    (key, index, "column"),
                    "partition-column-unknown",
                    f"column '{column}' is not among `columns`",
                )


def _partition_values(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    model = table.model
    if not isinstance(model, HiveTable) or model.partitions is None:
        return
    keys = [key.name for key in model.partition_keys]
    if not keys and model.partitions:
        yield Hit(("partitions",), "partition-keys", "partitions are declared but no partition_keys")
        return
    for index, item in enumerate(model.partitions):
        given = list(item.values) if isinstance(item, PartitionEntry) else list(item.expand)
        field = "values" if isinstance(item, PartitionEntry) else "expand"
        if sorted(given) != sorted(keys):
            yield Hit(
                ("partitions", index, field),
                "partition-values",
                f"give a value for each partition key ({', '.join(keys)}), not {', '.join(given)}",
            )


def _hive_location(table: LoadedTable, database: LoadedDatabase) -> Iterator[Hit]:
    model = table.model
    if isinstance(model, HiveTable) and not table_location(model, database.model):
        yield Hit(
            ("name",),
            "table-location",
            "table has no `location` and its database has none to place it under",
        )


def _iceberg_parameters(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    model = table.model
    if isinstance(model, IcebergTable) and model.parameters:
        yield Hit(
            ("parameters",),
            "iceberg-parameters",
            "an iceberg table's Glue parameters are written by Iceberg commits: use `properties`"
            " (Iceberg table properties) instead",
        )


TABLE_RULES: tuple[Callable[[LoadedTable, LoadedDatabase], Iterator[Hit]], ...] = (
    _duplicate_columns,
    _location,
    _partition_columns,
    _partition_values,
    _hive_location,
    _iceberg_parameters,
)
