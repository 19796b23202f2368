"""Fold live partitions into the generator syntax, so a million partitions stay a readable file."""

from __future__ import annotations

import itertools
import json
import math
import operator
import threading
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from gluecat.convert.locations import PartitionPaths

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
    folder = PartitionFolder(keys, table_location)
    if partitions:
        values, locations, owns = zip(*partitions, strict=True)
        folder.add(values, locations, owns)
    return folder.items()


@dataclass
class _Group:
    """The partitions holding the same of their own: default-placed ones by values alone, with each
    key's values among them and the least of them, so that folding them needs no pass over them all.
    Sets: a partition read twice (from pages of a table that changed meanwhile) is held once."""

    arity: int
    default_placed: set[tuple[str, ...]] = field(default_factory=set)
    axes: list[set[str]] = field(init=False)
    least: tuple[str, ...] | None = None
    custom: set[tuple[tuple[str, ...], str]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.axes = [set() for _ in range(self.arity)]

    def place(self, placed: list[tuple[str, ...]]) -> None:
        """A page's default-placed partitions, taken in while the page is fresh in memory."""
        if not placed:
            return
        self.default_placed.update(placed)
        for index, axis in enumerate(self.axes):
            axis.update(map(operator.itemgetter(index), placed))
        least = min(placed)
        if self.least is None or least < self.least:
            self.least = least


class PartitionFolder:
    """`fold_partitions` page by page (`add` is thread-safe: pages come from parallel segments):
    a partition leaves behind its values, and its location only when that is not the default, so a
    table's million partitions are never held whole."""

    def __init__(self, keys: Sequence[str], table_location: str | None) -> None:
        self.keys = tuple(keys)
        self._paths = PartitionPaths(table_location, keys) if table_location else None
        self._groups: dict[str, _Group] = {}
        self._owns: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    def add(self, values: Sequence[Sequence[str]], locations: Sequence[str], owns: Sequence[dict[str, Any]]) -> None:
        """A page of partitions, one list per attribute: their values, locations and own fields."""
        defaults: list[str] | list[None] = [None] * len(values) if self._paths is None else self._paths.of_each(values)
        with self._lock:
            placed: defaultdict[str, list[tuple[str, ...]]] = defaultdict(list)  # by what they hold of their own
            for each, location, own, default in zip(values, locations, owns, defaults, strict=True):
                signature = json.dumps(own, sort_keys=True) if own else ""
                group = self._group(signature, own)
                if location == default:
                    placed[signature].append(tuple(each))
                else:
                    group.custom.add((tuple(each), location))
            for signature, page in placed.items():
                self._groups[signature].place(page)

    def _group(self, signature: str, own: dict[str, Any]) -> _Group:
        group = self._groups.get(signature)
        if group is None:
            group = self._groups[signature] = _Group(len(self.keys))
            self._owns[signature] = own
        return group

    def items(self) -> list[dict[str, Any]]:
        """The folded entries, groups in the order of their first partition (values, then location)."""
        items: list[dict[str, Any]] = []
        for signature in sorted(self._groups, key=lambda signature: self._first(self._groups[signature])):
            own = self._owns[signature]
            items += [{**item, **own} for item in _fold_group(self.keys, self._groups[signature])]
        return items

    def _first(self, group: _Group) -> tuple[tuple[str, ...], str]:
        """The group's least (values, location): a group is made for a partition, so it holds one."""
        firsts = [min(group.custom)] if group.custom else []
        if group.least is not None and self._paths is not None:
            firsts.append((group.least, self._paths.of(group.least)))
        return min(firsts)


def _fold_group(keys: Sequence[str], group: _Group) -> list[dict[str, Any]]:
    distinct = group.default_placed
    custom = [
        {"values": dict(zip(keys, values, strict=True)), "location": location}
        for values, location in sorted(group.custom)
    ]
    axes = [sorted(axis) for axis in group.axes]
    if distinct and math.prod(len(axis) for axis in axes) == len(distinct):  # the cross product: no sort of them all
        return [{"expand": {key: fold_axis(axis) for key, axis in zip(keys, axes, strict=True)}}, *custom]
    return [{"values": dict(zip(keys, values, strict=True))} for values in sorted(distinct)] + custom


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
