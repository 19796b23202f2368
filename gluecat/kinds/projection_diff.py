"""Partition projection is diffed as its typed shape, never as the raw `projection.*` strings."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from gluecat.changes.model import FieldDiff
from gluecat.convert.projection import ENABLED, is_projection_parameter, projection_from_parameters
from gluecat.model.projection import Projection

LONG_ENUM = 20  # an enum with more values shows what changed, not every value
ENUM_SHOWN = 10


def declares_projection(desired: Mapping[str, str]) -> bool:
    """A table that declares projection owns every projection parameter: live ones it omits are removed."""
    return ENABLED in desired


def owned(parameters: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in parameters.items() if is_projection_parameter(k)}


def unowned(parameters: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in parameters.items() if not is_projection_parameter(k)}


def projection_diffs(live: Mapping[str, str], desired: Mapping[str, str]) -> Iterator[FieldDiff]:
    have, want = owned(live), owned(desired)
    typed_have = projection_from_parameters(have) if have else None
    typed_want = projection_from_parameters(want)
    if typed_want is None or (have and typed_have is None):
        yield from _raw_diffs(have, want)  # something Athena's settings cannot type: compare it as written
        return
    yield from _typed_diffs(typed_have, typed_want)


def _raw_diffs(have: Mapping[str, str], want: Mapping[str, str]) -> Iterator[FieldDiff]:
    for key in sorted(set(have) | set(want)):
        if have.get(key) != want.get(key):
            yield FieldDiff(f"parameters.{key}", have.get(key), want.get(key))


def _typed_diffs(have: Projection | None, want: Projection) -> Iterator[FieldDiff]:
    if have is None:
        yield FieldDiff("projection", None, _summary(want))
        return
    if have.enabled != want.enabled:
        yield FieldDiff("projection.enabled", have.enabled, want.enabled)
    if have.location_template != want.location_template:
        yield FieldDiff("projection.location_template", have.location_template, want.location_template)
    for name, key in want.keys.items():
        before = have.keys.get(name)
        if before is None:
            yield FieldDiff(f"projection.keys.{name}", None, _shown(key.model_dump(exclude_none=True)))
            continue
        for field, value in key.model_dump().items():
            old = getattr(before, field)
            if old == value:
                continue
            if field == "values" and old and value and max(len(old), len(value)) > LONG_ENUM:
                yield FieldDiff(f"projection.keys.{name}.values", *_enum_change(old, value))
            else:
                yield FieldDiff(f"projection.keys.{name}.{field}", _shown(old), _shown(value))
    for name, key in have.keys.items():
        if name not in want.keys:
            yield FieldDiff(f"projection.keys.{name}", _shown(key.model_dump(exclude_none=True)), None)


def _enum_change(old: list[str], new: list[str]) -> tuple[str, str]:
    """A long enum's change as what was added and removed, not thousands of values twice."""
    kept = set(old)
    added = [value for value in new if value not in kept]
    wanted = set(new)
    removed = [value for value in old if value not in wanted]
    parts = [f"+{_listed(added)}"] if added else []
    parts += [f"-{_listed(removed)}"] if removed else []
    if not parts:
        parts = ["the same values, reordered"]
    return f"{len(old)} values", f"{len(new)} values ({'; '.join(parts)})"


def _listed(values: list[str]) -> str:
    shown = ", ".join(values[:ENUM_SHOWN])
    return shown + (f" and {len(values) - ENUM_SHOWN} more" if len(values) > ENUM_SHOWN else "")


def _summary(projection: Projection) -> str:
    return ", ".join(f"{name} ({key.type})" for name, key in projection.keys.items()) or "(no keys)"


def _shown(value: Any) -> Any:
    if isinstance(value, list):
        return ",".join(value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_shown(v)}" for k, v in value.items())
    return value
