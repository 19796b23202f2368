"""A model of what a file says beside its errors, so that validate checks the rest of it too.

Each value pydantic refused is taken out (an unknown column type is read as `string`, so the
column stays for the name and partition rules) until the rest validates. Only validate uses it:
a file with errors never reaches plan or apply.
"""

from __future__ import annotations

import copy
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

ROUNDS = 20  # each round takes out what one validation refused; a file has few nesting levels
M = TypeVar("M", bound=BaseModel)


def best_effort(model: type[M], data: dict[str, Any], error: ValidationError) -> M | None:
    current = copy.deepcopy(data)
    for _ in range(ROUNDS):
        if not any([_take_out(current, tuple(e["loc"]), e["type"]) for e in error.errors()]):
            return None
        try:
            return model.model_validate(current)
        except ValidationError as again:
            error = again
    return None


def _take_out(data: Any, loc: tuple[Any, ...], kind: str) -> bool:
    """Remove (or for a column type, neutralise) the value at `loc`; False when nothing could be."""
    if loc[:1] == ("name",):  # the object's own name: without it nothing can be said of the rest
        return False
    if kind == "missing":  # an item lacks a field it needs: drop the item from its list
        lists = [(c, k) for c, k in _steps(data, loc[:-1]) if isinstance(c, list)]
        if not lists:
            return False
        container, index = lists[-1]
        container.pop(index)
        return True
    steps = _steps(data, loc)
    if not steps:
        return False
    parent, key = steps[-1]
    if key == "type" and isinstance(parent, dict) and "name" in parent:
        if parent.get("type") == "string":
            return False
        parent["type"] = "string"
        return True
    if isinstance(parent, dict):
        del parent[key]
    else:
        parent.pop(key)
    return True


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
