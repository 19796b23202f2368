"""Whether a partition value reads as its key's type, as Hive, Athena and Spark cast it."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal, InvalidOperation

from gluecat.model.hivetype import Decimal as DecimalType
from gluecat.model.hivetype import HiveTypeError, Primitive, normalise, parse
from gluecat.model.partitions import HIVE_DEFAULT_PARTITION

_INTEGER_RANGES = {
    "tinyint": (-(2**7), 2**7 - 1),
    "smallint": (-(2**15), 2**15 - 1),
    "int": (-(2**31), 2**31 - 1),
    "bigint": (-(2**63), 2**63 - 1),
}
_INTEGER = re.compile(r"^[+-]?\d+$")


def value_problem(value: str, key_type: str) -> str | None:
    """Why `value` is no `key_type` value, or None when it is one (or the type is text)."""
    if value == HIVE_DEFAULT_PARTITION:
        return None
    try:
        parsed = normalise(parse(key_type))
    except HiveTypeError:
        return None
    if isinstance(parsed, DecimalType):
        try:
            Decimal(value)
        except InvalidOperation:
            return f"not a number, so no {key_type} value"
        return None
    if not isinstance(parsed, Primitive):
        return None
    name = parsed.name
    if name in _INTEGER_RANGES:
        low, high = _INTEGER_RANGES[name]
        if not _INTEGER.match(value):
            return f"not an integer, so no {name} value"
        if not low <= int(value) <= high:
            return f"out of {name}'s range {low}..{high}"
    elif name == "date":
        try:
            datetime.date.fromisoformat(value)
        except ValueError:
            return "not a date as yyyy-mm-dd"
    elif name == "boolean" and value.lower() not in ("true", "false"):
        return "not true or false"
    elif name in ("float", "double"):
        try:
            float(value)
        except ValueError:
            return f"not a number, so no {name} value"
    return None
