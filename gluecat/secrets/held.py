"""Secret values a saved plan carries from the live catalog, held back from the file.

An update lays what the YAML declares over the live object, so its desired shape carries every
live parameter the YAML does not name (a `jdbc.password` someone set in Glue). A saved plan holds
back each such secret-looking value as MARK, addressed by where it belongs, and apply takes it from
the live object again at the same place: the plan has checked that the object is still the version
it planned, so the value is the one planned. Values the YAML declares are the file's own (masked as
`${env.…}` values are, or written by the user) and are not held back. A table's or database's
Owner and Description are held back the same way when their text gives a secret away.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from gluecat.errors import ConflictError
from gluecat.secrets.redact import is_secret_key, scrub

MARK = "(sensitive:@live)"  # "(sensitive:" text of anyone else's is escaped before a plan is saved
# Free text of a table or database that may quote a secret (`svc;Password=...`): held back like a
# secret parameter when its text gives one away and the plan does not change it.
FREE_TEXT = ("Owner", "Description")
# Where parameters sit in a TableInput or DatabaseInput, and the name plan's diffs give them.
_DIFF_PREFIX = {
    ("Parameters",): "parameters",
    ("StorageDescriptor", "Parameters"): "storage_parameters",
    ("StorageDescriptor", "SerdeInfo", "Parameters"): "serde.parameters",
}


def hold_back(desired: Mapping[str, Any], diffs: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """`desired` with MARK for each secret-looking parameter value that came from the live object
    unchanged: no diff (path, new value) names its place or a place holding it (a new column holds
    its parameters). Where a value sits decides, never its text: a live secret whose text also
    appears in a changed value is still held back."""
    declared = [path for path, _ in diffs]

    def one(place: tuple[str, ...], key: str, value: Any) -> Any:
        held = isinstance(value, str) and (is_secret_key(key) or scrub(value) != value)
        path = _path_of(place, key)
        unchanged = not any(path == named or path.startswith(f"{named}.") for named in declared)
        return MARK if held and unchanged else value

    return _each_parameter(desired, one)


def holds(desired: Any) -> bool:
    return isinstance(desired, Mapping) and MARK in repr(desired)


def fill(desired: Mapping[str, Any], live: Mapping[str, Any] | None, address: str) -> dict[str, Any]:
    """`desired` with each MARK replaced by the live value at the same place."""

    def one(place: tuple[str, ...], key: str, value: Any) -> Any:
        if value != MARK:
            return value
        found = _parameters_at(live or {}, place).get(key)
        if not isinstance(found, str):
            raise ConflictError(f"{address}: {_path_of(place, key)} is gone from Glue since the plan; plan again")
        return found

    return _each_parameter(desired, one)


def _path_of(place: tuple[str, ...], key: str) -> str:
    return key.lower() if not place else f"{_diff_path(place)}.{key}"


def _diff_path(place: tuple[str, ...]) -> str:
    if place in _DIFF_PREFIX:
        return _DIFF_PREFIX[place]
    if len(place) == 4 and place[:2] == ("StorageDescriptor", "Columns") and place[3] == "Parameters":
        return f"columns.{place[2].lower()}.parameters"
    return ".".join(place)  # a place plan never diffs: its values are always held back


def _parameters_at(shape: Mapping[str, Any], place: tuple[str, ...]) -> Mapping[str, Any]:
    current: Any = shape
    for step in place:
        if isinstance(current, list):  # columns, by name
            current = next((c for c in current if isinstance(c, Mapping) and c.get("Name") == step), None)
        elif isinstance(current, Mapping):
            current = current.get(step)
        if current is None:
            return {}
    return current if isinstance(current, Mapping) else {}


def _each_parameter(shape: Mapping[str, Any], change: Callable[[tuple[str, ...], str, Any], Any]) -> dict[str, Any]:
    """`shape` (a TableInput, a DatabaseInput, or a Delta change's with one under `glue`) with
    `change(place, key, value)` applied to every parameter."""

    def walk(value: Any, place: tuple[str, ...]) -> Any:
        if isinstance(value, list):
            return [
                walk(item, (*place, str(item["Name"])) if isinstance(item, Mapping) and "Name" in item else place)
                for item in value
            ]
        if not isinstance(value, Mapping):
            return value
        if place and place[-1] == "Parameters":
            return {key: change(place, str(key), item) for key, item in value.items()}
        return {
            key: change(place, key, item) if not place and key in FREE_TEXT else walk(item, (*place, str(key)))
            for key, item in value.items()
        }

    root = dict(shape)
    if isinstance(root.get("glue"), Mapping):  # a Delta change: the Glue registration it writes
        root["glue"] = walk(root["glue"], ())
        return root
    result: dict[str, Any] = walk(root, ())
    return result
