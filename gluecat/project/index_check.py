"""What Glue refuses about partition indexes only when apply creates them, checked offline."""

from __future__ import annotations

from collections.abc import Iterator

from gluecat.model import HiveTable
from gluecat.model.partition_index import INDEXABLE_TYPES, MAX_INDEXES
from gluecat.project.projection_check import Problem
from gluecat.project.rule_ids import declare

RULE = declare("partition-index", "a partition index Glue would refuse at apply (keys, types, how many)")


def index_problems(table: HiveTable) -> Iterator[Problem]:
    indexes = table.partition_indexes or []
    types = {key.name: key.type for key in table.partition_keys}
    if indexes and not types:
        yield Problem(("partition_indexes",), RULE, "partition indexes need `partition_keys` to index")
        return
    if len(indexes) > MAX_INDEXES:
        yield Problem(
            ("partition_indexes", MAX_INDEXES),
            RULE,
            f"a table has at most {MAX_INDEXES} partition indexes (a Glue limit); remove {len(indexes) - MAX_INDEXES}",
        )
    seen: dict[str, int] = {}
    for position, index in enumerate(indexes):
        if index.name in seen:
            yield Problem(
                ("partition_indexes", position, "name"),
                RULE,
                f"index name '{index.name}' is used twice (also entry {seen[index.name] + 1}); rename one",
            )
        seen.setdefault(index.name, position)
        yield from _keys(position, index.keys, types)


def _keys(position: int, keys: list[str], types: dict[str, str]) -> Iterator[Problem]:
    for at, key in enumerate(keys):
        loc = ("partition_indexes", position, "keys", at)
        if key in keys[:at]:
            yield Problem(loc, RULE, f"key '{key}' is repeated in this index; list it once")
        elif key not in types:
            known = ", ".join(types)
            yield Problem(loc, RULE, f"'{key}' is not a partition key: an index takes keys from {known}")
        elif _base_type(types[key]) not in INDEXABLE_TYPES:
            yield Problem(
                loc,
                RULE,
                f"partition key '{key}' is {types[key]}: Glue indexes only string, char, varchar,"
                " tinyint, smallint, int, bigint and date keys",
            )


def _base_type(type_text: str) -> str:
    return type_text.split("(", 1)[0].strip().lower()
