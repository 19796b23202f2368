"""One live table -> the YAML data `import` writes: as the format it really is, else as a
registration carried verbatim; never a reason to stop importing the rest."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gluecat.adopt.partition_fold import PartitionFolder
from gluecat.adopt.yamlout import model_data
from gluecat.backends.base import Catalog, Shape
from gluecat.backends.connect import Connection
from gluecat.backends.iceberg_meta import COMMENT, FORMAT_VERSION, live_sort, live_spec
from gluecat.convert.delta import DELTA_PARAMETERS, delta_table_input
from gluecat.convert.hive import hive_table_from_glue
from gluecat.convert.parameters import managed
from gluecat.convert.partition_index import indexes_from_glue
from gluecat.convert.partitions import OwnReader
from gluecat.convert.shapes import CARRIED_TABLE_KEYS
from gluecat.convert.view import view_from_glue
from gluecat.errors import GluecatError
from gluecat.kinds.delta import registered_for_athena
from gluecat.kinds.registry import DELTA, ICEBERG, VIEW, recognise
from gluecat.lint.rules import database_rules, table_rules
from gluecat.model import TABLE_MODELS, Column, Database, DeltaTable, IcebergColumn, IcebergTable
from gluecat.project.load import LoadedDatabase, LoadedTable
from gluecat.project.source import SourceFile
from gluecat.text.plain import pydantic_plain

EXPECTED_PARTITIONS = 10_000  # unknown before reading: enough parallel segments for a large table
# What a live shape the models cannot hold raises (HiveTypeError is a ValueError). Errors reaching
# Glue or S3 are not among them: those skip the table rather than turn it into a registration.
UNMODELLED = (ValidationError, KeyError, TypeError, ValueError)
MODEL_ERRORS = (*UNMODELLED, GluecatError)

REGISTRATION = "imported as a registration"  # what a table whose format cannot be read becomes


class NotModelled(GluecatError):
    """The table's own definition (Iceberg metadata, Delta log) cannot be read, or Glue holds it in
    a shape gluecat's models cannot express: keep its registration."""


@dataclass
class Adopted:
    data: dict[str, Any]
    notes: list[str] = field(default_factory=list)


def adopt_table(
    connection: Connection, database: Database, live: Shape, ignore: tuple[str, ...], with_partitions: bool
) -> Adopted:
    """The table file's data, with a note for each thing a reviewer should know."""
    try:
        adopted = Adopted(_as_modelled(connection, database, live, ignore, with_partitions))
    except NotModelled as exc:
        adopted = Adopted(registration(live, str(exc)), [f"{REGISTRATION}: {exc}"])
    except UNMODELLED as exc:
        reason = f"gluecat cannot model it ({reason_of(exc)})"
        adopted = Adopted(registration(live, reason), [f"{REGISTRATION}: {reason}"])
    if with_partitions and _projected(adopted.data):
        adopted.notes.append(
            "left `partitions` out: the table uses partition projection, so Athena ignores registered"
            " partitions, and a `partitions` list under `prune: true` would delete those added later"
        )
    allow = lint_exceptions(database, live["Name"], adopted.data)
    if allow:
        adopted.data["lint"] = {"allow": allow}
        adopted.notes.append(f"adopted with lint exceptions ({', '.join(allow)}): Glue holds it that way")
    return adopted


def _as_modelled(
    connection: Connection, database: Database, live: Shape, ignore: tuple[str, ...], with_partitions: bool
) -> dict[str, Any]:
    kind = recognise(live)
    if kind is ICEBERG:
        return model_data(_iceberg(connection, live))
    if kind is DELTA:
        return model_data(_delta(connection, live, ignore))
    _typed_columns(live)
    if kind is VIEW:
        if not live.get("ViewOriginalText") and not live.get("ViewExpandedText"):
            raise NotModelled("a view without view texts: nothing says what it selects, and a view file would add one")
        view = view_from_glue(live, database.name)
        return model_data(view.model_copy(update={"parameters": managed(view.parameters, ignore)}))
    table = hive_table_from_glue(live)
    # Only a partitioned table can hold indexes; one without any leaves the key out (and unmanaged).
    indexes = (
        indexes_from_glue(connection.catalog.partition_indexes(database.name, live["Name"]))
        if table.partition_keys
        else []
    )
    table = table.model_copy(
        update={
            "parameters": managed(table.parameters, ignore),
            "storage_parameters": managed(table.storage_parameters, ignore),
            "partition_indexes": indexes or None,
        }
    )
    data = model_data(table)
    if table.table_type is None:  # Glue holds none: say so, or the default would add one
        data["table_type"] = None
    if with_partitions and table.partition_keys and not _projected(data):
        keys = [k.name for k in table.partition_keys]
        data["partitions"] = _partitions(connection.catalog, database.name, live, keys, ignore)
    return data


def _typed_columns(live: Shape) -> None:
    """A column Glue holds without a type would be declared with one (plan would then change it)."""
    descriptor = live.get("StorageDescriptor") or {}
    for column in [*(descriptor.get("Columns") or []), *(live.get("PartitionKeys") or [])]:
        if not column.get("Type"):
            raise NotModelled(
                f"Glue holds the column {column.get('Name')!r} without a type, which no table file can say"
            )


def registration(live: Shape, reason: str) -> dict[str, Any]:
    """The live table as the TableInput that recreates it, exactly."""
    table_input = {k: live[k] for k in CARRIED_TABLE_KEYS if k in live}
    return {"format": "registration", "reason": reason, "table_input": table_input}


def _projected(data: dict[str, Any]) -> bool:
    projection = data.get("projection")
    return isinstance(projection, dict) and projection.get("enabled", True) is not False


def _partitions(
    catalog: Catalog, database: str, live: Shape, keys: list[str], ignore: tuple[str, ...]
) -> list[dict[str, Any]]:
    """Read page by page and folded as each page arrives, then dropped."""
    template = live.get("StorageDescriptor") or {}
    folder = PartitionFolder(keys, template.get("Location"))
    own_of = OwnReader(template, ignore)

    def fold(page: list[Shape]) -> None:
        locations = [(p.get("StorageDescriptor") or {}).get("Location", "") for p in page]
        folder.add([p["Values"] for p in page], locations, [own_of(p) for p in page])

    catalog.each_partition_page(database, live["Name"], EXPECTED_PARTITIONS, fold)
    return folder.items()


def _iceberg(connection: Connection, live: Shape) -> IcebergTable:
    from gluecat.backends.iceberg_types import type_text  # pyiceberg: loaded for Iceberg tables alone

    location = (live.get("Parameters") or {}).get("metadata_location")
    if not location:
        raise NotModelled("registered as Iceberg, but Glue holds no metadata_location for it")
    try:
        metadata = connection.iceberg.read_metadata(location)
    except GluecatError as exc:
        raise NotModelled(f"its Iceberg metadata cannot be read ({exc})") from exc
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
    descriptor = live.get("StorageDescriptor") or {}
    if registered_for_athena(live) and not descriptor.get("Columns"):
        raise NotModelled("registered Athena-style (table_type=DELTA, no columns): Athena reads the Delta log itself")
    location = descriptor.get("Location")
    try:
        log = connection.delta.read(location) if location else None
    except GluecatError as exc:
        raise NotModelled(f"its Delta log cannot be read ({exc})") from exc
    if log is None:
        raise NotModelled(f"registered as Delta, but no Delta log is reachable at {location or '(no location)'}")
    glue_columns = {c["Name"].lower(): c for c in descriptor.get("Columns") or []}
    columns = [
        Column(name=name, type=text, comment=glue_columns.get(name.lower(), {}).get("Comment"))
        for name, text in log.columns.items()
    ]
    parameters = {k: v for k, v in managed(live.get("Parameters") or {}, ignore).items() if k not in DELTA_PARAMETERS}
    table = DeltaTable(
        name=live["Name"],
        format="delta",
        description=log.description or live.get("Description") or None,
        location=location,
        columns=columns,
        partition_columns=log.partition_columns,
        properties=log.configuration,
        parameters=parameters,
    )
    missing = _unlike_registration(live, dict(delta_table_input(table, str(location))))
    if missing:
        raise NotModelled(f"registered as Delta without {missing}, which gluecat's own Delta registration sets")
    return table


def _unlike_registration(live: Shape, registered: Shape) -> str | None:
    """The first field gluecat's own Delta registration sets that the live one lacks or holds otherwise."""
    live_descriptor, descriptor = live.get("StorageDescriptor") or {}, registered["StorageDescriptor"]
    live_serde, serde = live_descriptor.get("SerdeInfo") or {}, descriptor["SerdeInfo"]
    pairs = {
        **{f"parameters.{k}": ((live.get("Parameters") or {}).get(k), v) for k, v in DELTA_PARAMETERS.items()},
        **{
            f"serde.parameters.{k}": ((live_serde.get("Parameters") or {}).get(k), v)
            for k, v in serde["Parameters"].items()
        },
        "table_type": (live.get("TableType"), registered["TableType"]),
        "input_format": (live_descriptor.get("InputFormat"), descriptor["InputFormat"]),
        "output_format": (live_descriptor.get("OutputFormat"), descriptor["OutputFormat"]),
        "serde.library": (live_serde.get("SerializationLibrary"), serde["SerializationLibrary"]),
    }
    return next((f"{field} = {want}" for field, (have, want) in pairs.items() if have != want), None)


def lint_exceptions(database: Database, name: str, data: dict[str, Any]) -> list[str]:
    """The lint rules (errors only) the adopted table breaks as Glue holds it."""
    model_class: Callable[..., Any] = TABLE_MODELS[data.get("format", "hive")].model_validate
    model = model_class({"name": name, **data})
    nowhere = Path(name)
    table = LoadedTable(model, SourceFile(nowhere, data))
    owner = LoadedDatabase(database, SourceFile(nowhere, {}), (table,))
    return sorted({hit.rule for hit in table_rules(table, owner) if hit.severity == "error"})


def reason_of(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        return "; ".join(_error_text(error["loc"], error["msg"]) for error in exc.errors())
    return str(exc)


def _error_text(loc: tuple[int | str, ...], message: str) -> str:
    where = ".".join(map(str, loc))
    message = pydantic_plain(message)
    return f"{where}: {message}" if where and where != "name" else message  # name errors quote the name


def database_exceptions(database: Database) -> list[str]:
    """The lint rules (errors only) the adopted database breaks as Glue holds it."""
    loaded = LoadedDatabase(database, SourceFile(Path(database.name), {}), ())
    return sorted({hit.rule for hit in database_rules(loaded) if hit.severity == "error"})
