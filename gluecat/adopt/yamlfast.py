"""What import writes, written directly: the few shapes a table file holds (mappings of text keys,
lists, single-line text, integers, booleans, null) come out byte for byte as PyYAML's emitter
writes them with `yamlout`'s settings, at a fraction of its cost (a table file in ~0.1 ms instead
of ~1 ms: ten thousand tables are ten seconds less). PyYAML still decides, per string, whether it
may stand plain and how it resolves; anything else (floats, multi-line or double-quoted text, keys
that are not simple, very long lines) answers None, and PyYAML writes the whole file. A property
test holds the two byte for byte."""

from __future__ import annotations

import functools
import io
from collections.abc import Callable
from typing import Any

from yaml.emitter import Emitter  # type: ignore[import-untyped]  # PyYAML ships no type hints
from yaml.nodes import ScalarNode  # type: ignore[import-untyped]

STR_TAG = "tag:yaml.org,2002:str"
LONGEST = 2000  # characters: PyYAML breaks a line past its width (4096 columns), so stay well short
SIMPLE_KEY = 100  # characters: PyYAML writes a key of 123 or more (with its tag) as a complex key


class _Unsupported(Exception):
    """A value this writer leaves to PyYAML."""


class _Analyzer:
    allow_unicode = True


def dump(data: dict[str, Any], style: Callable[[str], str | None], resolver: Any) -> str | None:
    """`data` (already in key order) as PyYAML would write it; None where PyYAML must."""
    out: list[str] = []
    try:
        if not data:
            return None
        _mapping(data, 0, out, style, resolver, first_inline=False)
    except _Unsupported:
        return None
    out.append("\n")
    return "".join(out)


def _mapping(
    data: dict[Any, Any], indent: int, out: list[str], style: Callable[[str], str | None], resolver: Any,
    first_inline: bool,
) -> None:  # fmt: skip
    pad = " " * indent
    for index, (key, value) in enumerate(data.items()):
        if not isinstance(key, str) or not key or len(key) >= SIMPLE_KEY:
            raise _Unsupported
        if index or not first_inline:
            if out:
                out.append("\n")
            out.append(pad)
        out.append(_text(key, style, resolver, key=True))
        out.append(":")
        _value(value, indent, out, style, resolver)


def _sequence(
    data: list[Any], indent: int, out: list[str], style: Callable[[str], str | None], resolver: Any, first_inline: bool
) -> None:
    pad = " " * indent
    for index, item in enumerate(data):
        if index or not first_inline:
            out.append("\n")
            out.append(pad)
        out.append("- ")
        if isinstance(item, dict) and item:
            _mapping(item, indent + 2, out, style, resolver, first_inline=True)
        elif isinstance(item, list) and item:
            _sequence(item, indent + 2, out, style, resolver, first_inline=True)
        else:
            out.append(_scalar(item, style, resolver))


def _value(value: Any, indent: int, out: list[str], style: Callable[[str], str | None], resolver: Any) -> None:
    if isinstance(value, dict) and value:
        _mapping(value, indent + 2, out, style, resolver, first_inline=False)
    elif isinstance(value, list) and value:
        _sequence(value, indent + 2, out, style, resolver, first_inline=False)
    else:
        out.append(" ")
        out.append(_scalar(value, style, resolver))


def _scalar(value: Any, style: Callable[[str], str | None], resolver: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    kind = type(value)
    if kind is int:
        return str(value)
    if kind is dict:
        return "{}"
    if kind is list:
        return "[]"
    if kind is str:
        return _text(value, style, resolver, key=False)
    raise _Unsupported  # floats and anything else: PyYAML's own spelling


def _text(text: str, style: Callable[[str], str | None], resolver: Any, key: bool) -> str:
    return _styled(text, style(text), key, resolver)


@functools.lru_cache(maxsize=1 << 14)
def _styled(text: str, chosen: str | None, key: bool, resolver: Any) -> str:
    """PyYAML's choice (Emitter.choose_scalar_style) for one line of text in block context."""
    if chosen in ('"', "|") or len(text) > LONGEST:
        raise _Unsupported
    analysis = Emitter.analyze_scalar(_Analyzer, text)
    if analysis.multiline:
        raise _Unsupported
    plain = resolver.resolve(ScalarNode, text, (True, False)) == STR_TAG
    if chosen is None and plain and not (key and analysis.empty) and analysis.allow_block_plain:
        return text
    if analysis.allow_single_quoted:
        return "'" + text.replace("'", "''") + "'"
    raise _Unsupported


def resolver_of(dumper: type[Any]) -> Any:
    """A dumper instance whose `resolve` answers how PyYAML would read a plain scalar."""
    return dumper(io.StringIO())
