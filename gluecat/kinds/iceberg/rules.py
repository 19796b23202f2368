"""Offline checks of an Iceberg table's transforms, format version and properties (Iceberg's
table spec and its table-properties page): what a plan or an engine would refuse later, or worse,
accept (`bucket[0]` makes a table no writer can divide rows into), reported at its line."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from gluecat.kinds.iceberg import PROPERTY_RULE, RENAME_RULE, TRANSFORM_RULE
from gluecat.model import IcebergTable
from gluecat.model.hivetype import Array, Char, Decimal, HiveType, Map, Primitive, Struct, Varchar, parse
from gluecat.project.checks import Hit
from gluecat.project.load import LoadedDatabase, LoadedTable

FORMAT_VERSIONS = ("1", "2", "3")
_WIDTH = re.compile(r"^(bucket|truncate)\[(\d+)\]$")

# The source types each transform takes (Iceberg spec, "Partition Transforms"), in gluecat's type names.
_INTEGERS = {"tinyint", "smallint", "int", "bigint"}
_TIMESTAMPS = {"timestamp", "timestamptz"}
_DATES = {"date"} | _TIMESTAMPS
_SOURCES: dict[str, tuple[set[str], str]] = {
    "year": (_DATES, "a date or timestamp column"),
    "month": (_DATES, "a date or timestamp column"),
    "day": (_DATES, "a date or timestamp column"),
    "hour": (_TIMESTAMPS, "a timestamp column (a date has no hours)"),
    "truncate": (_INTEGERS | {"string", "decimal", "binary"}, "a string, int, bigint, decimal or binary column"),
    "bucket": (
        _INTEGERS | _DATES | {"string", "decimal", "binary", "uuid"},
        "an int, bigint, decimal, date, timestamp, string, uuid or binary column (not float, double or boolean)",
    ),
}


def _type_name(hive_type: HiveType) -> str | None:
    """The type's family as the transform table names it; None for structs, lists and maps."""
    match hive_type:
        case Primitive(name):
            return name
        case Decimal():
            return "decimal"
        case Char() | Varchar():
            return "string"
    return None


def transforms(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    """Widths of at least 1, and each transform on a column of a type it takes."""
    model = table.model
    assert isinstance(model, IcebergTable)
    types = {c.name: c.type for c in model.columns}
    fields = [
        *((("partition_spec", i), f.column, f.transform) for i, f in enumerate(model.partition_spec)),
        *((("sort_order", i), f.column, f.transform) for i, f in enumerate(model.sort_order)),
    ]
    for (key, index), column, transform in fields:
        where = (key, index, "transform")
        width = _WIDTH.match(transform)
        if width and int(width.group(2)) < 1:
            name = width.group(1)
            example = "bucket[16]" if name == "bucket" else "truncate[10]"
            yield Hit(where, TRANSFORM_RULE, f"{transform}: the width must be at least 1 (e.g. {example})")
            continue
        family = width.group(1) if width else transform
        if family not in _SOURCES or column not in types:
            continue  # identity and void take any column; an unknown column is its own rule
        allowed, wanted = _SOURCES[family]
        source = _type_name(parse(types[column], iceberg=True))
        if source not in allowed:
            yield Hit(
                where,
                TRANSFORM_RULE,
                f"{transform} cannot take column '{column}' of type {types[column]}: it needs {wanted}",
            )


# Iceberg table properties with typed values (Iceberg's "Configuration" page, pyiceberg's TableProperties).
def _whole(minimum: int) -> Callable[[str], str | None]:
    def check(value: str) -> str | None:
        if re.fullmatch(r"-?\d+", value.strip()) and int(value) >= minimum:
            return None
        return f"a whole number{' of at least ' + str(minimum) if minimum > 0 else ''} (e.g. 536870912)"

    return check


def _boolean(value: str) -> str | None:
    return None if value.lower() in ("true", "false") else "true or false"


def _one_of(*choices: str) -> Callable[[str], str | None]:
    def check(value: str) -> str | None:
        return None if value.lower() in choices else "one of " + ", ".join(choices)

    return check


def _metrics_mode(value: str) -> str | None:
    if value.lower() in ("none", "counts", "full") or re.fullmatch(r"truncate\(\s*[1-9]\d*\s*\)", value.lower()):
        return None
    return "none, counts, full or truncate(N) with N >= 1"


_PARQUET_CODECS = ("zstd", "gzip", "snappy", "lz4", "lz4_raw", "brotli", "lzo", "uncompressed")
_SIZE = _whole(1)
_COUNT = _whole(0)
PROPERTY_TYPES: dict[str, Callable[[str], str | None]] = {
    "write.target-file-size-bytes": _SIZE,
    "write.delete.target-file-size-bytes": _SIZE,
    "write.parquet.row-group-size-bytes": _SIZE,
    "write.parquet.row-group-limit": _SIZE,
    "write.parquet.page-size-bytes": _SIZE,
    "write.parquet.page-row-limit": _SIZE,
    "write.parquet.dict-size-bytes": _SIZE,
    "write.parquet.bloom-filter-max-bytes": _SIZE,
    "write.parquet.compression-level": _whole(-(2**31)),
    "write.summary.partition-limit": _COUNT,
    "write.metadata.previous-versions-max": _SIZE,
    "commit.manifest.target-size-bytes": _SIZE,
    "commit.manifest.min-count-to-merge": _COUNT,
    "commit.retry.num-retries": _COUNT,
    "commit.retry.min-wait-ms": _COUNT,
    "commit.retry.max-wait-ms": _COUNT,
    "commit.retry.total-timeout-ms": _COUNT,
    "history.expire.max-snapshot-age-ms": _COUNT,
    "history.expire.min-snapshots-to-keep": _SIZE,
    "history.expire.max-ref-age-ms": _COUNT,
    "read.split.target-size": _SIZE,
    "write.object-storage.enabled": _boolean,
    "write.object-storage.partitioned-paths": _boolean,
    "write.metadata.delete-after-commit.enabled": _boolean,
    "commit.manifest-merge.enabled": _boolean,
    "gc.enabled": _boolean,
    "write.format.default": _one_of("parquet", "avro", "orc"),
    "write.delete.format.default": _one_of("parquet", "avro", "orc"),
    "write.delete.mode": _one_of("copy-on-write", "merge-on-read"),
    "write.update.mode": _one_of("copy-on-write", "merge-on-read"),
    "write.merge.mode": _one_of("copy-on-write", "merge-on-read"),
    "write.distribution-mode": _one_of("none", "hash", "range"),
    "write.parquet.compression-codec": _one_of(*_PARQUET_CODECS),
    "write.metadata.metrics.default": _metrics_mode,
}
_PREFIXES: dict[str, Callable[[str], str | None]] = {
    "write.parquet.bloom-filter-enabled.column.": _boolean,
    "write.metadata.metrics.column.": _metrics_mode,
}


def _property_check(key: str) -> Callable[[str], str | None] | None:
    if key in PROPERTY_TYPES:
        return PROPERTY_TYPES[key]
    return next((check for prefix, check in _PREFIXES.items() if key.startswith(prefix)), None)


def properties(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    """A known `format-version`, and each typed property's value of its type."""
    model = table.model
    assert isinstance(model, IcebergTable)
    for key, value in model.properties.items():
        if value is None:
            continue
        if key == "format-version":
            if value.strip() not in FORMAT_VERSIONS:
                yield Hit(
                    ("properties", key),
                    PROPERTY_RULE,
                    f"format-version {value} does not exist: Iceberg has 1, 2 and 3 (2 is the default)",
                )
            continue
        check = _property_check(key)
        wanted = check(value) if check else None
        if wanted:
            yield Hit(("properties", key), PROPERTY_RULE, f"property {key} takes {wanted}, not '{value}'")


def _struct_field(hive_type: HiveType, path: list[str]) -> tuple[bool, list[str]]:
    """Whether `path` (new names) leads to a struct field of the type; else the names it could take."""
    step, rest = path[0], path[1:]
    match hive_type:
        case Struct(fields):
            names = {f.name: f.type for f in fields}
            if step not in names:
                return False, list(names)
            return (True, []) if not rest else _struct_field(names[step], rest)
        case Array(element) if step == "element" and rest:
            return _struct_field(element, rest)
        case Map(_, value) if step == "value" and rest:
            return _struct_field(value, rest)
        case Array():
            return False, ["element"]
        case Map():
            return False, ["value"]
    return False, []


def renames(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    """`renamed_from` names another name than the column's and than every declared column's;
    `renamed_fields` names struct fields the column's type has."""
    model = table.model
    assert isinstance(model, IcebergTable)
    declared = {c.name for c in model.columns}
    for index, column in enumerate(model.columns):
        earlier = column.renamed_from
        if earlier is not None and (earlier == column.name or earlier in declared):
            why = "is the column's own name" if earlier == column.name else "is declared as a column too"
            yield Hit(
                ("columns", index, "renamed_from"),
                RENAME_RULE,
                f"renamed_from: `{earlier}` {why}: it names the column's earlier name, which no column has now",
            )
        hive_type = parse(column.type, iceberg=True)
        for inner, before in column.renamed_fields.items():
            found, names = _struct_field(hive_type, inner.split("."))
            if not found:
                known = f" (here: {', '.join(names)})" if names else ""
                yield Hit(
                    ("columns", index, "renamed_fields", inner),
                    RENAME_RULE,
                    f"renamed_fields: `{inner}` is no struct field of {column.type}; name one by its new"
                    f" path in the column, `element` for a list's element, `value` for a map's{known}",
                )
            elif before == inner.split(".")[-1]:
                yield Hit(
                    ("columns", index, "renamed_fields", inner),
                    RENAME_RULE,
                    f"renamed_fields: `{inner}` is renamed from its own name `{before}`: remove it",
                )
