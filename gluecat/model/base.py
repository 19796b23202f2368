"""Shared building blocks of the catalog model: strict frozen models, names, parameters."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict

_OBJECT_NAME = re.compile(r"^[a-z0-9_]+$")


class Strict(BaseModel):
    """Frozen, and unknown keys are errors (the loader adds a did-you-mean)."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


def _object_name(value: str) -> str:
    if value != value.lower():
        raise ValueError(
            f"name '{value}' must be lowercase: Glue stores '{value.lower()}' and the"
            " mixed-case name would diff forever"
        )
    if not _OBJECT_NAME.match(value):
        fixed = re.sub(r"[^a-z0-9_]", "_", value)
        raise ValueError(f"name '{value}' may hold only a-z, 0-9 and '_' (Athena and Spark require it); e.g. '{fixed}'")
    return value


def _column_name(value: str) -> str:
    if not value.strip():
        raise ValueError("a column name is required")
    if value != value.lower():
        raise ValueError(
            f"column name '{value}' must be lowercase: Glue lowercases column names, so write '{value.lower()}'"
        )
    return value


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


ObjectName = Annotated[str, AfterValidator(_object_name)]
ColumnName = Annotated[str, AfterValidator(_column_name)]
Text = Annotated[str, BeforeValidator(scalar_to_text)]
Parameters = Annotated[dict[str, str], BeforeValidator(_text_mapping)]
OptionalParameters = Annotated[dict[str, str | None], BeforeValidator(_text_mapping)]
