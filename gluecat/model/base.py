"""Shared building blocks of the catalog model: strict frozen models, names, parameters, and a model as
its file's data."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict

_PLAIN_NAME = re.compile(r"^[a-z0-9_]+$")
# Glue's single-line pattern admits tab but no other control character.
_CONTROL = frozenset(chr(c) for c in (*range(0x00, 0x09), *range(0x0A, 0x20), 0x7F))

# Glue's input limits in UTF-8 bytes (AWS Glue API reference: DatabaseInput,
# TableInput, Column, StorageDescriptor, PartitionInput), checked offline so
# that what validate accepts, apply can do.
MAX_NAME_BYTES = 255
MAX_COMMENT_BYTES = 255
MAX_DESCRIPTION_BYTES = 2048
MAX_LOCATION_BYTES = 2056
MAX_PARAMETER_KEY_BYTES = 255
MAX_PARAMETER_VALUE_BYTES = 512_000


class Strict(BaseModel):
    """Frozen, and unknown keys are errors (the loader adds a did-you-mean)."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True, defer_build=True)


def model_data(model: BaseModel, drop: tuple[str, ...] = ("name",)) -> dict[str, Any]:
    """The model as its file writes it (import): what differs from the defaults, under the files' keys,
    without `drop` (a table's or database's name is its file's path)."""
    data = model.model_dump(mode="json", by_alias=True, exclude_defaults=True, exclude_none=True)
    for key in drop:
        data.pop(key, None)
    return data


def byte_length(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def at_most(limit: int, what: str) -> Callable[[str], str]:
    """A validator: `what` may hold at most `limit` UTF-8 bytes (a Glue limit)."""

    def check(value: str) -> str:
        size = byte_length(value)
        if size > limit:
            raise ValueError(f"{what} is {size:,} bytes long; Glue allows at most {limit:,}")
        return value

    return check


def _single_line(value: str, what: str) -> str:
    """Glue's names are single-line strings of 1 to 255 bytes; any other character is legal."""
    if not value:
        raise ValueError(f"{what} is required")
    at_most(MAX_NAME_BYTES, what)(value)
    bad = next((c for c in value if c in _CONTROL), None)
    if bad is not None:
        raise ValueError(f"{what} {value!r} holds the control character {bad!r}; Glue names are one line of text")
    return value


def _object_name(value: str) -> str:
    _single_line(value, "the name")
    if value != value.lower():
        raise ValueError(
            f"name '{value}' must be lowercase: Glue stores '{value.lower()}' and the"
            " mixed-case name would diff forever"
        )
    return value


def _column_name(value: str) -> str:
    """Any case: Glue folds top-level column names to lowercase and gluecat compares them so."""
    if not value.strip():
        raise ValueError("a column name is required")
    return _single_line(value, "the column name")


def plain_name(name: str) -> bool:
    """A name Athena and Spark take unquoted: lowercase letters, digits and '_'."""
    return bool(_PLAIN_NAME.match(name))


def scalar_to_text(value: Any) -> Any:
    """YAML scalars to the strings Glue stores (true -> 'true', 2 -> '2', dates as ISO)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


def _text_mapping(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: scalar_to_text(item) for key, item in value.items()}
    return value


def _parameter_limits(value: dict[str, str | None]) -> dict[str, str | None]:
    for key, item in value.items():
        if not key:
            raise ValueError("a parameter key may not be empty")
        at_most(MAX_PARAMETER_KEY_BYTES, f"parameter key '{key[:40]}'")(key)
        if item is not None:
            at_most(MAX_PARAMETER_VALUE_BYTES, f"the value of parameter '{key[:40]}'")(item)
    return value


ObjectName = Annotated[str, AfterValidator(_object_name)]
ColumnName = Annotated[str, AfterValidator(_column_name)]
Text = Annotated[str, BeforeValidator(scalar_to_text)]
Parameters = Annotated[dict[str, str], BeforeValidator(_text_mapping), AfterValidator(_parameter_limits)]
OptionalParameters = Annotated[dict[str, str | None], BeforeValidator(_text_mapping), AfterValidator(_parameter_limits)]
Comment = Annotated[str, AfterValidator(at_most(MAX_COMMENT_BYTES, "the comment"))]
Description = Annotated[str, AfterValidator(at_most(MAX_DESCRIPTION_BYTES, "the description"))]
Location = Annotated[str, AfterValidator(at_most(MAX_LOCATION_BYTES, "the location"))]
