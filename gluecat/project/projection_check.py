"""What Athena checks about partition projection only when a query runs, checked offline.

Glue stores any string; Athena then fails the query, or silently returns no rows.
Each problem carries the YAML path it is about, so validate names file:line:column.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from gluecat.convert.projection import RELATIVE_DATE, TEMPLATE, is_relative_date, projection_parameters
from gluecat.model import HiveTable
from gluecat.model.base import MAX_PARAMETER_KEY_BYTES, MAX_PARAMETER_VALUE_BYTES, byte_length
from gluecat.model.projection import ProjectedKey, Projection
from gluecat.project.rule_ids import RuleId, declare
from gluecat.project.yamlparse import Loc

_PLACEHOLDER = re.compile(r"\$\{([^}]*)\}")
# Settings each projection type reads; Athena ignores the others, which are then a mistake.
_SETTINGS = {
    "enum": {"values"},
    "integer": {"range", "interval", "digits"},
    "date": {"range", "format", "interval", "unit"},
    "injected": set(),
}
_REQUIRED = {"enum": ("values",), "integer": ("range",), "date": ("range", "format"), "injected": ()}
# Java DateTimeFormatter letters -> strptime, by letter and run length (0: any length).
_JAVA_TO_STRPTIME = {
    ("y", 2): "%y", ("y", 0): "%Y", ("u", 2): "%y", ("u", 0): "%Y",
    ("M", 1): "%m", ("M", 2): "%m", ("M", 3): "%b", ("M", 4): "%B",
    ("L", 1): "%m", ("L", 2): "%m", ("d", 0): "%d", ("D", 0): "%j",
    ("H", 0): "%H", ("h", 0): "%I", ("m", 0): "%M", ("s", 0): "%S", ("S", 0): "%f",
    ("a", 0): "%p", ("E", 3): "%a", ("E", 4): "%A",
}  # fmt: skip
_FINER_THAN_DAY = set("HkKhmsSnNAa")
_HOUR_LETTERS = set("HkKh")
# strftime directives people write by habit (gluecat's own `expand` formats are strftime) -> Java letters.
_STRFTIME_TO_JAVA = {
    "Y": "yyyy",
    "y": "yy",
    "m": "MM",
    "d": "dd",
    "H": "HH",
    "I": "hh",
    "M": "mm",
    "S": "ss",
    "j": "DDD",
}
_SETTING_FIELDS = {"type": "type", "range": "range", "format": "format", "interval": "interval",
                   "interval.unit": "unit", "values": "values", "digits": "digits"}  # fmt: skip
Severity = Literal["error", "warning"]
ENGINES_RULE = declare("projection-engines", "partition projection, which Spark and EMR ignore (warning)")
ENUM_RULE = declare("projection-enum", "an enum projection without values or with empty ones")
FORMAT_RULE = declare("projection-format", "a date projection's format Athena reads otherwise than meant")
INTERVAL_RULE = declare("projection-interval", "a date format finer than a day without `interval` and `unit`")
KEYS_RULE = declare("projection-keys", "a partition key without a projection, or a projection of no partition key")
PARTITIONS_RULE = declare(
    "projection-partitions", "projection with `partitions` declared too: Athena ignores those (warning)"
)
RANGE_RULE = declare("projection-range", "a projection range that is not [min, max] of its type")
SETTINGS_RULE = declare(
    "projection-settings", "a projection's settings missing, misplaced or out of range for its type"
)
TEMPLATE_RULE = declare("projection-template", "a location template that does not name every projected key")


@dataclass(frozen=True)
class Problem:
    loc: Loc
    rule: RuleId
    message: str
    severity: Severity = "error"


def projection_problems(table: HiveTable) -> Iterator[Problem]:
    projection = table.projection
    if projection is None:
        return
    yield from _glue_limits(projection)  # Glue refuses these at apply time, enabled or not
    if not projection.enabled:
        return
    keys = [key.name for key in table.partition_keys]
    yield from _coverage(table, keys)
    yield from _template(projection.location_template, keys)
    for name, key in projection.keys.items():
        yield from _settings(("projection", "keys", name), name, key)
    yield Problem(
        ("projection",),
        ENGINES_RULE,
        "Spark and EMR ignore partition projection: they read only the partitions registered in Glue",
        "warning",
    )
    if table.partitions:
        yield Problem(
            ("partitions",),
            PARTITIONS_RULE,
            "with projection enabled Athena ignores the partitions registered in Glue; only Spark/EMR read these",
            "warning",
        )


def _coverage(table: HiveTable, keys: list[str]) -> Iterator[Problem]:
    assert table.projection is not None
    projected = table.projection.keys
    for index, name in enumerate(keys):
        if name not in projected:
            yield Problem(
                ("partition_keys", index, "name"),
                KEYS_RULE,
                f"partition key '{name}' has no projection: Athena fails every query; add `projection.keys.{name}`",
            )
    for name in projected:
        if name not in keys:
            known = ", ".join(keys) or "none"
            yield Problem(
                ("projection", "keys", name),
                KEYS_RULE,
                f"'{name}' is not a partition key (partition keys: {known}); remove it or add it to `partition_keys`",
            )


def _glue_limits(projection: Projection) -> Iterator[Problem]:
    """The parameters a projection becomes must fit Glue's limits on parameter keys and values."""
    prefix = "projection."
    for key, value in projection_parameters(projection).items():
        if key == TEMPLATE:
            loc: tuple[str, ...] = ("projection", "location_template")
        elif key.startswith(prefix) and key != prefix + "enabled":
            name = next(
                key[len(prefix) : -len(suffix) - 1]
                for suffix in sorted(_SETTING_FIELDS, key=len, reverse=True)
                if key.endswith("." + suffix)
            )
            field = _SETTING_FIELDS[key[len(prefix) + len(name) + 1 :]]
            if byte_length(key) > MAX_PARAMETER_KEY_BYTES:
                yield Problem(
                    ("projection", "keys", name),
                    SETTINGS_RULE,
                    f"parameter key '{key[:60]}...' is {byte_length(key):,} bytes long; Glue allows at most"
                    f" {MAX_PARAMETER_KEY_BYTES}: use a shorter partition key name",
                )
            loc = ("projection", "keys", name, field)
        else:
            continue
        size = byte_length(value)
        if size > MAX_PARAMETER_VALUE_BYTES:
            yield Problem(
                loc,
                SETTINGS_RULE,
                f"parameter {key} would be {size:,} bytes long; Glue allows at most {MAX_PARAMETER_VALUE_BYTES:,}"
                " (an enum's values are comma-joined): use fewer values, or an injected or integer projection",
            )


def _template(template: str | None, keys: list[str]) -> Iterator[Problem]:
    if template is None:
        return  # Athena then uses the Hive layout under the table location
    loc = ("projection", "location_template")
    if not template.startswith("s3://"):
        yield Problem(
            loc,
            TEMPLATE_RULE,
            f"the location template '{template[:80]}' is not an s3:// URI: Athena reads partitions only from S3",
        )
    named = _PLACEHOLDER.findall(template)
    missing = [key for key in keys if key not in named]
    if missing:
        wanted = ", ".join("${" + key + "}" for key in missing)
        yield Problem(loc, TEMPLATE_RULE, f"the location template does not name {wanted}: add it")
    for name in named:
        if name not in keys:
            yield Problem(
                loc,
                TEMPLATE_RULE,
                "the location template names ${" + name + "}, which is not a partition key: Athena leaves it"
                " in the path as written, and finds no data there",
                "warning",  # not a query failure, and AWS's own examples carry such placeholders
            )


def _settings(loc: Loc, name: str, key: ProjectedKey) -> Iterator[Problem]:
    given = {
        field
        for field in ("range", "format", "interval", "unit", "values", "digits")
        if getattr(key, field) is not None
    }
    for field in sorted(given - _SETTINGS[key.type]):
        yield Problem((*loc, field), SETTINGS_RULE, f"{_article(key.type)} projection has no `{field}`: remove it")
    for field in _REQUIRED[key.type]:
        if field not in given:
            yield Problem((*loc, "type"), SETTINGS_RULE, f"{_article(key.type)} projection needs `{field}`")
    for field in ("interval", "digits"):
        value = getattr(key, field)
        if field in _SETTINGS[key.type] and value is not None and value <= 0:
            yield Problem((*loc, field), SETTINGS_RULE, f"`{field}` must be a positive integer, not {value}")
    if key.type == "enum" and key.values is not None:
        yield from _enum(loc, key.values)
    if key.type == "integer" and key.range is not None:
        yield from _integer_range(loc, key.range)
    if key.type == "date":
        yield from _date(loc, name, key)


def _article(kind: str) -> str:
    return ("an " if kind[0] in "aeiou" else "a ") + kind


def _enum(loc: Loc, values: list[str]) -> Iterator[Problem]:
    if not values:
        yield Problem((*loc, "values"), ENUM_RULE, "an enum projection needs at least one value")
    for index, value in enumerate(values):
        if not value:
            yield Problem((*loc, "values", index), ENUM_RULE, "an enum value may not be empty")
        elif "," in value:
            yield Problem(
                (*loc, "values", index),
                ENUM_RULE,
                f"enum value '{value}' holds a comma: Athena splits values on commas",
            )


def _integer_range(loc: Loc, bounds: list[str]) -> Iterator[Problem]:
    if len(bounds) != 2:
        yield Problem((*loc, "range"), RANGE_RULE, f"`range` needs two values [min, max], not {len(bounds)}")
        return
    numbers = []
    for index, bound in enumerate(bounds):
        try:
            numbers.append(int(bound))
        except ValueError:
            yield Problem((*loc, "range", index), RANGE_RULE, f"integer range bound '{bound}' is not an integer")
    if len(numbers) == 2 and numbers[0] > numbers[1]:
        yield Problem((*loc, "range"), RANGE_RULE, f"range min {numbers[0]} is above max {numbers[1]}: swap them")


def _date(loc: Loc, name: str, key: ProjectedKey) -> Iterator[Problem]:
    if key.format is not None:
        yield from _format_mistakes((*loc, "format"), key.format)
    if key.format is None or key.range is None:
        return
    if len(key.range) != 2:
        yield Problem((*loc, "range"), RANGE_RULE, f"`range` needs two values [min, max], not {len(key.range)}")
        return
    pattern = strptime_pattern(key.format)
    now = datetime.now()
    bounds: list[datetime | None] = []
    for index, bound in enumerate(key.range):
        if is_relative_date(bound):
            bounds.append(relative_date(bound, now))
            continue
        if pattern is None:
            bounds.append(None)
            continue
        foreign = next((c for c in bound if c.isdigit() and not c.isascii()), None)
        try:
            if foreign is not None:
                raise ValueError(foreign)
            bounds.append(datetime.strptime(bound, pattern))
        except ValueError:
            bounds.append(None)
            yield Problem(
                (*loc, "range", index),
                RANGE_RULE,
                f"date '{bound}' does not parse with format '{key.format}': write it in that format, or NOW,"
                " NOW-3YEARS, NOW+1MONTH ...",
            )
    low, high = bounds
    if low is not None and high is not None and low > high:
        yield Problem((*loc, "range"), RANGE_RULE, f"range min {key.range[0]} is after max {key.range[1]}")
    # A strftime format is already reported with its Java spelling, whose letters are the ones to read:
    # `%Y-%m-%d` read as Java holds `m`, minutes, but means months.
    java = key.format if "%" not in key.format else as_java(key.format)
    if finer_than_day(java) and (key.interval is None or key.unit is None):
        yield Problem(
            (*loc, "format"),
            INTERVAL_RULE,
            f"format '{key.format}' is finer than a day: Athena needs `interval` and `unit` (e.g. interval: 1,"
            f" unit: HOURS) for '{name}'",
        )


def _format_mistakes(loc: Loc, java: str) -> Iterator[Problem]:
    """Patterns Java takes but that are nearly always a slip: strftime habits, week-based years, minutes for months."""
    if "%" in java:
        suggestion = as_java(java)
        yield Problem(
            loc,
            FORMAT_RULE,
            f"format '{java}' is a strftime format; Athena reads a Java DateTimeFormatter pattern: write"
            f" '{suggestion}'",
        )
        return
    letters = {text[0] for kind, text in _pattern_runs(java) if kind == "letter"}
    if "Y" in letters and "w" not in letters:
        yield Problem(
            loc,
            FORMAT_RULE,
            f"format '{java}' uses 'Y', the week-based year (31 Dec 2024 is in week-year 2025): write 'yyyy'",
        )
    if "D" in letters and "M" in letters:
        yield Problem(loc, FORMAT_RULE, f"format '{java}' uses 'D', the day of the year, with a month: write 'dd'")
    if "m" in letters and "M" not in letters and not letters & _HOUR_LETTERS and letters & {"y", "u", "d"}:
        yield Problem(loc, FORMAT_RULE, f"format '{java}' uses 'm', minutes, with no hour: months are 'MM'")


def relative_date(text: str, now: datetime) -> datetime:
    """NOW[+-N UNIT] as a moment; months and years move by the calendar, clamped to the month's last day."""
    match = RELATIVE_DATE.fullmatch(text)
    assert match is not None
    if not match.group(1):
        return now
    amount = int(match.group(3)) * (-1 if match.group(2) == "-" else 1)
    unit = match.group(4).upper().rstrip("S")
    if unit in ("YEAR", "MONTH"):
        months = now.year * 12 + now.month - 1 + amount * (12 if unit == "YEAR" else 1)
        year, month = divmod(months, 12)
        if not 1 <= year <= 9999:
            return datetime.max if amount > 0 else datetime.min
        day = min(now.day, calendar.monthrange(year, month + 1)[1])
        return now.replace(year=year, month=month + 1, day=day)
    try:
        return now + timedelta(**{unit.lower() + "s": amount})
    except OverflowError:
        return datetime.max if amount > 0 else datetime.min


def _pattern_runs(pattern: str) -> Iterator[tuple[str, str]]:
    """(kind, text) runs of a Java date pattern: ('letter', 'yyyy') or ('literal', '/')."""
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "'":
            end = pattern.find("'", index + 1)
            end = len(pattern) if end < 0 else end
            yield "literal", pattern[index + 1 : end] or "'"
            index = end + 1
        elif char.isalpha():
            run = index
            while run < len(pattern) and pattern[run] == char:
                run += 1
            yield "letter", pattern[index:run]
            index = run
        else:
            yield "literal", char
            index += 1


def strptime_pattern(java: str) -> str | None:
    """The strptime equivalent of a Java DateTimeFormatter pattern; None when one letter has none."""
    out = []
    for kind, text in _pattern_runs(java):
        if kind == "literal":
            out.append(text.replace("%", "%%"))
            continue
        directive = _JAVA_TO_STRPTIME.get((text[0], len(text))) or _JAVA_TO_STRPTIME.get((text[0], 0))
        if directive is None:
            return None
        out.append(directive)
    return "".join(out)


def as_java(strftime: str) -> str:
    """`%Y-%m-%d` -> `yyyy-MM-dd`: each strftime directive as the Java pattern letters meaning the same."""
    return re.sub(r"%(.)", lambda m: _STRFTIME_TO_JAVA.get(m.group(1), m.group(0)), strftime)


def finer_than_day(java: str) -> bool:
    return any(kind == "letter" and text[0] in _FINER_THAN_DAY for kind, text in _pattern_runs(java))
