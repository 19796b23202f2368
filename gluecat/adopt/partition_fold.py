"""Fold live partitions into the generator syntax, so a million partitions stay a readable file."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any

from gluecat.convert.locations import partition_location

MIN_RUN = 3


def fold_partitions(
    keys: Sequence[str],
    partitions: Sequence[tuple[tuple[str, ...], str, dict[str, Any]]],
    table_location: str | None,
) -> list[dict[str, Any]]:
    """Partitions as (values, location, what each holds of its own): those holding the same are folded
    together, each group into explicit entries for custom locations and one cross-product generator
    when the rest form one. A location is default only when it is exactly the Hive layout, trailing
    slash included, so every partition is rebuilt where Glue had it."""
    groups: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    owns: dict[str, dict[str, Any]] = {}
    for values, location, own in sorted(partitions, key=lambda p: (p[0], p[1])):
        signature = json.dumps(own, sort_keys=True)
        owns[signature] = own
        groups.setdefault(signature, []).append((values, location))
    items: list[dict[str, Any]] = []
    for signature, members in groups.items():
        items += [{**item, **owns[signature]} for item in _fold_group(keys, members, table_location)]
    return items


def _fold_group(
    keys: Sequence[str], partitions: Sequence[tuple[tuple[str, ...], str]], table_location: str | None
) -> list[dict[str, Any]]:
    default_placed, custom = [], []
    for values, location in partitions:
        expected = partition_location(table_location, keys, values) if table_location else None
        if location == expected:
            default_placed.append(values)
        else:
            custom.append({"values": dict(zip(keys, values, strict=True)), "location": location})
    items: list[dict[str, Any]] = []
    axes = [sorted({values[i] for values in default_placed}) for i in range(len(keys))]
    product_size = 1
    for axis in axes:
        product_size *= len(axis)
    if default_placed and product_size == len(set(default_placed)):
        items.append({"expand": {key: fold_axis(axis) for key, axis in zip(keys, axes, strict=True)}})
    else:
        items += [{"values": dict(zip(keys, values, strict=True))} for values in default_placed]
    return items + custom


def fold_axis(values: list[str]) -> Any:
    """A range when the values are a contiguous run of days, months or integers; else the list."""
    if len(values) >= MIN_RUN:
        for folder in (_days, _months, _integers):
            folded = folder(values)
            if folded is not None:
                return folded
    return list(values)


def _days(values: list[str]) -> dict[str, Any] | None:
    try:
        days = [date.fromisoformat(v) for v in values]
    except ValueError:
        return None
    if any(len(v) != 10 for v in values) or any(b - a != timedelta(days=1) for a, b in itertools.pairwise(days)):
        return None
    return {"from": values[0], "to": values[-1]}


def _months(values: list[str]) -> dict[str, Any] | None:
    try:
        months = [date.fromisoformat(v + "-01") for v in values]
    except ValueError:
        return None
    if any(len(v) != 7 for v in values):
        return None
    for a, b in itertools.pairwise(months):
        if (b.year * 12 + b.month) - (a.year * 12 + a.month) != 1:
            return None
    return {"from": values[0] + "-01", "to": values[-1] + "-01", "every": "month"}


def _integers(values: list[str]) -> dict[str, Any] | None:
    if not all(v.isdigit() and (v == "0" or not v.startswith("0")) for v in values):
        return None
    numbers = sorted(int(v) for v in values)
    if any(b - a != 1 for a, b in itertools.pairwise(numbers)):
        return None
    return {"from": numbers[0], "to": numbers[-1]}
