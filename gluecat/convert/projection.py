"""Typed partition projection <-> the table parameters Athena reads (`projection.*`, `storage.location.template`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from gluecat.model.projection import ProjectedKey, Projection

ENABLED = "projection.enabled"
TEMPLATE = "storage.location.template"
_PREFIX = "projection."
# Longest first: `interval.unit` must win over `interval`.
_SETTINGS = {
    "interval.unit": "unit",
    "interval": "interval",
    "type": "type",
    "range": "range",
    "format": "format",
    "values": "values",
    "digits": "digits",
}
RELATIVE_DATE = re.compile(
    r"\s*NOW\s*(([+\-])\s*([0-9]+)\s*(YEARS?|MONTHS?|WEEKS?|DAYS?|HOURS?|MINUTES?|SECONDS?)\s*)?"
)


def is_projection_parameter(key: str) -> bool:
    """The parameters a typed `projection` owns."""
    return key.startswith(_PREFIX) or key == TEMPLATE


def projection_parameters(projection: Projection) -> dict[str, str]:
    """Exactly Athena's parameters: ranges and enum values comma-joined."""
    out = {ENABLED: "true" if projection.enabled else "false"}
    for name, key in projection.keys.items():
        prefix = f"{_PREFIX}{name}."
        out[prefix + "type"] = key.type
        if key.range is not None:
            out[prefix + "range"] = ",".join(key.range)
        if key.format is not None:
            out[prefix + "format"] = key.format
        if key.interval is not None:
            out[prefix + "interval"] = str(key.interval)
        if key.unit is not None:
            out[prefix + "interval.unit"] = key.unit
        if key.values is not None:
            out[prefix + "values"] = ",".join(key.values)
        if key.digits is not None:
            out[prefix + "digits"] = str(key.digits)
    if projection.location_template is not None:
        out[TEMPLATE] = projection.location_template
    return out


def split_projection(parameters: Mapping[str, str]) -> tuple[Projection | None, dict[str, str]]:
    """(typed projection, the other parameters); (None, all of them) when there is none or it cannot be typed."""
    owned = {k: v for k, v in parameters.items() if is_projection_parameter(k)}
    rest = {k: v for k, v in parameters.items() if not is_projection_parameter(k)}
    if not owned:
        return None, dict(parameters)
    projection = projection_from_parameters(owned)
    if projection is None:
        return None, dict(parameters)
    return projection, rest


def projection_from_parameters(owned: Mapping[str, str]) -> Projection | None:
    """The typed shape of `projection.*` parameters, normalised the way Athena reads them; None if untypable."""
    enabled = owned.get(ENABLED, "false").strip().lower()
    if enabled not in ("true", "false"):
        return None
    settings: dict[str, dict[str, str]] = {}
    for key, value in owned.items():
        if key in (ENABLED, TEMPLATE):
            continue
        parsed = _setting(key)
        if parsed is None:
            return None
        column, field = parsed
        settings.setdefault(column, {})[field] = value
    try:
        keys = {column: _typed_key(raw) for column, raw in settings.items()}
        return Projection(enabled=enabled == "true", location_template=owned.get(TEMPLATE), keys=keys)
    except (ValidationError, ValueError):
        return None


def _setting(key: str) -> tuple[str, str] | None:
    rest = key.removeprefix(_PREFIX)
    for suffix, field in _SETTINGS.items():
        if rest.endswith("." + suffix) and len(rest) > len(suffix) + 1:
            return rest[: -len(suffix) - 1], field
    return None


def _typed_key(raw: Mapping[str, str]) -> ProjectedKey:
    kind = raw.get("type", "").strip().lower()
    data: dict[str, Any] = {"type": kind}
    if "range" in raw:
        data["range"] = [_bound(part, kind) for part in raw["range"].split(",")]
    if "values" in raw:  # white space is part of an enum value
        data["values"] = raw["values"].split(",")
    for field in ("interval", "digits"):
        if field in raw:
            data[field] = int(raw[field].strip())
    for field in ("format", "unit"):
        if field in raw:
            data[field] = raw[field]
    return ProjectedKey.model_validate(data)


def _bound(text: str, kind: str) -> str:
    """Integer bounds and NOW-relative dates allow white space around them; date literals keep theirs."""
    if kind == "integer" or RELATIVE_DATE.fullmatch(text):
        return text.strip()
    return text


def is_relative_date(text: str) -> bool:
    return RELATIVE_DATE.fullmatch(text) is not None
