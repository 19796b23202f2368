"""Values that came from `${env.NAME}`: secrets, never printed and never saved in a plan file.

Every value read from the process environment is registered here with the variable's
name; `mask` replaces each occurrence in text with `(sensitive:NAME)`, and `restore`
puts the environment's value back when a saved plan is applied.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import functools
import hashlib
import hmac
import json
import operator
import os
import re
import threading
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any

import orjson

from gluecat.errors import GluecatError

# `(sensitive:NAME)`, or `(sensitive:NAME@FORM)` where the value was written in another spelling
# (a partition value escaped into its path): group 1 is the name.
PLACEHOLDER = re.compile(r"\(sensitive:([A-Za-z_][A-Za-z0-9_]*)(?:@[a-z]+)?\)")
_PLACED = re.compile(r"\(sensitive:(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:@(?P<form>[a-z]+))?\)")
# An Athena view's payload: JSON in base64, where no text search sees a value.
_PAYLOAD = re.compile(r"/\* Presto View: (?P<body>[A-Za-z0-9+/]+={0,2}) \*/")
_PAYLOAD_OPENING = "/* Presto View: "
# A shorter value is masked only where it is a whole value: inside other text it would mask
# ordinary letters and digits of gluecat's own words and numbers ("glu(sensitive:X)cat").
MIN_INSIDE_TEXT = 4

_lock = threading.Lock()
_names: dict[str, str] = {}  # value -> the variable it came from
_forms: dict[str, Callable[[str], str]] = {}  # other spellings a value is written in: form -> maker
_generation = [0]  # bumped whenever what `mask` looks for changes


def register_form(form: str, make: Callable[[str], str]) -> None:
    """Another spelling gluecat writes values in (`make(value)`): a secret in that spelling is masked
    as `(sensitive:NAME@form)`, and a saved plan restores it through `make`."""
    with _lock:
        _forms[form] = make
        _generation[0] += 1


def register(name: str, value: str) -> None:
    """Remember `value` (from environment variable `name`) as a secret."""
    if value:
        with _lock:
            if value not in _names:
                _names[value] = name
                _generation[0] += 1


def by_name() -> dict[str, str]:
    """Every registered secret: variable name -> its value."""
    with _lock:
        return {name: value for value, name in _names.items()}


def verifier(value: str) -> str:
    """A salted, slow hash of `value`, so that a saved plan can tell whether a secret changed since
    without holding it (the plan file may travel as a CI artifact)."""
    salt = os.urandom(16)
    return f"scrypt${salt.hex()}${_scrypt(value, salt).hex()}"


def matches(value: str, recorded: str) -> bool:
    try:
        kind, salt, digest = recorded.split("$")
        return kind == "scrypt" and hmac.compare_digest(_scrypt(value, bytes.fromhex(salt)).hex(), digest)
    except ValueError:
        return False


def _scrypt(value: str, salt: bytes) -> bytes:
    return hashlib.scrypt(value.encode("utf-8", "surrogateescape"), salt=salt, n=2**14, r=8, p=1, dklen=32)


def values() -> list[str]:
    """Every registered secret value, longest first (so a value inside another is masked last)."""
    with _lock:
        return sorted(_names, key=len, reverse=True)


def forget() -> None:
    """Drop every registered value (a new command, or a test, starts clean)."""
    with _lock:
        _names.clear()
        _generation[0] += 1


def mask(text: str, whole: bool = True) -> str:
    """`text` with every registered secret replaced by `(sensitive:NAME)`: values of
    MIN_INSIDE_TEXT characters or more wherever they occur (in every registered spelling, and inside
    Athena view payloads), shorter ones when they are the whole text (`whole`: the text is one value,
    such as a field; a stream of output is not)."""
    if not _names or not text:
        return text
    return _mask_text(_in_payloads(text, lambda inner: _mask_text(inner, True)), whole)


def _mask_text(text: str, whole: bool) -> str:
    if whole and text in _names:
        return f"(sensitive:{_names[text]})"
    pattern, spelled = _pattern(_generation[0])
    if pattern is None:
        return text
    return pattern.sub(lambda match: spelled[match.group(0)], text)


@functools.lru_cache(maxsize=4)
def _pattern(generation: int) -> tuple[re.Pattern[str] | None, dict[str, str]]:
    """What to look for (each value and each of its spellings) and what each becomes; `generation`
    keys the cache."""
    with _lock:
        named, forms = dict(_names), dict(_forms)
    spelled: dict[str, str] = {}
    for value, name in named.items():
        if len(value) >= MIN_INSIDE_TEXT:
            spelled.setdefault(value, f"(sensitive:{name})")
    for value, name in named.items():
        for form, make in sorted(forms.items()):
            other = make(value)
            if len(value) >= MIN_INSIDE_TEXT and other != value:
                spelled.setdefault(other, f"(sensitive:{name}@{form})")
    if not spelled:
        return None, spelled
    ordered = sorted(spelled, key=len, reverse=True)  # longest first: no partial masking
    return re.compile("|".join(re.escape(value) for value in ordered)), spelled


def _in_payloads(text: str, change: Callable[[str], str]) -> str:
    """`text` with `change` applied to every string inside each Athena view payload it holds; a
    payload nothing changed keeps its bytes."""
    if _PAYLOAD_OPENING not in text:
        return text

    def one(match: re.Match[str]) -> str:
        try:
            data = json.loads(base64.b64decode(match["body"], validate=True).decode("utf-8"))
        except (binascii.Error, ValueError):
            return match.group(0)
        changed = _map_strings(data, change)
        if changed == data:
            return match.group(0)
        body = json.dumps(changed, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        return f"{_PAYLOAD_OPENING}{base64.b64encode(body).decode('ascii')} */"

    return _PAYLOAD.sub(one, text)


def placeholders(text: str) -> set[str]:
    """The names of the placeholders in `text`, those inside view payloads too."""
    found: set[str] = set()

    def collect(inner: str) -> str:
        found.update(PLACEHOLDER.findall(inner))
        return inner

    collect(text)
    _in_payloads(text, collect)
    return found


# Text that already reads `(sensitive:NAME)` before gluecat masks anything (a YAML literal, a live
# parameter anyone with Glue write access set) is escaped to `(sensitive::NAME)`, so `restore_data`
# puts back only the placeholders gluecat made: never an environment value into a planted one.
_OPENING = "(sensitive:"
_ESCAPED = "(sensitive::"


def mask_data(value: Any) -> Any:
    """`mask` applied to every string inside dicts, lists, tuples and frozen dataclasses, text that
    already looks like a placeholder escaped first (inside view payloads too)."""

    def one(text: str) -> str:
        return mask(text.replace(_OPENING, _ESCAPED)) if _names else text.replace(_OPENING, _ESCAPED)

    with _lock:
        wholes = list(_names)
    spellings = [*wholes, *_pattern(_generation[0])[1]]
    return _map_strings(
        value,
        lambda text: _in_payloads(text, one) if _PAYLOAD_OPENING in text else one(text),
        _needles(_OPENING, _PAYLOAD_OPENING, *spellings),
    )


def restore_data(value: Any, environ: Mapping[str, str] | None = None) -> Any:
    """Put each `(sensitive:NAME)` gluecat made back from the environment (an unset NAME is an error
    naming it), and escaped text back as it was."""
    env = os.environ if environ is None else environ

    def one(text: str) -> str:
        if _OPENING not in text:
            return text
        restored = _PLACED.sub(lambda match: _required(env, match["name"], match["form"]), text)
        return restored.replace(_ESCAPED, _OPENING)

    return _map_strings(
        value,
        lambda text: one(_in_payloads(text, one) if _PAYLOAD_OPENING in text else text),
        _needles(_OPENING, _PAYLOAD_OPENING),
    )


def _required(environ: Mapping[str, str], name: str, form: str | None) -> str:
    if name not in environ:
        raise GluecatError(f"environment variable {name} is not set: the plan needs its value (set {name})")
    register(name, environ[name])
    if form is None:
        return environ[name]
    if form not in _forms:
        raise GluecatError(f"the plan holds {name} written as {form!r}, which this gluecat does not write: plan again")
    return _forms[form](environ[name])


_SCALARS = (int, float, bool, type(None))


def _needles(*texts: str) -> tuple[bytes, ...] | None:
    """Each text as it reads inside JSON (None: a text JSON cannot hold, so no list is skipped)."""
    try:
        return tuple(orjson.dumps(text)[1:-1] for text in texts)
    except TypeError:
        return None


_CHUNK = 512  # items of a long list judged at once


def _untouched(items: list[Any] | tuple[Any, ...], needles: tuple[bytes, ...]) -> bool:
    """Whether no string inside `items` holds a needle, judged from their JSON: JSON escapes
    character by character, so a string holding a text holds it escaped too."""
    try:
        written = orjson.dumps(
            items, default=_as_walked, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS
        )
    except TypeError:
        return False
    return not any(needle in written for needle in needles)


def _as_walked(value: Any) -> Any:
    """What `_map_strings` reads of a value orjson does not write itself: a dataclass's init fields
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


def _map_strings(value: Any, change: Callable[[str], str], needles: tuple[bytes, ...] | None = None) -> Any:
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
            mapped = _map_strings(item, change, needles)
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
            mapped = _map_strings(item, change, needles)
            if mapped is not item:
                updates[name] = mapped
        return dataclasses.replace(value, **updates) if updates else value
    return value


def _map_items(
    value: list[Any] | tuple[Any, ...], change: Callable[[str], str], needles: tuple[bytes, ...] | None
) -> list[Any]:
    if needles is None or len(value) <= _CHUNK:
        return [_map_strings(item, change, needles) for item in value]
    items: list[Any] = []
    for start in range(0, len(value), _CHUNK):
        chunk = value[start : start + _CHUNK]
        if _untouched(chunk, needles):
            items.extend(chunk)
        else:
            items.extend(_map_strings(item, change, needles) for item in chunk)
    return items


_INIT_FIELDS: dict[type, tuple[str, ...]] = {}


def _init_fields(kind: type) -> tuple[str, ...]:
    if kind not in _INIT_FIELDS:
        _INIT_FIELDS[kind] = tuple(f.name for f in dataclasses.fields(kind) if f.init)
    return _INIT_FIELDS[kind]
