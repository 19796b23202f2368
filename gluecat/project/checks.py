"""What lint rules report, and the checks every kind of table shares (names, columns, locations).

Each kind lists its own rules (`gluecat.kinds`), these among them; `gluecat.lint` runs them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from gluecat.model.base import plain_name
from gluecat.model.table import columns_of
from gluecat.project.engine_check import RULE as ENGINE_TRINO_RULE
from gluecat.project.engine_check import EngineProblem
from gluecat.project.load import LoadedDatabase, LoadedTable
from gluecat.project.rule_ids import RuleId, declare
from gluecat.project.s3_names import bucket_problem
from gluecat.project.yamlparse import Loc

Severity = Literal["error", "warning"]
MAX_DUPLICATES_SHOWN = 5  # per table and rule: the first few say it all
NAME_RULE = declare("name-quoting", "a name outside a-z, 0-9 and _ (warning): the quoting Athena and Spark need")
S3_BUCKET_RULE = declare(
    "s3-bucket", "a bucket name S3 makes no bucket with (an error), or only a legacy one (a warning)"
)
S3_URI_RULE = declare("s3-uri", "a location that is not an s3:// URI")
DUPLICATE_ENTRY_RULE = declare("duplicate-entry", "an entry of a list (a partition key, a partition field) given twice")
DUPLICATE_COLUMN_RULE = declare("duplicate-column", "a column declared twice")
OUTSIDE_DATABASE_RULE = declare("location-outside-database", "a table location outside its database's (warning)")
PARTITION_COLUMN_RULE = declare("partition-column-unknown", "a partition or sort column not among `columns`")


@dataclass(frozen=True)
class Hit:
    """What a rule reports: where (a YAML path in the file it checks) and what."""

    loc: Loc
    rule: RuleId
    message: str
    severity: Severity = "error"


def name_hit(loc: Loc, name: str, what: str) -> Iterator[Hit]:
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


def bucket_hits(location: str) -> Iterator[Hit]:
    """A bucket no S3 bucket can be named is an error; one only a legacy bucket can have, a warning
    (an error in a sandbox catalog, see `gluecat.lint`)."""
    problem = bucket_problem(location)
    if problem is not None:
        message, legacy = problem
        yield Hit(("location",), S3_BUCKET_RULE, message, "warning" if legacy else "error")


def is_s3(uri: str) -> bool:
    return uri.startswith(("s3://", "s3a://"))


def line_of(table: LoadedTable, loc: Loc) -> str:
    position = table.source.position(loc)
    return f"line {position.line}:{position.column}"


def repeated(table: LoadedTable, field: str, entries: Sequence[Hashable], what: str) -> Iterator[Hit]:
    """A list entry that repeats an earlier one: reported where it repeats, naming the first."""
    first: dict[Hashable, int] = {}
    for index, entry in enumerate(entries):
        if entry in first:
            earlier = line_of(table, (field, first[entry]))
            yield Hit((field, index), DUPLICATE_ENTRY_RULE, f"{what} repeats the one at {earlier}; remove one")
        else:
            first[entry] = index


def engine_hits(problems: Iterable[EngineProblem]) -> Iterator[Hit]:
    for problem in problems:
        yield Hit(problem.loc, ENGINE_TRINO_RULE, problem.message, "warning")


# rules every kind with columns shares


def table_name(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    yield from name_hit(("name",), table.name, "table")


def column_names(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    for index, column in enumerate(columns_of(table.model)):
        yield from name_hit(("columns", index, "name"), column.name, "column")


def duplicate_columns(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    places: dict[str, list[int]] = defaultdict(list)
    for index, column in enumerate(columns_of(table.model)):
        places[column.name.lower()].append(index)  # Glue folds top-level names: `Id` and `id` collide
    for name, indexes in places.items():
        if len(indexes) == 1:
            continue
        shown = [line_of(table, ("columns", i)) for i in indexes[:MAX_DUPLICATES_SHOWN]]
        for index in indexes[:MAX_DUPLICATES_SHOWN]:
            others = ", ".join(line for i, line in zip(indexes, shown, strict=False) if i != index)
            message = f"column '{name}' is declared {len(indexes)} times (also at {others})"
            yield Hit(("columns", index, "name"), DUPLICATE_COLUMN_RULE, message)


def location(table: LoadedTable, database: LoadedDatabase) -> Iterator[Hit]:
    where = table.model.location
    if where and not is_s3(where):
        yield Hit(("location",), S3_URI_RULE, f"location '{where}' must be an s3:// URI")
    elif where:
        yield from bucket_hits(where)
    db_location = database.model.location
    if where and db_location and not where.startswith(db_location.rstrip("/")):
        yield Hit(
            ("location",),
            OUTSIDE_DATABASE_RULE,
            f"table location is outside its database location '{db_location}'",
            "warning",
        )
