"""YAML files with their positions, so every message can name file:line:column."""

from __future__ import annotations

import difflib
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.error import MarkedYAMLError

from gluecat.errors import SourcePosition, SpecError

Loc = tuple[str | int, ...]


@dataclass(frozen=True)
class SourceFile:
    """One parsed YAML file: its path and the ruamel node tree (which knows positions)."""

    path: Path
    data: Any

    def position(self, loc: Loc, at_key: bool = False) -> SourcePosition:
        """Where `loc` (a pydantic-style path) is in the file; the nearest parent if absent."""
        node: Any = self.data
        line, column = node.lc.line, node.lc.col
        for index, part in enumerate(loc):
            last = index == len(loc) - 1
            if not _has(node, part):
                continue
            marks: Any = node.lc
            if isinstance(node, list):
                line, column = marks.item(part)
            else:
                line, column = marks.key(part) if (at_key and last) else marks.value(part)
            node = node[part]
        return SourcePosition(self.path, line + 1, column + 1)

    def yaml_path(self, loc: Loc) -> Loc:
        """The parts of `loc` that exist in the file (drops pydantic's union tags)."""
        node, kept = self.data, []
        for part in loc:
            if _has(node, part):
                node = node[part]
                kept.append(part)
        return tuple(kept)

    def error(self, loc: Loc, message: str, at_key: bool = False) -> SpecError:
        return SpecError(self.position(loc, at_key), message)


def _has(node: Any, part: str | int) -> bool:
    if isinstance(node, dict):
        return part in node
    return isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)


class _Constructor(RoundTripConstructor):
    """Dates stay text: Glue stores them as strings, and a bad date gets our message."""


_Constructor.add_constructor("tag:yaml.org,2002:timestamp", lambda loader, node: str(loader.construct_scalar(node)))


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.Constructor = _Constructor
    return yaml


def read_yaml(path: Path) -> SourceFile:
    """Parse a YAML file; a syntax error becomes a SpecError at its position."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(SourcePosition(path, 1, 1), f"cannot read the file: {exc}") from exc
    try:
        data = _yaml().load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = " ".join(part for part in (exc.context, exc.problem) if part)
        raise SpecError(SourcePosition(path, line, column), f"invalid YAML: {problem}") from exc
    if data is None:
        data = _yaml().load("{}")
    if not isinstance(data, dict):
        raise SpecError(SourcePosition(path, 1, 1), "expected a mapping of keys to values")
    return SourceFile(path, data)


_MISMATCH_TYPES = {"list_type", "dict_type", "model_type", "model_attributes_type"}


KeyHint = Callable[[Loc], str | None]


def validation_errors(
    source: SourceFile,
    exc: ValidationError,
    model: type[BaseModel],
    key_hint: KeyHint | None = None,
) -> list[SpecError]:
    """pydantic's errors as SpecErrors with positions, did-you-means, and no union noise."""
    raw = exc.errors(include_url=False)
    paths = [source.yaml_path(tuple(err["loc"])) for err in raw]
    errors: list[SpecError] = []
    seen: set[tuple[Loc, str]] = set()
    for index, (err, path) in enumerate(zip(raw, paths, strict=True)):
        if err["type"] in _MISMATCH_TYPES and any(
            other[: len(path)] == path for i, other in enumerate(paths) if i != index
        ):
            continue  # a union branch that did not apply; a sibling error says more
        hint = key_hint(tuple(err["loc"])) if key_hint and err["type"] == "extra_forbidden" else None
        message = hint or _message(err, model)
        if (path, message) in seen:
            continue
        seen.add((path, message))
        at_key = err["type"] == "extra_forbidden"
        errors.append(source.error(tuple(err["loc"]), message, at_key=at_key))
    return sorted(errors, key=lambda e: (e.position.line, e.position.column))


def _message(err: Any, model: type[BaseModel]) -> str:
    loc = tuple(err["loc"])
    if err["type"] == "extra_forbidden":
        key = str(loc[-1])
        allowed = allowed_keys(model, loc[:-1])
        close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
        hint = f" — did you mean '{close[0]}'?" if close else f" (allowed: {', '.join(allowed)})"
        return f"unknown key '{key}'{hint}"
    if err["type"] == "missing":
        return f"missing required key '{loc[-1]}'"
    message = str(err["msg"])
    return message.removeprefix("Value error, ")


def allowed_keys(model: type[BaseModel], loc: Loc) -> list[str]:
    """The keys a mapping at `loc` inside `model` may hold."""
    current: Any = model
    for part in loc:
        current = _step(current, part) or current  # unmatched parts are union tags
    models = [m for m in _members(current) if isinstance(m, type) and issubclass(m, BaseModel)]
    keys: list[str] = []
    for member in models:
        for name, info in member.model_fields.items():
            key = info.alias or name
            if key not in keys:
                keys.append(key)
    return keys


def _members(annotation: Any) -> list[Any]:
    """Flatten Optional/Union/Annotated into the plain types they allow."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _members(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        return [m for arg in typing.get_args(annotation) for m in _members(arg)]
    return [annotation]


def _step(annotation: Any, part: str | int) -> Any:
    for member in _members(annotation):
        if isinstance(member, type) and member.__name__ == part:
            return member
        origin = typing.get_origin(member)
        if isinstance(part, int) and origin is list:
            return typing.get_args(member)[0]
        if isinstance(member, type) and issubclass(member, BaseModel):
            for name, info in member.model_fields.items():
                if part in (name, info.alias):
                    return info.annotation
        if origin is dict and isinstance(part, str):
            return typing.get_args(member)[1]
    return None
