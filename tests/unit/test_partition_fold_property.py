"""Folding live partitions is lossless: expanding what import writes gives back every partition, with
its location and what it holds of its own, whatever order the pages came in and however often a
partition was read."""

from __future__ import annotations

import json
from datetime import date, timedelta
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from gluecat.convert.locations import partition_location
from gluecat.kinds.hive.partition_fold import PartitionFolder, fold_partitions
from gluecat.model.partitions import PartitionItem, expand_item

TABLE_LOCATION = "s3://lake/events"
ITEM = TypeAdapter(PartitionItem)
OWNS: list[dict[str, Any]] = [
    {},
    {"parameters": {"classification": "csv"}},
    {"storage_parameters": {"compressionType": "gzip"}},
    {"parameters": {"classification": "csv"}, "extra": {"StorageDescriptor": {"NumberOfBuckets": 4}}},
]
Partition = tuple[tuple[str, ...], str, dict[str, Any]]


def _days(start: int, count: int, gap: bool) -> list[str]:
    first = date(2024, 1, 1) + timedelta(days=start)
    days = [first + timedelta(days=i) for i in range(count)]
    return [d.isoformat() for d in ([*days[:-1], days[-1] + timedelta(days=3)] if gap and count > 1 else days)]


axes = st.one_of(
    st.builds(_days, st.integers(0, 400), st.integers(1, 6), st.booleans()),
    st.lists(st.integers(0, 30).map(str), min_size=1, max_size=6, unique=True),  # runs of integers, or not
    st.lists(st.sampled_from(["01", "02", "03", "007"]), min_size=1, max_size=4, unique=True),  # zero-padded
    st.lists(
        st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=6),
        min_size=1,
        max_size=4,
        unique=True,
    ),
)


@st.composite
def live_partitions(draw: st.DrawFn) -> tuple[list[str], list[Partition]]:
    keys = draw(st.lists(st.sampled_from(["dt", "region", "n"]), min_size=1, max_size=3, unique=True))
    product: list[tuple[str, ...]] = [()]
    for axis in [draw(axes) for _ in keys]:
        product = [(*values, value) for values in product for value in axis]
    chosen = product if draw(st.booleans()) else draw(st.lists(st.sampled_from(product), min_size=1, unique=True))
    partitions = []
    for values in chosen:
        default = partition_location(TABLE_LOCATION, keys, values)
        location = draw(st.sampled_from([default, default, default.rstrip("/"), f"s3://elsewhere/{len(values)}/x"]))
        partitions.append((values, location, draw(st.sampled_from(OWNS))))
    return keys, partitions


def _expanded(keys: list[str], items: list[dict[str, Any]]) -> list[tuple[tuple[str, ...], str, str]]:
    found = []
    for data in items:
        item = ITEM.validate_python(data)
        own = {k: data[k] for k in ("parameters", "storage_parameters", "extra") if k in data}
        for values, location in expand_item(item, keys):
            where = location if location is not None else partition_location(TABLE_LOCATION, keys, values)
            found.append((tuple(values), where, json.dumps(own, sort_keys=True)))
    return sorted(found)


@settings(max_examples=300, deadline=None)
@given(live_partitions(), st.randoms(use_true_random=False), st.integers(1, 5))
def test_folded_partitions_expand_to_exactly_the_live_ones_in_any_page_order(
    live: tuple[list[str], list[Partition]], random: Any, pages: int
) -> None:
    keys, partitions = live
    items = fold_partitions(keys, partitions, TABLE_LOCATION)

    assert _expanded(keys, items) == sorted((v, loc, json.dumps(own, sort_keys=True)) for v, loc, own in partitions)
    shuffled = list(partitions)
    random.shuffle(shuffled)
    folder = PartitionFolder(keys, TABLE_LOCATION)
    shuffled += shuffled[: random.randrange(len(shuffled) + 1)]  # some read twice, as a changing table's pages may
    for page in range(pages):  # pages from parallel segments arrive in any order
        chunk = shuffled[page::pages]
        folder.add([values for values, _, _ in chunk], [where for _, where, _ in chunk], [own for _, _, own in chunk])
    assert folder.items() == items
    assert _group_firsts(keys, items) == sorted(_group_firsts(keys, items))  # groups in order of their first


def _group_firsts(keys: list[str], items: list[dict[str, Any]]) -> list[tuple[tuple[str, ...], str]]:
    """Each group's first partition (values, location), groups in the order items gives them."""
    firsts: dict[str, tuple[tuple[str, ...], str]] = {}
    for data in items:
        for values, where, own in _expanded(keys, [data]):
            firsts[own] = min(firsts.get(own, (values, where)), (values, where))
    return list(firsts.values())
