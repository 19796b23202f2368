"""Partitions declared in YAML: explicit entries and compact generators.

A generator is a cross product of one axis per partition key; an axis is a
list of values or a range (dates by hour/day/month/year, or integers). Ranges
are expanded lazily, so a million partitions cost a few lines of YAML and no
model objects. Counting is arithmetic: a generator that would yield more than
MAX_PARTITIONS is refused before anything expands.

An empty (or null) partition value becomes Hive's `__HIVE_DEFAULT_PARTITION__`,
the value Hive and Spark write for a null key: Glue refuses empty values.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, Discriminator, Field, Tag, model_validator

from gluecat.model.base import Parameters, Strict, at_most, scalar_to_text

# The most partitions one table may declare: expanding them costs memory and
# every one is a Glue API entry, so a typo like `step: 0` or a 10,000-year
# hourly range is caught before it is expanded.
MAX_PARTITIONS = 1_000_000
MAX_PARTITION_VALUE_BYTES = 1024  # PartitionInput.Values (AWS Glue API reference)
MAX_WIDTH = MAX_PARTITION_VALUE_BYTES
HIVE_DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__"


def _partition_value(value: Any) -> Any:
    text = scalar_to_text(value)
    return HIVE_DEFAULT_PARTITION if text is None or text == "" else text


PartitionValue = Annotated[
    str,
    BeforeValidator(_partition_value),
    AfterValidator(at_most(MAX_PARTITION_VALUE_BYTES, "a partition value")),
]

Unit = Literal["hour", "day", "month", "year"]
DEFAULT_DATE_FORMATS: dict[str, str] = {
    "hour": "%Y-%m-%d-%H",
    "day": "%Y-%m-%d",
    "month": "%Y-%m",
    "year": "%Y",
}


class Range(Strict):
    """`{from: 2024-01-01, to: 2024-12-31}` (daily), or integers `{from: 1, to: 12}`."""

    start: int | str = Field(alias="from", description="First value, inclusive")
    end: int | str = Field(alias="to", description="Last value, inclusive")
    every: Unit | None = Field(None, description="Date step; default day (dates only)")
    step: int = Field(1, ge=1, description="How many units between values")
    format: str | None = Field(None, description="strftime format of date values")
    width: int | None = Field(None, ge=1, le=MAX_WIDTH, description="Zero-pad integers to this width")

    @model_validator(mode="after")
    def _check(self) -> Range:
        if isinstance(self.start, int) != isinstance(self.end, int):
            raise ValueError("'from' and 'to' must both be integers or both be dates")
        if isinstance(self.start, int):
            if self.every or self.format:
                raise ValueError("'every' and 'format' are for date ranges, not integers")
            if self.end < self.start:  # type: ignore[operator]
                raise ValueError(f"'to' ({self.end}) is before 'from' ({self.start})")
            return self
        start, end = _parse_moment(str(self.start)), _parse_moment(str(self.end))
        if end < start:
            raise ValueError(f"'to' ({self.end}) is before 'from' ({self.start})")
        return self

    def count(self) -> int:
        """How many values the range yields, without yielding them."""
        if isinstance(self.start, int) and isinstance(self.end, int):
            return (self.end - self.start) // self.step + 1
        start, end = _parse_moment(str(self.start)), _parse_moment(str(self.end))
        unit = self.every or "day"
        if unit in ("hour", "day"):
            seconds = 3600 if unit == "hour" else 86400
            return int((end - start).total_seconds()) // (seconds * self.step) + 1
        months = (end.year - start.year) * 12 + end.month - start.month
        steps = months // (self.step if unit == "month" else 12 * self.step)
        # Each step lands on the 1st at the start's time of day: in the end's own month that may be past the end.
        if steps and _advance(start, unit, self.step * steps) > end:
            steps -= 1
        return steps + 1

    def bounds(self) -> tuple[str, str]:
        """The first and the last value, without yielding those between."""
        first, count = next(self.values()), self.count()
        if count == 1:
            return first, first
        if isinstance(self.start, int):
            return first, str(self.start + (count - 1) * self.step).zfill(self.width or 0)
        unit = self.every or "day"
        try:
            last = _advance(_parse_moment(str(self.start)), unit, self.step * (count - 1))
        except (OverflowError, ValueError):  # past year 9999, where values() stops
            return first, list(self.values())[-1]
        return first, last.strftime(self.format or DEFAULT_DATE_FORMATS[unit])

    def values(self) -> Iterator[str]:
        if isinstance(self.start, int) and isinstance(self.end, int):
            for number in range(self.start, self.end + 1, self.step):
                yield str(number).zfill(self.width or 0)
            return
        unit = self.every or "day"
        fmt = self.format or DEFAULT_DATE_FORMATS[unit]
        moment, end = _parse_moment(str(self.start)), _parse_moment(str(self.end))
        while moment <= end:
            yield moment.strftime(fmt)
            try:
                moment = _advance(moment, unit, self.step)
            except (OverflowError, ValueError):  # past year 9999: the range is done
                return


# The spellings people write almost always, parsed without strptime (which
# looks up the locale on every call: ~20 µs, most of validating a generator).
_ISO_MOMENT = re.compile(r"([0-9]{4})-([0-9]{2})(?:-([0-9]{2})(?:T([0-9]{2})|[T ]([0-9]{2}):([0-9]{2}):([0-9]{2}))?)?")


def _parse_moment(text: str) -> datetime:
    match = _ISO_MOMENT.fullmatch(text)
    if match:
        year, month, day, hour_only, hour, minute, second = match.groups()
        try:
            return datetime(
                int(year), int(month), int(day or 1), int(hour_only or hour or 0), int(minute or 0), int(second or 0)
            )
        except ValueError:
            pass  # out of range: strptime below words the refusal
    for fmt in ("%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H", "%Y-%m-%d", "%Y-%m"):
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    raise ValueError(f"'{text}' is not a date: write it as YYYY-MM-DD (or YYYY-MM-DDTHH:MM:SS)")


def _advance(moment: datetime, unit: str, step: int) -> datetime:
    if unit == "hour":
        return moment + timedelta(hours=step)
    if unit == "day":
        return moment + timedelta(days=step)
    months = moment.month - 1 + (step if unit == "month" else 12 * step)
    return moment.replace(year=moment.year + months // 12, month=months % 12 + 1, day=1)


class PartitionOwn(Strict):
    """What a partition holds of its own, beyond the table's storage descriptor it copies."""

    parameters: Parameters = Field(default_factory=dict, description="The partition's own Glue parameters")
    storage_parameters: Parameters | None = Field(
        None, description="Its StorageDescriptor parameters; default: the table's"
    )
    extra: dict[str, Any] = Field(
        default_factory=dict,
        description="StorageDescriptor fields in which it differs from the table (columns, SerDe ...),"
        " as Glue spells them under `StorageDescriptor`",
    )


class PartitionEntry(PartitionOwn):
    """One partition: `{values: {dt: "2024-01-01"}, location?: s3://...}`."""

    values: dict[str, PartitionValue] = Field(description="Value of every partition key")
    location: str | None = Field(None, description="Default: <table location>/<key>=<value>/...")


class PartitionGenerator(PartitionOwn):
    """`{expand: {dt: {from: .., to: ..}, region: [eu, us]}}`: the cross product, each holding the same
    `parameters`, `storage_parameters` and `extra`."""

    expand: dict[str, list[PartitionValue] | Range] = Field(description="One axis per partition key")

    @model_validator(mode="after")
    def _bounded(self) -> PartitionGenerator:
        count = self.count()
        if count > MAX_PARTITIONS:
            raise ValueError(
                f"this generator declares {count:,} partitions; at most {MAX_PARTITIONS:,} per table"
                " (check the range bounds and `step`)"
            )
        return self

    def count(self) -> int:
        total = 1
        for axis in self.expand.values():
            total *= len(axis) if isinstance(axis, list) else axis.count()
        return total


def _item_kind(data: Any) -> str:
    if isinstance(data, dict):
        return "PartitionGenerator" if "expand" in data else "PartitionEntry"
    return type(data).__name__


PartitionItem = Annotated[
    Annotated[PartitionEntry, Tag("PartitionEntry")] | Annotated[PartitionGenerator, Tag("PartitionGenerator")],
    Discriminator(_item_kind),
]


def axis_values(axis: list[str] | Range) -> Iterator[str]:
    """The values of one axis in order."""
    return iter(axis) if isinstance(axis, list) else axis.values()


def expand_partitions(items: list[PartitionItem], keys: list[str]) -> Iterator[tuple[tuple[str, ...], str | None]]:
    """Every declared partition as (values in key order, explicit location or None)."""
    for item in items:
        yield from expand_item(item, keys)


def expand_item(item: PartitionItem, keys: list[str]) -> Iterator[tuple[tuple[str, ...], str | None]]:
    """The partitions one entry or generator declares, as `expand_partitions` yields them."""
    if isinstance(item, PartitionEntry):
        yield tuple(item.values[key] for key in keys), item.location
        return
    axes = [list(axis_values(item.expand[key])) for key in keys]
    for values in itertools.product(*axes):
        yield values, None


def partition_count(items: list[PartitionItem]) -> int:
    """How many partitions the items declare, without expanding them."""
    return sum(1 if isinstance(item, PartitionEntry) else item.count() for item in items)
