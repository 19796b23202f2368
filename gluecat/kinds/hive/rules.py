"""Lint rules of Hive-format tables: partition keys, declared partitions, projection, indexes, SerDes."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from gluecat.convert.locations import table_location
from gluecat.convert.storage import resolve_storage
from gluecat.model import HiveTable, PartitionEntry, PartitionGenerator
from gluecat.model.partition_values import value_problem
from gluecat.model.partitions import MAX_PARTITIONS, expand_item, partition_count
from gluecat.model.storage import STORAGE_FORMATS
from gluecat.project import checks
from gluecat.project.checks import MAX_DUPLICATES_SHOWN, Hit
from gluecat.project.engine_check import hive_problems
from gluecat.project.index_check import index_problems
from gluecat.project.load import LoadedDatabase, LoadedTable
from gluecat.project.projection_check import projection_problems
from gluecat.project.rule_ids import declare

KEY_IS_COLUMN_RULE = declare("partition-key-is-column", "a partition key repeated as a column")
PARTITION_COUNT_RULE = declare("partition-count", "more partitions in one table than gluecat plans")
DUPLICATE_PARTITION_RULE = declare("duplicate-partition", "the same partition declared twice")
PARTITION_KEYS_RULE = declare("partition-keys", "partitions declared on a table without partition keys")
PARTITION_VALUES_RULE = declare("partition-values", "partition values that miss a key or do not parse as its type")
TABLE_LOCATION_RULE = declare("table-location", "a table without a location in a database without one")
ENGINE_TYPES_RULE = declare("engine-types", "typed columns of an OpenCSVSerde table, read as text by engines (warning)")


def _model(table: LoadedTable) -> HiveTable:
    assert isinstance(table.model, HiveTable)
    return table.model


def partition_key_names(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    for index, key in enumerate(_model(table).partition_keys):
        yield from checks.name_hit(("partition_keys", index, "name"), key.name, "partition key")


def partition_key_is_column(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    model = _model(table)
    names = {column.name.lower() for column in model.columns}
    for index, key in enumerate(model.partition_keys):
        if key.name.lower() in names:
            yield Hit(
                ("partition_keys", index, "name"),
                KEY_IS_COLUMN_RULE,
                f"partition key '{key.name}' repeats a column: Glue and Spark keep partition"
                " keys apart from columns; remove it from `columns`",
            )


def duplicate_partition_keys(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    keys = [k.name for k in _model(table).partition_keys]
    yield from checks.repeated(table, "partition_keys", list(keys), "this partition key")


def duplicate_partitions(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    """The same partition twice (two entries, an entry and a generator, a repeated axis value)."""
    model = _model(table)
    if not model.partitions or not model.partition_keys:
        return
    keys = [key.name for key in model.partition_keys]
    if any(sorted(_item_keys(item)) != sorted(keys) for item in model.partitions):
        return  # partition-values reports it
    if partition_count(model.partitions) > MAX_PARTITIONS:
        yield Hit(("partitions",), PARTITION_COUNT_RULE, f"more than {MAX_PARTITIONS:,} partitions in one table")
        return
    if not _may_repeat(model.partitions):
        return
    first: dict[tuple[str, ...], int] = {}
    shown = 0
    for index, item in enumerate(model.partitions):
        for values, _location in expand_item(item, keys):
            if values not in first:
                first[values] = index
                continue
            shown += 1
            if shown <= MAX_DUPLICATES_SHOWN:
                named = ", ".join(f"{key}={value}" for key, value in zip(keys, values, strict=True))
                where = (
                    "this generator" if first[values] == index else checks.line_of(table, ("partitions", first[values]))
                )
                message = f"partition ({named}) is declared twice: here and by {where}; remove one"
                yield Hit(("partitions", index), DUPLICATE_PARTITION_RULE, message)
    if shown > MAX_DUPLICATES_SHOWN:
        message = f"{shown - MAX_DUPLICATES_SHOWN:,} more partitions are declared twice"
        yield Hit(("partitions",), DUPLICATE_PARTITION_RULE, message)


def _may_repeat(items: list[PartitionEntry | PartitionGenerator]) -> bool:
    """False when one entry or generator alone cannot yield a partition twice (the common case:
    expanding it only to find no duplicate would cost more than the rest of validation)."""
    if len(items) > 1:
        return True
    item = items[0]
    if isinstance(item, PartitionEntry):
        return False
    # A date range with its own `format` may print two dates alike; lists may repeat a value.
    return any(len(set(a)) != len(a) if isinstance(a, list) else a.format is not None for a in item.expand.values())


def _item_keys(item: PartitionEntry | PartitionGenerator) -> list[str]:
    return list(item.values) if isinstance(item, PartitionEntry) else list(item.expand)


def partition_values(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    model = _model(table)
    if model.partitions is None:
        return
    keys = [key.name for key in model.partition_keys]
    if not keys and model.partitions:
        yield Hit(("partitions",), PARTITION_KEYS_RULE, "partitions are declared but no partition_keys")
        return
    for index, item in enumerate(model.partitions):
        given = _item_keys(item)
        field = "values" if isinstance(item, PartitionEntry) else "expand"
        if sorted(given) != sorted(keys):
            yield Hit(
                ("partitions", index, field),
                PARTITION_VALUES_RULE,
                f"give a value for each partition key ({', '.join(keys)}), not {', '.join(given)}",
            )
    yield from itertools.islice(_partition_value_types(model), MAX_DUPLICATES_SHOWN)


def _partition_value_types(model: HiveTable) -> Iterator[Hit]:
    """Declared values that do not parse as their key's type: Glue stores any string, and readers
    then find no rows (Athena's partition pruning) or fail on the partition."""
    types = {key.name: key.type for key in model.partition_keys}
    for index, item in enumerate(model.partitions or []):
        pairs: list[tuple[tuple[str | int, ...], str, str]]
        if isinstance(item, PartitionEntry):
            pairs = [(("values", key), key, value) for key, value in item.values.items()]
        else:
            pairs = [
                (("expand", key, position), key, value)
                for key, axis in item.expand.items()
                if isinstance(axis, list)
                for position, value in enumerate(axis)
            ]
        for loc, key, value in pairs:
            problem = value_problem(str(value), types.get(key, "string"))
            if problem:
                yield Hit(("partitions", index, *loc), PARTITION_VALUES_RULE, f"{key} = {value!r}: {problem}")


def hive_location(table: LoadedTable, database: LoadedDatabase) -> Iterator[Hit]:
    model = _model(table)
    if not table_location(model, database.model):
        yield Hit(
            ("name",),
            TABLE_LOCATION_RULE,
            "table has no `location` and its database has none to place it under",
        )


OPENCSV_SERDE = STORAGE_FORMATS["opencsv"].serde


def opencsv_types(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    """OpenCSVSerde hands every field over as text: Trino, Hive and Spark show each column as
    `varchar`/string whatever it declares; only Athena parses the declared types."""
    model = _model(table)
    if resolve_storage(model).serde_library != OPENCSV_SERDE:
        return
    typed = [(index, c.name) for index, c in enumerate(model.columns) if c.type != "string"]
    if typed:
        names = ", ".join(name for _, name in typed)
        yield Hit(
            ("columns", typed[0][0]),
            ENGINE_TYPES_RULE,
            f"Trino, Hive and Spark read every column of an OpenCSVSerde table as string, so {names}"
            " will be text there (only Athena parses the declared types): declare them `string` and cast"
            " in queries, or use `storage: csv` when no field is quoted",
            "warning",
        )


def trino(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    yield from checks.engine_hits(hive_problems(_model(table)))


def projection(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    for problem in projection_problems(_model(table)):
        yield Hit(problem.loc, problem.rule, problem.message, problem.severity)


def partition_indexes(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    for problem in index_problems(_model(table)):
        yield Hit(problem.loc, problem.rule, problem.message, problem.severity)
