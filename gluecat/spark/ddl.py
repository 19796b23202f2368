"""Spark/Hive DDL for Hive-format tables, rendered from the same definitions gluecat applies."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from gluecat.convert.hive import hive_table_input
from gluecat.convert.locations import partition_location, table_location
from gluecat.kinds.hive import hive_model
from gluecat.model import Database, HiveTable
from gluecat.model.partitions import expand_partitions
from gluecat.project.load import Project


def _quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _name(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def _scheme(uri: str, scheme: str) -> str:
    head, sep, rest = uri.partition("://")
    return f"{scheme}://{rest}" if sep and head in ("s3", "s3a", "s3n") else uri


# What to print for `key: value`, a property or any other user string (spark-conf masks secrets through it,
# before quoting: a quoted value no longer reads as the secret it holds).
Shown = Callable[[str, str], str]


def _as_is(_key: str, value: str) -> str:
    return value


def _properties(values: dict[str, str], shown: Shown) -> str:
    return ", ".join(f"{_quote(k)}={_quote(shown(k, v))}" for k, v in values.items())


def database_ddl(database: Database, scheme: str, shown: Shown = _as_is) -> str:
    location = f" LOCATION {_quote(shown('location', _scheme(database.location, scheme)))}" if database.location else ""
    return f"CREATE DATABASE IF NOT EXISTS {_name(database.name)}{location};"


def table_ddl(table: HiveTable, database: Database, scheme: str, shown: Shown = _as_is) -> str:
    shape = hive_table_input(table, table_location(table, database))
    descriptor = shape["StorageDescriptor"]
    columns = ",\n".join(
        f"  {_name(c.name)} {c.type}" + (f" COMMENT {_quote(shown('comment', c.comment))}" if c.comment else "")
        for c in table.columns
    )
    lines = [f"CREATE EXTERNAL TABLE IF NOT EXISTS {_name(database.name)}.{_name(str(table.name))} (", columns, ")"]
    if table.description:
        lines.append(f"COMMENT {_quote(shown('comment', table.description))}")
    if table.partition_keys:
        keys = ", ".join(f"{_name(k.name)} {k.type}" for k in table.partition_keys)
        lines.append(f"PARTITIONED BY ({keys})")
    serde = descriptor["SerdeInfo"]
    lines.append(f"ROW FORMAT SERDE {_quote(serde['SerializationLibrary'])}")
    if serde.get("Parameters"):
        lines.append(f"WITH SERDEPROPERTIES ({_properties(dict(serde['Parameters']), shown)})")
    lines.append(
        f"STORED AS INPUTFORMAT {_quote(descriptor['InputFormat'])} OUTPUTFORMAT {_quote(descriptor['OutputFormat'])}"
    )
    if descriptor.get("Location"):
        lines.append(f"LOCATION {_quote(shown('location', _scheme(descriptor['Location'], scheme)))}")
    if table.parameters:
        lines.append(f"TBLPROPERTIES ({_properties(table.parameters, shown)})")
    return "\n".join(lines) + ";"


def partition_ddl(table: HiveTable, database: Database, scheme: str, shown: Shown = _as_is) -> Iterator[str]:
    location = table_location(table, database)
    if table.partitions is None or location is None:
        return
    keys = [k.name for k in table.partition_keys]
    target = f"{_name(database.name)}.{_name(str(table.name))}"
    for values, explicit in expand_partitions(table.partitions, keys):
        spec = ", ".join(f"{_name(k)}={_quote(shown(k, v))}" for k, v in zip(keys, values, strict=True))
        where = _scheme(explicit or partition_location(location, keys, values), scheme)
        yield f"ALTER TABLE {target} ADD IF NOT EXISTS PARTITION ({spec}) LOCATION {_quote(shown('location', where))};"


def project_ddl(project: Project, scheme: str = "s3a", shown: Shown = _as_is) -> Iterator[str]:
    """Every statement, databases first; Iceberg and Delta tables are left to their catalogs."""
    for database in project.databases:
        hive_tables = [model for t in database.tables if (model := hive_model(t.model)) is not None]
        if not hive_tables:
            continue
        yield database_ddl(database.model, scheme, shown)
        for table in hive_tables:
            yield table_ddl(table, database.model, scheme, shown)
            yield from partition_ddl(table, database.model, scheme, shown)
