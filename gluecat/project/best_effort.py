"""A model of what a file says beside its errors, so that validate checks the rest of it too.

Each value pydantic refused is taken out (an unknown column type is read as `string`, so the
column stays for the name and partition rules; a misspelt value is read as the value it is
closest to) until the rest validates; the errors that only then show are reported as well. Only validate uses it:
a file with errors never reaches plan or apply.
"""

from __future__ import annotations

import copy
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails as ErrorDict

from gluecat.model.suggest import Misspelt, closest
from gluecat.project.source import literal_choices

ROUNDS = 20  # each round takes out what one validation refused; a file has few nesting levels
M = TypeVar("M", bound=BaseModel)


def best_effort(model: type[M], data: dict[str, Any], error: ValidationError) -> tuple[M | None, list[ErrorDict]]:
    """The model of what validates, and the errors that only showed once the first ones were taken
    out (a model's own checks run only when its fields validate). A later error is kept when no value
    within its reach was taken out, only read as what it was close to: else it may be an echo."""
    current = copy.deepcopy(data)
    removed: list[tuple[Any, ...]] = []
    later: list[ErrorDict] = []
    first = True
    for _ in range(ROUNDS):
        if not first:
            later += [e for e in error.errors() if not any(r[: len(e["loc"])] == tuple(e["loc"]) for r in removed)]
        first = False
        took = False
        for e in error.errors():
            outcome = _take_out(current, tuple(e["loc"]), e["type"], _meant(e))
            took = took or outcome is not None
            if outcome == "removed":
                removed.append(_reach(tuple(e["loc"]), e["type"]))
        if not took:
            return None, later
        try:
            return model.model_validate(current), later
        except ValidationError as again:
            error = again
    return None, later


def _reach(loc: tuple[Any, ...], kind: str) -> tuple[Any, ...]:
    """What a removal may have changed: the value's own path, or the whole list it was an item of
    (the items after it moved up, so their later errors would point at the wrong lines)."""
    if kind == "missing":
        items = [i for i, step in enumerate(loc[:-1]) if isinstance(step, int)]
        return loc[: items[-1]] if items else loc
    return loc[:-1] if loc and isinstance(loc[-1], int) else loc


def _meant(error: ErrorDict) -> str | None:
    """What a value outside its closed set was probably meant to be, when one member is closest."""
    if error["type"] == "literal_error" and isinstance(error.get("input"), str):
        close = closest(error["input"], literal_choices(error))
        return close[0] if close else None
    cause = error.get("ctx", {}).get("error")
    return cause.meant if isinstance(cause, Misspelt) else None


def _take_out(data: Any, loc: tuple[Any, ...], kind: str, meant: str | None = None) -> str | None:
    """Remove (or for a column type, neutralise; for a misspelt value, read as what was meant) the
    value at `loc`: "removed" or "replaced", None when nothing could be."""
    if loc[:1] == ("name",):  # the object's own name: without it nothing can be said of the rest
        return None
    if kind == "missing":  # an item lacks a field it needs: drop the item from its list
        lists = [(c, k) for c, k in _steps(data, loc[:-1]) if isinstance(c, list)]
        if not lists:
            return None
        container, index = lists[-1]
        container.pop(index)
        return "removed"
    steps = _steps(data, loc)
    if not steps:
        return None
    parent, key = steps[-1]
    if meant is not None and parent[key] != meant:
        parent[key] = meant
        return "replaced"
    if key == "type" and isinstance(parent, dict) and "name" in parent:
        if parent.get("type") == "string":
            return None
        parent["type"] = "string"
        return "removed"  # a column read as string may draw errors its real type would not
    if isinstance(parent, dict):
        del parent[key]
    else:
        parent.pop(key)
    return "removed"


def _steps(data: Any, loc: tuple[Any, ...]) -> list[tuple[Any, Any]]:
    """(container, key) for each step of loc that is in the data, skipping the union and validator
    names pydantic adds; [] when the path leaves the data."""
    steps: list[tuple[Any, Any]] = []
    node = data
    for step in loc:
        if (isinstance(node, dict) and step in node) or (
            isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node)
        ):
            steps.append((node, step))
            node = node[step]
        elif not isinstance(step, str):
            return []
    return steps
