"""YAML text to plain dicts and lists, plus a side table of where every value starts.

libyaml (through PyYAML) produces the events; this module builds the data from
them without a node tree, so a catalog of ten thousand files parses in about
the time libyaml alone takes. Scalars follow YAML 1.2's core schema, the way
the catalog has always read them: `yes`/`on` stay text, `0777` is 777, dates
stay text (Glue stores them as strings, and a bad date gets our own message).
Anchors and aliases are refused, so an alias bomb costs nothing, and nesting
is bounded (MAX_DEPTH), so a hostile file cannot exhaust the stack.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml  # type: ignore[import-untyped]  # PyYAML ships no type hints
from yaml import events

Loc = tuple[str | int, ...]
Mark = tuple[int, int]  # 0-based line and column, as libyaml counts them

# A catalog file nests six levels at most (table > partitions > item > expand
# > key > range); anything far deeper is a mistake or an attack.
MAX_DEPTH = 64

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_CONTAINER_TAGS = (None, "!", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")

_NULL_TEXT = frozenset(("", "~", "null", "Null", "NULL"))
_BOOL_TEXT = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT_TEXT = re.compile(r"[-+]?(?:0b[01_]+|0o[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*)")
_FLOAT_TEXT = re.compile(
    r"""[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
    |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
    |[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?
    |[-+]?\.(?:inf|Inf|INF)
    |\.(?:nan|NaN|NAN)""",
    re.X,
)
_INT_BASES = {"0b": 2, "0o": 8, "0x": 16}


class YamlError(Exception):
    """Text that is not YAML gluecat reads; line and column are 1-based."""

    def __init__(self, line: int, column: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.column = column
        self.message = message


@dataclass(frozen=True)
class Parsed:
    data: Any
    value_marks: dict[Loc, Mark]
    key_marks: dict[Loc, Mark]


def _pick_loader() -> type[Any]:
    if getattr(yaml, "__with_libyaml__", False):
        fast: type[Any] = yaml.CBaseLoader
        return fast
    sys.stderr.write("gluecat: warning: libyaml is missing; YAML loads with the much slower pure-Python parser\n")
    loader: type[Any] = yaml.BaseLoader
    return loader


_LOADER: type[Any] | None = None


def parse(text: str) -> Parsed:
    """Parse one YAML document; raise YamlError at the first problem."""
    global _LOADER
    if _LOADER is None:
        _LOADER = _pick_loader()
    loader = _LOADER(text)
    builder = _Builder()
    try:
        while loader.check_event():
            builder.feed(loader.get_event())
    except yaml.MarkedYAMLError as exc:
        raise _from_marked(exc, text) from exc
    except yaml.reader.ReaderError as exc:
        raise _from_reader(exc, text) from exc
    finally:
        loader.dispose()
    return Parsed(builder.root, builder.value_marks, builder.key_marks)


_UNCLOSED = {"flow sequence": ("[", "]"), "flow mapping": ("{", "}")}


def _from_marked(exc: yaml.MarkedYAMLError, text: str) -> YamlError:
    """Say what the user did where they did it: a tab where YAML wants spaces, a bracket left open
    at the bracket (libyaml notices only where the next key begins)."""
    mark = exc.problem_mark or exc.context_mark
    line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    problem = " ".join(part for part in (exc.context, exc.problem) if part)
    lines = text.splitlines()
    at = lines[line - 1] if 0 < line <= len(lines) else ""
    if "cannot start any token" in problem and at[column - 1 : column] == "\t":
        return YamlError(line, column, "invalid YAML: a tab indents this line; YAML indents with spaces only")
    for what, (opening, closing) in _UNCLOSED.items():
        if f"while parsing a {what}" in problem and exc.context_mark is not None:
            opened = exc.context_mark
            return YamlError(
                opened.line + 1,
                opened.column + 1,
                f"invalid YAML: this '{opening}' is never closed: add '{closing}' (or a ',' between its items)"
                f" before line {line}",
            )
    return YamlError(line, column, f"invalid YAML: {problem}")


def _from_reader(exc: yaml.reader.ReaderError, text: str) -> YamlError:
    before = text[: exc.position]
    line = before.count("\n") + 1
    column = len(before) - (before.rfind("\n") + 1) + 1
    character = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "\0")
    return YamlError(
        line,
        column,
        f"invalid YAML: control character #x{character:04x} is not allowed; remove it (or quote it as an escape)",
    )


class _Frame:
    """An open mapping or sequence, and where its next value goes."""

    __slots__ = ("awaiting_key", "container", "key", "key_mark", "path")

    def __init__(self, container: dict[Any, Any] | list[Any], path: Loc) -> None:
        self.container = container
        self.path = path
        self.key: Any = None
        self.key_mark: Mark = (0, 0)
        self.awaiting_key = isinstance(container, dict)


class _Builder:
    def __init__(self) -> None:
        self.root: Any = None
        self.stack: list[_Frame] = []
        self.value_marks: dict[Loc, Mark] = {}
        self.key_marks: dict[Loc, Mark] = {}
        self.documents = 0
        self.handlers: dict[type[Any], Callable[[Any], None]] = {
            events.ScalarEvent: self.scalar,
            events.MappingStartEvent: self.mapping,
            events.SequenceStartEvent: self.sequence,
            events.MappingEndEvent: self.end,
            events.SequenceEndEvent: self.end,
            events.AliasEvent: self.alias,
            events.DocumentStartEvent: self.document,
        }

    def feed(self, event: Any) -> None:
        handler = self.handlers.get(type(event))
        if handler is not None:
            handler(event)

    def document(self, event: Any) -> None:
        self.documents += 1
        if self.documents > 1:
            raise _error(event, "a file holds one YAML document; remove the second `---`")

    def alias(self, event: Any) -> None:
        raise _error(event, f"YAML aliases (*{event.anchor}) are not supported: write the value out")

    def scalar(self, event: Any) -> None:
        _refuse_anchor(event)
        value = _scalar_value(event)
        frame = self.stack[-1] if self.stack else None
        if frame is not None and frame.awaiting_key:
            assert isinstance(frame.container, dict)
            if value in frame.container:
                raise _error(event, f"duplicate key '{value}': each key may appear once in a mapping")
            frame.key, frame.key_mark, frame.awaiting_key = value, _mark(event), False
            return
        self.place(value, event)

    def mapping(self, event: Any) -> None:
        self.open({}, event)

    def sequence(self, event: Any) -> None:
        self.open([], event)

    def open(self, container: dict[Any, Any] | list[Any], event: Any) -> None:
        _refuse_anchor(event)
        if event.tag not in _CONTAINER_TAGS:
            raise _error(event, f"YAML tag '{event.tag}' is not supported here; remove it")
        if self.stack and self.stack[-1].awaiting_key:
            raise _error(event, "a key must be a single value, not a list or mapping")
        if len(self.stack) >= MAX_DEPTH:
            raise _error(event, f"nested more than {MAX_DEPTH} levels deep; a catalog file needs a handful")
        path = self.place(container, event)
        self.stack.append(_Frame(container, path))

    def end(self, _: Any) -> None:
        self.stack.pop()

    def place(self, value: Any, event: Any) -> Loc:
        """Put a value where the open container expects it; remember where it starts."""
        mark = _mark(event)
        if not self.stack:
            self.root = value
            self.value_marks[()] = mark
            return ()
        frame = self.stack[-1]
        container = frame.container
        if isinstance(container, list):
            path = (*frame.path, len(container))
            container.append(value)
        else:
            path = (*frame.path, frame.key)
            container[frame.key] = value
            self.key_marks[path] = frame.key_mark
            frame.awaiting_key = True
        self.value_marks[path] = mark
        return path


def _mark(event: Any) -> Mark:
    start = event.start_mark
    return start.line, start.column


def _error(event: Any, message: str) -> YamlError:
    line, column = _mark(event)
    return YamlError(line + 1, column + 1, message)


def _refuse_anchor(event: Any) -> None:
    if event.anchor is not None:
        raise _error(event, f"YAML anchors (&{event.anchor}) are not supported: write the value out")


def _scalar_value(event: Any) -> Any:
    text: str = event.value
    tag = event.tag
    if event.implicit[0]:  # plain and untagged: the schema decides
        return resolve_plain(text)
    if tag is None or tag == "!":
        return text
    converters: dict[str, Callable[[str], Any]] = {
        _STR: str,
        _INT: _int,
        _FLOAT: _float,
        _BOOL: _bool,
        _NULL: _null,
    }
    convert = converters.get(tag)
    if convert is None:
        raise _error(event, f"YAML tag '{tag}' is not supported; remove it")
    try:
        return convert(text)
    except ValueError:
        raise _error(event, f"'{text}' is not a valid {tag.rsplit(':', 1)[-1]}") from None


def resolve_plain(text: str) -> Any:
    """An unquoted scalar's value under YAML 1.2's core schema."""
    if text in _NULL_TEXT:
        return None
    first = text[0]
    if first in "tTfF" and text in _BOOL_TEXT:
        return _BOOL_TEXT[text]
    if first in "-+0123456789.":
        try:
            if _INT_TEXT.fullmatch(text):
                return _int(text)
            if _FLOAT_TEXT.fullmatch(text):
                return _float(text)
        except ValueError:  # `0x_`: the pattern's shape, without digits
            return text
    return text


def _int(text: str) -> int:
    digits = text.replace("_", "")
    sign = -1 if digits.startswith("-") else 1
    digits = digits.lstrip("+-")
    base = _INT_BASES.get(digits[:2].lower(), 10)
    return sign * int(digits[2:] if base != 10 else digits, base)


def _float(text: str) -> float:
    return float(text.replace("_", "").lower().replace(".inf", "inf").replace(".nan", "nan"))


def _bool(text: str) -> bool:
    if text not in _BOOL_TEXT:
        raise ValueError(text)
    return _BOOL_TEXT[text]


def _null(text: str) -> None:
    if text not in _NULL_TEXT:
        raise ValueError(text)
