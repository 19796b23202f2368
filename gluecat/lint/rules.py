"""Lint rules over a loaded project (SPEC §5). Each rule yields findings with a YAML path."""

from __future__ import annotations

import difflib
import itertools
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

from gluecat.convert.locations import table_location
from gluecat.convert.storage import resolve_storage
from gluecat.errors import SourcePosition
from gluecat.model import (
    DeltaTable,
    HiveTable,
    IcebergTable,
    LintPolicy,
    PartitionEntry,
    PartitionGenerator,
    RegistrationTable,
)
from gluecat.model.base import plain_name
from gluecat.model.partition_values import value_problem
from gluecat.model.partitions import MAX_PARTITIONS, expand_item, partition_count
from gluecat.model.storage import STORAGE_FORMATS
from gluecat.project.engine_check import RULE as ENGINE_TRINO_RULE
from gluecat.project.engine_check import trino_problems
from gluecat.project.index_check import index_problems
from gluecat.project.load import LoadedDatabase, LoadedTable, Project
from gluecat.project.projection_check import projection_problems
from gluecat.project.regions import region_problem
from gluecat.project.s3_names import bucket_problem
from gluecat.project.yamlparse import Loc

Severity = Literal["error", "warning"]
MAX_DUPLICATES_SHOWN = 5  # per table and rule: the first few say it all
NAME_RULE = "name-quoting"
S3_BUCKET_RULE = "s3-bucket"


@dataclass(frozen=True)
class Finding:
    position: SourcePosition
    severity: Severity
    rule: str
    message: str
    address: str = ""  # the database or database.table it is about

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
    findings: list[Finding] = list(_regions(project))
    sandbox = project.config.sandbox
    for database in project.databases:
        hits = excusing(database_rules(database), database.model.lint)
        findings.extend(_finding(database.source.position(hit.loc), hit, database.name, sandbox) for hit in hits)
        for table in database.tables:
            address = f"{database.name}.{table.name}"
            hits = excusing(table_rules(table, database), table.model.lint)
            findings.extend(_finding(table.source.position(hit.loc), hit, address, sandbox) for hit in hits)
    return findings


def _regions(project: Project) -> Iterator[Finding]:
    """A sandbox catalog's regions against botocore's list: a typo there would fail only deep in the
    local server. (Against AWS, connecting checks the region with the same did-you-mean.)"""
    if not project.config.sandbox:
        return
    data = project.source.data
    named: list[tuple[Loc, object]] = [(("region",), data.get("region"))]
    environments = data.get("environments")
    if isinstance(environments, dict):
        named += [
            (("environments", name, "region"), settings.get("region"))
            for name, settings in environments.items()
            if isinstance(settings, dict)
        ]
    for loc, region in named:
        problem = region_problem(region) if isinstance(region, str) else None
        if problem:
            yield Finding(project.source.position(loc), "error", "region", problem, "catalog")


def excusing(hits: Iterable[Hit], policy: LintPolicy | None) -> Iterator[Hit]:
    """The hits, less the rules the file excuses (`lint: {allow: [rule]}`); unknown rules named."""
    allow = policy.allow if policy else []
    yield from (hit for hit in hits if hit.rule not in allow)
    for index, rule in enumerate(allow):
        if rule not in RULE_IDS:
            close = difflib.get_close_matches(rule, RULE_IDS, n=1)
            hint = f"did you mean '{close[0]}'?" if close else f"known rules: {', '.join(sorted(RULE_IDS))}"
            yield Hit(("lint", "allow", index), "lint-allow", f"unknown lint rule '{rule}' in `lint.allow` — {hint}")


def _finding(position: SourcePosition, hit: Hit, address: str, sandbox: bool = False) -> Finding:
    # The sandbox makes its buckets under today's rules; AWS keeps legacy buckets named otherwise.
    severity: Severity = "error" if sandbox and hit.rule == S3_BUCKET_RULE else hit.severity
    return Finding(position, severity, hit.rule, hit.message, address)


def database_rules(database: LoadedDatabase) -> Iterator[Hit]:
    yield from _name_hit(("name",), database.name, "database")
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
    else:
        yield from _bucket(location)


def table_rules(table: LoadedTable, database: LoadedDatabase) -> Iterator[Hit]:
    if isinstance(table.model, RegistrationTable):
        # Carried verbatim: nothing else of it is gluecat's to judge, but readers may refuse it.
        yield from _names(table, database)
        yield from _trino(table, database)
        return
    for rule in TABLE_RULES:
        yield from rule(table, database)


def _name_hit(loc: Loc, name: str, what: str) -> Iterator[Hit]:
    """Any name Glue accepts is fine; one Athena or Spark cannot take bare needs quoting there."""
    if plain_name(name):
        return
    folded = name.lower()
    if plain_name(folded):
        message = f"{what} name '{name}': Glue stores it as '{folded}'"
    else:
        message = (
            f"{what} name '{name}' holds characters outside a-z, 0-9 and '_': quote it in Athena"
            f' as "{folded}" and in Spark as `{folded}`'
        )
    yield Hit(loc, NAME_RULE, message, "warning")


def _names(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    model = table.model
    yield from _name_hit(("name",), table.name, "table")
    if isinstance(model, RegistrationTable):
        return
    for index, column in enumerate(model.columns):
        yield from _name_hit(("columns", index, "name"), column.name, "column")
    if isinstance(model, HiveTable):
        for index, key in enumerate(model.partition_keys):
            yield from _name_hit(("partition_keys", index, "name"), key.name, "partition key")


def _bucket(location: str) -> Iterator[Hit]:
    """A bucket no S3 bucket can be named is an error; one only a legacy bucket can have, a warning
    (an error in a sandbox catalog, see `_finding`)."""
    problem = bucket_problem(location)
    if problem is not None:
        message, legacy = problem
        yield Hit(("location",), S3_BUCKET_RULE, message, "warning" if legacy else "error")


def _is_s3(uri: str) -> bool:
    return uri.startswith(("s3://", "s3a://"))


def _duplicate_columns(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    model = table.model
    assert not isinstance(model, RegistrationTable)
    places: dict[str, list[int]] = defaultdict(list)
    for index, column in enumerate(model.columns):
        places[column.name.lower()].append(index)  # Glue folds top-level names: `Id` and `id` collide
    for name, indexes in places.items():
        if len(indexes) == 1:
            continue
        shown = [_line_of(table, ("columns", i)) for i in indexes[:MAX_DUPLICATES_SHOWN]]
        for index in indexes[:MAX_DUPLICATES_SHOWN]:
            others = ", ".join(line for i, line in zip(indexes, shown, strict=False) if i != index)
            message = f"column '{name}' is declared {len(indexes)} times (also at {others})"
            yield Hit(("columns", index, "name"), "duplicate-column", message)
    if isinstance(model, HiveTable):
        names = set(places)
        for index, key in enumerate(model.partition_keys):
            if key.name.lower() in names:
                yield Hit(
                    ("partition_keys", index, "name"),
                    "partition-key-is-column",
                    f"partition key '{key.name}' repeats a column: Glue and Spark keep partition"
                    " keys apart from columns; remove it from `columns`",
                )


def _line_of(table: LoadedTable, loc: Loc) -> str:
    position = table.source.position(loc)
    return f"line {position.line}:{position.column}"


def _repeated(table: LoadedTable, field: str, entries: list[Hashable], what: str) -> Iterator[Hit]:
    """A list entry that repeats an earlier one: reported where it repeats, naming the first."""
    first: dict[Hashable, int] = {}
    for index, entry in enumerate(entries):
        if entry in first:
            earlier = _line_of(table, (field, first[entry]))
            yield Hit((field, index), "duplicate-entry", f"{what} repeats the one at {earlier}; remove one")
        else:
            first[entry] = index


def _duplicate_entries(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    model = table.model
    if isinstance(model, HiveTable):
        yield from _repeated(table, "partition_keys", [k.name for k in model.partition_keys], "this partition key")
    if isinstance(model, DeltaTable):
        yield from _repeated(table, "partition_columns", list(model.partition_columns), "this partition column")
    if isinstance(model, IcebergTable):
        spec: list[Hashable] = [(f.column, f.transform) for f in model.partition_spec]
        yield from _repeated(table, "partition_spec", spec, "this partition field")
        yield from _repeated(table, "sort_order", [f.column for f in model.sort_order], "this sort column")


def _duplicate_partitions(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    """The same partition twice (two entries, an entry and a generator, a repeated axis value)."""
    model = table.model
    if not isinstance(model, HiveTable) or not model.partitions or not model.partition_keys:
        return
    keys = [key.name for key in model.partition_keys]
    if any(sorted(_item_keys(item)) != sorted(keys) for item in model.partitions):
        return  # partition-values reports it
    if partition_count(model.partitions) > MAX_PARTITIONS:
        yield Hit(("partitions",), "partition-count", f"more than {MAX_PARTITIONS:,} partitions in one table")
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
                where = "this generator" if first[values] == index else _line_of(table, ("partitions", first[values]))
                message = f"partition ({named}) is declared twice: here and by {where}; remove one"
                yield Hit(("partitions", index), "duplicate-partition", message)
    if shown > MAX_DUPLICATES_SHOWN:
        message = f"{shown - MAX_DUPLICATES_SHOWN:,} more partitions are declared twice"
        yield Hit(("partitions",), "duplicate-partition", message)


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
    elif model.location:
        yield from _bucket(model.location)
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
    assert not isinstance(model, RegistrationTable)
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
        given = _item_keys(item)
        field = "values" if isinstance(item, PartitionEntry) else "expand"
        if sorted(given) != sorted(keys):
            yield Hit(
                ("partitions", index, field),
                "partition-values",
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
                yield Hit(("partitions", index, *loc), "partition-values", f"{key} = {value!r}: {problem}")


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


OPENCSV_SERDE = STORAGE_FORMATS["opencsv"].serde


def _opencsv_types(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    """OpenCSVSerde hands every field over as text: Trino, Hive and Spark show each column as
    `varchar`/string whatever it declares; only Athena parses the declared types."""
    model = table.model
    if not isinstance(model, HiveTable) or resolve_storage(model).serde_library != OPENCSV_SERDE:
        return
    typed = [(index, c.name) for index, c in enumerate(model.columns) if c.type != "string"]
    if typed:
        names = ", ".join(name for _, name in typed)
        yield Hit(
            ("columns", typed[0][0]),
            "engine-types",
            f"Trino, Hive and Spark read every column of an OpenCSVSerde table as string, so {names}"
            " will be text there (only Athena parses the declared types): declare them `string` and cast"
            " in queries, or use `storage: csv` when no field is quoted",
            "warning",
        )


def _trino(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    for problem in trino_problems(table.model):
        yield Hit(problem.loc, ENGINE_TRINO_RULE, problem.message, "warning")


def _projection(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    if isinstance(table.model, HiveTable):
        for problem in projection_problems(table.model):
            yield Hit(problem.loc, problem.rule, problem.message, problem.severity)


def _partition_indexes(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    if isinstance(table.model, HiveTable):
        for problem in index_problems(table.model):
            yield Hit(problem.loc, problem.rule, problem.message, problem.severity)


TABLE_RULES: tuple[Callable[[LoadedTable, LoadedDatabase], Iterator[Hit]], ...] = (
    _names,
    _duplicate_columns,
    _duplicate_entries,
    _duplicate_partitions,
    _location,
    _partition_columns,
    _partition_values,
    _hive_location,
    _iceberg_parameters,
    _opencsv_types,
    _trino,
    _projection,
    _partition_indexes,
)

# Every rule id a finding can carry: what `lint: {allow: [...]}` may name.
RULE_IDS = frozenset(
    {
        NAME_RULE, "lint-allow", "database-location", "s3-uri", S3_BUCKET_RULE, "duplicate-column",
        "partition-key-is-column",
        "duplicate-entry", "duplicate-partition", "partition-count", "delta-location",
        "location-outside-database", "partition-column-unknown", "partition-keys", "partition-values",
        "table-location", "iceberg-parameters", "projection-engines", "projection-partitions",
        "projection-keys", "projection-template", "projection-settings", "projection-enum",
        "projection-range", "projection-interval", "projection-format", "engine-types", ENGINE_TRINO_RULE,
    }
)  # fmt: skip
