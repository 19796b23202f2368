"""Athena partition projection, typed: one entry per partition key, as Athena documents the settings."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from gluecat.model.base import Strict, scalar_to_text

PROJECTION_TYPES = ("enum", "integer", "date", "injected")
# Athena's list: ChronoUnit names, case insensitive.
INTERVAL_UNITS = ("YEARS", "MONTHS", "WEEKS", "DAYS", "HOURS", "MINUTES", "SECONDS", "MILLISECONDS")


def _folded(case: str) -> Any:
    """Athena reads types and units case-insensitively, with white space around them."""

    def fold(value: Any) -> Any:
        if isinstance(value, str):
            value = value.strip()
            return value.lower() if case == "lower" else value.upper()
        return value

    return fold


def _texts(value: Any) -> Any:
    if isinstance(value, list):
        return [scalar_to_text(item) for item in value]
    return value


ProjectionType = Annotated[Literal["enum", "integer", "date", "injected"], BeforeValidator(_folded("lower"))]
IntervalUnit = Annotated[
    Literal["YEARS", "MONTHS", "WEEKS", "DAYS", "HOURS", "MINUTES", "SECONDS", "MILLISECONDS"],
    BeforeValidator(_folded("upper")),
]
TextList = Annotated[list[str], BeforeValidator(_texts)]


class ProjectedKey(Strict):
    """`projection.<key>.*`: which settings apply depends on `type` (validate checks them)."""

    type: ProjectionType = Field(description="enum, integer, date or injected")
    range: TextList | None = Field(
        None, description="integer or date: [min, max]; a date bound may be NOW, NOW-3YEARS, NOW+1MONTH ..."
    )
    format: str | None = Field(None, description="date: a Java DateTimeFormatter pattern, e.g. yyyy/MM/dd")
    interval: int | None = Field(None, description="integer or date: the step between values")
    unit: IntervalUnit | None = Field(
        None, description="date: the unit of `interval` (" + ", ".join(INTERVAL_UNITS) + ")"
    )
    values: TextList | None = Field(None, description="enum: the values")
    digits: int | None = Field(None, description="integer: zero-pad values to this many digits")


class Projection(Strict):
    """Athena computes partitions from these settings instead of reading them from Glue."""

    enabled: bool = Field(True, description="projection.enabled")
    location_template: str | None = Field(
        None, description="storage.location.template: naming every key as ${key}; default: Hive layout"
    )
    keys: dict[str, ProjectedKey] = Field(default_factory=dict, description="One entry per partition key")
