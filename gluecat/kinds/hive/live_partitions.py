"""Live partitions compared with the declared ones page by page, holding neither side whole.

A table may declare a million partitions in three lines and hold as many in
Glue. Each page of GetPartitions is folded in as it arrives: a live partition
that is declared where it should be leaves only its values behind (so the
missing ones can be found afterwards by expanding the generators once); one
declared elsewhere keeps its writable shape (the update carries it over); one
not declared keeps its fingerprint (a delete under `prune` is re-checked by
apply). Whether a partition is declared is answered without expanding the
generators: integer axes by arithmetic, list and date axes by a set of that
axis's values (the sum of the axes, not their product); each value found on an
axis keeps its `key=value/` segment, so the next partition holding it is one
dictionary lookup per key away from its wanted location.
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gluecat.changes.fingerprint import fingerprint, partition_input_of
from gluecat.convert.locations import PartitionPaths, remember, slashless
from gluecat.convert.partitions import own_differs, own_input
from gluecat.kinds.hive.impact import Storage
from gluecat.kinds.hive.partition_drift import Drift, partition_drift
from gluecat.model.partitions import PartitionEntry, PartitionGenerator, PartitionItem, Range, axis_values, expand_item

Shape = dict[str, Any]
Values = tuple[str, ...]


def location_of(partition: Mapping[str, Any]) -> str:
    return str((partition.get("StorageDescriptor") or {}).get("Location", ""))


class DeclaredPartitions:
    """The partitions a table declares: membership, wanted location and what each holds of its own
    (`own`: the partial PartitionInput its entry or generator lays over the table's template),
    without expanding generators."""

    def __init__(self, items: Sequence[PartitionItem], keys: tuple[str, ...], table_location: str) -> None:
        self.items = items
        self.keys = keys
        self.table_location = table_location
        self._owns = [own_input(item) or None for item in items]  # one per item, shared by its partitions
        self._explicit: dict[Values, tuple[str | None, Shape | None]] = {}
        # Per generator: for each key, the segments of the values found on its axis; the axis tests.
        self._generators: list[tuple[tuple[dict[str, str], ...], tuple[Callable[[str], bool], ...], Shape | None]] = []
        for item, own in zip(items, self._owns, strict=True):
            if isinstance(item, PartitionEntry):
                self._explicit.setdefault(tuple(item.values[key] for key in keys), (item.location, own))
            else:
                self._generators.append((tuple({} for _ in keys), tuple(_axis_test(item, key) for key in keys), own))
        self.declares_columns = any("Columns" in ((own or {}).get("StorageDescriptor") or {}) for own in self._owns)
        self._paths = PartitionPaths(table_location, keys)

    def wanted(self, values: Values) -> tuple[str, Shape | None] | None:
        """Where a declared partition belongs and what it holds of its own; None when not declared."""
        if self._explicit:
            declared = self._explicit.get(values)
            if declared is not None:
                explicit, own = declared
                return self.location(values, explicit), own
        if len(values) == len(self.keys):
            base = self._paths.base
            for known, tests, own in self._generators:
                try:  # every value already found on its axis: the common case, a lookup per key
                    return base + "".join(map(dict.__getitem__, known, values)), own
                except KeyError:
                    if self._on_axes(known, tests, values):
                        return base + "".join(map(dict.__getitem__, known, values)), own
        return None

    def _on_axes(
        self, known: tuple[dict[str, str], ...], tests: tuple[Callable[[str], bool], ...], values: Values
    ) -> bool:
        """Whether each value is on its generator axis; the segments of those that are are kept."""
        for index, (segments, test, value) in enumerate(zip(known, tests, values, strict=True)):
            if value not in segments:
                if not test(value):
                    return False
                remember(segments, value, self._paths.segment(index, value))
        return True

    def location(self, values: Values, explicit: str | None) -> str:
        """The explicit location, even an empty one (Glue holds partitions without any), else the default."""
        return explicit if explicit is not None else self._paths.of(values)

    def __iter__(self) -> Iterator[tuple[Values, str | None, Shape | None]]:
        """Every declared partition with its explicit location (None: the default) and its own fields,
        in declaration order; `location` says where it belongs (worked out only where a change needs it)."""
        for item, own in zip(self.items, self._owns, strict=True):
            for values, explicit in expand_item(item, list(self.keys)):
                yield values, explicit, own


def _axis_test(generator: PartitionGenerator, key: str) -> Callable[[str], bool]:
    axis = generator.expand[key]
    if isinstance(axis, Range) and isinstance(axis.start, int) and isinstance(axis.end, int):
        return _integer_test(axis)
    return frozenset(axis_values(axis)).__contains__


def _integer_test(axis: Range) -> Callable[[str], bool]:
    assert isinstance(axis.start, int) and isinstance(axis.end, int)
    start, end, step, width = axis.start, axis.end, axis.step, axis.width or 0

    def test(value: str) -> bool:
        try:
            number = int(value)
        except ValueError:
            return False
        # The generator writes str(n) zero-padded: any other spelling of n is another partition.
        return str(number).zfill(width) == value and start <= number <= end and (number - start) % step == 0

    return test


@dataclass(frozen=True)
class Moved:
    """A declared partition that lives elsewhere or lacks its own declared fields: where it is, and
    what an update carries over."""

    live_location: str
    shape: Shape


LEFT_ALONE_SHOWN = 5


class LivePartitions:
    """Folds pages of live partitions into what the diff needs; `add` is thread-safe (pages arrive
    from parallel segments)."""

    def __init__(
        self,
        declared: DeclaredPartitions | None,
        drift_against: tuple[Shape, Storage] | None,
        prune: bool = False,
        columns: bool = False,
    ) -> None:
        """`drift_against`: the table's descriptor after the plan and its storage, when the plan
        must judge the partitions' own schemas; only then (or with `columns`: entries declare their
        own columns) are their column lists read. `prune`: keep what undeclared partitions need to
        be deleted."""
        self.declared = declared
        self.prune = prune and declared is not None
        self._drift_against = drift_against
        self.columns = columns or drift_against is not None
        self._lock = threading.Lock()
        self.total = 0
        self.seen: set[Values] = set()
        self.moved: dict[Values, Moved] = {}
        self.undeclared: dict[Values, str | None] = {}  # under prune: values -> fingerprint (None: not read yet)
        self.left_alone = 0  # without prune: live partitions the YAML does not declare, counted
        self.left_alone_first: list[Values] = []  # ... and the first few of them, for the plan's note
        self._drifts: list[Drift] = []

    def add(self, page: list[Shape]) -> None:
        with self._lock:
            self.total += len(page)
            if self._drift_against is not None:
                self._drifts.append(partition_drift(page, *self._drift_against))
            for partition in page:
                values = tuple(partition["Values"])
                found = self.declared.wanted(values) if self.declared is not None else None
                if found is None:
                    if self.prune:
                        self.undeclared[values] = fingerprint(partition_input_of(partition)) if self.columns else None
                    elif self.declared is not None:
                        self._leave_alone(values)
                    continue
                self.seen.add(values)
                wanted, own = found
                live = location_of(partition)
                moved = live != wanted and slashless(live) != slashless(wanted)  # equal as written: most of them
                if moved or (own and own_differs(own, partition)):
                    self.moved[values] = Moved(live, partition_input_of(partition))

    def _leave_alone(self, values: Values) -> None:
        self.left_alone += 1
        bisect.insort(self.left_alone_first, values)  # the smallest few, whatever order the pages come in
        del self.left_alone_first[LEFT_ALONE_SHOWN:]

    def incomplete(self) -> list[Values]:
        """Partitions read without their column list whose whole shape a change would need."""
        if self.columns:
            return []
        return list(self.moved) + list(self.undeclared)

    def complete(self, partitions: list[Shape]) -> None:
        """Take the whole shapes of `incomplete()` partitions (read one by one, BatchGetPartition)."""
        for partition in partitions:
            values = tuple(partition["Values"])
            if values in self.moved:
                self.moved[values] = Moved(location_of(partition), partition_input_of(partition))
            elif values in self.undeclared:
                self.undeclared[values] = fingerprint(partition_input_of(partition))

    def drift(self) -> Drift | None:
        """How the partitions' own schemas differ from the table's; None when not judged."""
        if self._drift_against is None:
            return None
        drifted = tuple(sorted(v for d in self._drifts for v in d.drifted))
        return Drift(self.total, drifted, sum(d.mismatched for d in self._drifts))
