"""Walking a plan's data: every string inside dicts, lists, tuples and frozen dataclasses changed
by one function, and what holds no changed string returned as it is (a plan of a million partitions
is walked, not copied)."""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from enum import Enum
from typing import Any

_SCALARS = (int, float, bool, type(None))


def json_needles(*texts: str) -> tuple[bytes, ...] | None:
    """Each text as it reads inside JSON (None: a text JSON cannot hold, so no list is skipped)."""
    import orjson  # loaded by the first walk for a secret, not by every command

    try:
        return tuple(orjson.dumps(text)[1:-1] for text in texts)
    except TypeError:
        return None


CHUNK = 512  # items of a long list judged at once


def _untouched(items: list[Any] | tuple[Any, ...], needles: tuple[bytes, ...]) -> bool:
    """Whether no string inside `items` holds a needle, judged from their JSON: JSON escapes
    character by character, so a string holding a text holds it escaped too."""
    import orjson

    try:
        written = orjson.dumps(
            items, default=_as_walked, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS
        )
    except TypeError:
        return False
    return not any(needle in written for needle in needles)


def _as_walked(value: Any) -> Any:
    """What `map_strings` reads of a value orjson does not write itself: a dataclass's init fields
    (orjson's own writing leaves out fields named `_...`), subclasses of the containers and of text
    read through; anything else holds no string it would change."""
    fields = _FIELD_VALUES.get(type(value))
    if fields is not None:
        return fields(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        # Only the values: masking changes no field name. One getter a class, as it is one call a partition.
        names = _init_fields(type(value))
        fields = operator.attrgetter(*names) if names else (lambda _: None)
        _FIELD_VALUES[type(value)] = fields
        return fields(value)
    if isinstance(value, list | tuple):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, str):
        return str(value)
    return None


_FIELD_VALUES: dict[type, Callable[[Any], Any]] = {}


def map_strings(value: Any, change: Callable[[str], str], needles: tuple[bytes, ...] | None = None) -> Any:
    """`value` with `change` applied to every string in it; what holds no changed string is returned
    as it is (a plan of a million partitions is walked, not copied). `needles`: `change` leaves text
    holding none of them as it is, so a long list none of whose strings holds one is not walked."""
    kind = type(value)  # exact types first: a plan of a million partitions passes here a few million times
    if kind is str:
        changed = change(value)
        return value if changed == value else changed
    if kind in _SCALARS:
        return value
    if isinstance(value, str) and not isinstance(value, Enum):
        return change(value)
    if isinstance(value, dict):
        copy: dict[Any, Any] | None = None
        for key, item in value.items():
            mapped = map_strings(item, change, needles)
            if mapped is not item:
                if copy is None:
                    copy = dict(value)
                copy[key] = mapped
        return value if copy is None else copy
    if isinstance(value, list | tuple):
        items = _map_items(value, change, needles)
        if all(new is old for new, old in zip(items, value, strict=True)):
            return value
        return items if isinstance(value, list) else tuple(items)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        updates = {}
        for name in _init_fields(kind):
            item = getattr(value, name)
            mapped = map_strings(item, change, needles)
            if mapped is not item:
                updates[name] = mapped
        return dataclasses.replace(value, **updates) if updates else value
    return value


def _map_items(
    value: list[Any] | tuple[Any, ...], change: Callable[[str], str], needles: tuple[bytes, ...] | None
) -> list[Any]:
    if needles is None or len(value) <= CHUNK:
        return [map_strings(item, change, needles) for item in value]
    items: list[Any] = []
    for start in range(0, len(value), CHUNK):
        chunk = value[start : start + CHUNK]
        if _untouched(chunk, needles):
            items.extend(chunk)
        else:
            items.extend(map_strings(item, change, needles) for item in chunk)
    return items


_INIT_FIELDS: dict[type, tuple[str, ...]] = {}


def _init_fields(kind: type) -> tuple[str, ...]:
    if kind not in _INIT_FIELDS:
        _INIT_FIELDS[kind] = tuple(f.name for f in dataclasses.fields(kind) if f.init)
    return _INIT_FIELDS[kind]
