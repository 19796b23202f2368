"""YAML files with their positions, so every message can name file:line:column."""

from __future__ import annotations

import os
import re
import stat
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from gluecat.errors import SourcePosition, SpecError
from gluecat.model.backend_settings import FIELD as SETTINGS_FIELD
from gluecat.model.backend_settings import KEYS as SETTINGS_KEYS
from gluecat.model.suggest import closest, either
from gluecat.project.yamlparse import Loc, Mark, YamlError, parse
from gluecat.secrets import redact
from gluecat.text.plain import pydantic_plain


@dataclass(frozen=True)
class SourceFile:
    """One parsed YAML file: plain data, and where each value (and key) starts in the text."""

    path: Path
    data: Any
    value_marks: dict[Loc, Mark] = field(default_factory=dict, repr=False)
    key_marks: dict[Loc, Mark] = field(default_factory=dict, repr=False)

    def position(self, loc: Loc, at_key: bool = False) -> SourcePosition:
        """Where `loc` (a pydantic-style path) is in the file; the nearest parent if absent."""
        kept, last_found = self._walk(loc)
        marks = self.key_marks if at_key and last_found else self.value_marks
        line, column = marks.get(kept) or self.value_marks.get(kept, (0, 0))
        return SourcePosition(self.path, line + 1, column + 1)

    def yaml_path(self, loc: Loc) -> Loc:
        """The parts of `loc` that exist in the file (drops pydantic's union tags)."""
        return self._walk(loc)[0]

    def _walk(self, loc: Loc) -> tuple[Loc, bool]:
        node, kept, found = self.data, [], False
        for part in loc:
            found = _has(node, part)
            if found:
                node = node[part]
                kept.append(part)
        return tuple(kept), found

    def error(self, loc: Loc, message: str, at_key: bool = False) -> SpecError:
        return SpecError(self.position(loc, at_key), message)


def _has(node: Any, part: str | int) -> bool:
    if isinstance(node, dict):
        return part in node
    return isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)


def read_yaml(path: Path) -> SourceFile:
    """Parse a YAML file; unreadable or invalid text becomes a SpecError at its position."""
    start = SourcePosition(path, 1, 1)
    problem = file_type_problem(path)
    if problem:
        raise SpecError(start, problem)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SpecError(start, f"cannot read the file: {exc.strerror or exc}") from exc
    try:
        parsed = parse(decode(path, raw))
    except YamlError as exc:
        raise SpecError(SourcePosition(path, exc.line, exc.column), exc.message) from exc
    if parsed.data is None:
        return SourceFile(path, {}, {(): (0, 0)})
    if not isinstance(parsed.data, dict):
        raise SpecError(start, "expected a mapping of keys to values")
    return SourceFile(path, parsed.data, parsed.value_marks, parsed.key_marks)


def file_type_problem(path: Path) -> str | None:
    """Why `path` is not a readable regular file (checked before opening: a FIFO would block)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        if path.is_symlink():
            return f"a symbolic link to '{os.readlink(path)}', which does not exist; fix or remove the link"
        return "the file does not exist"
    except OSError as exc:
        return f"cannot read the file: {exc.strerror or exc}"
    if stat.S_ISDIR(mode):
        return "a directory, not a YAML file; rename it or move it out of the way"
    if not stat.S_ISREG(mode):
        return "not a regular file (a FIFO, socket or device); a catalog file must be a plain file"
    return None


def decode(path: Path, raw: bytes) -> str:
    """UTF-8 text (a byte-order mark is dropped); a bad byte is reported where it is."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        bad = raw[exc.start : exc.start + 1].hex()
        message = f"not UTF-8 text (byte 0x{bad}); save the file as UTF-8"
        raise SpecError(SourcePosition(path, line, column), message) from exc


_MODEL_INSTANCE = re.compile(r"a valid dictionary or instance of \w+")
_MISMATCH_TYPES = {"list_type", "dict_type", "model_type", "model_attributes_type"}
_AT_KEY = {"extra_forbidden", "backend_key"}  # about the key itself (another backend's), not its value


KeyHint = Callable[[Loc], str | None]


def validation_errors(
    source: SourceFile,
    exc: ValidationError | list[ErrorDetails],
    model: type[BaseModel],
    key_hint: KeyHint | None = None,
) -> list[SpecError]:
    """pydantic's errors as SpecErrors with positions, did-you-means, and no union noise."""
    raw = exc.errors(include_url=False) if isinstance(exc, ValidationError) else exc
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
        at_key = err["type"] in _AT_KEY
        errors.append(source.error(tuple(err["loc"]), message, at_key=at_key))
    return sorted(errors, key=lambda e: (e.position.line, e.position.column))


def _message(err: Any, model: type[BaseModel]) -> str:
    loc = tuple(err["loc"])
    if err["type"] == "extra_forbidden":
        key = str(loc[-1])
        allowed = allowed_keys(model, loc[:-1])
        close = closest(key, allowed)
        hint = f" — did you mean {either(close)}?" if close else f" (allowed: {', '.join(allowed)})"
        return f"unknown key '{key}'{hint}"
    if err["type"] == "missing":
        return f"missing required key '{loc[-1]}'"
    if err["type"] == "literal_error" and isinstance(err.get("input"), str):
        close = closest(err["input"], literal_choices(err))
        hint = f" — did you mean {either(close)}?" if close else ""
        return f"{_subject(loc)} should be {err['ctx']['expected']}, not {_describe(err['input'])}{hint}"
    message = pydantic_plain(str(err["msg"]))
    message = _MODEL_INSTANCE.sub("a mapping (key: value)", message).replace("valid dictionary", "mapping")
    if message.startswith("Input should"):
        return f"{_subject(loc)}{message.removeprefix('Input')}, not {_describe(err.get('input'))}"
    return message


def literal_choices(err: ErrorDetails) -> list[str]:
    """The values a literal_error allowed, from pydantic's `'a', 'b' or 'c'`."""
    expected = str(err.get("ctx", {}).get("expected", ""))
    return [match.replace("\\'", "'") for match in re.findall(r"'((?:[^'\\]|\\.)*)'", expected)]


def _subject(loc: Loc) -> str:
    """How a message names the value: `description`, or item 2 of `columns`."""
    keys = [part for part in loc if isinstance(part, str) and part[:1].islower()]
    key = f"`{keys[-1]}`" if keys else "the value"
    if loc and isinstance(loc[-1], int):
        return f"item {loc[-1] + 1} of {key}"
    return key


def _describe(value: Any) -> str:
    if value is None:
        return "an empty value"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    text = redact.scrub_known(str(value))  # masked before it is cut: a cut secret is no longer recognised
    return f"the text '{text if len(text) <= 40 else text[:39] + '…'}'"


def allowed_keys(model: type[BaseModel], loc: Loc) -> list[str]:
    """The keys a mapping at `loc` inside `model` may hold."""
    current: Any = model
    for part in loc:
        current = _step(current, part) or current  # unmatched parts are union tags
    models = [m for m in _members(current) if isinstance(m, type) and issubclass(m, BaseModel)]
    keys: list[str] = []
    for member in models:
        for name, info in member.model_fields.items():
            written = SETTINGS_KEYS if name == SETTINGS_FIELD else (info.alias or name,)  # written flat
            keys.extend(key for key in written if key not in keys)
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
