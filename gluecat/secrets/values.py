"""Values that came from `${env.NAME}`: secrets, never printed and never saved in a plan file.

Every value read from the process environment is registered here with the variable's
name; `mask` replaces each occurrence in text with `(sensitive:NAME)`, and `restore`
puts the environment's value back when a saved plan is applied.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import os
import re
import threading
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any

from gluecat.errors import GluecatError

PLACEHOLDER = re.compile(r"\(sensitive:([A-Za-z_][A-Za-z0-9_]*)\)")
# A shorter value is masked only where it is a whole value: inside other text it would mask
# ordinary letters and digits of gluecat's own words and numbers ("glu(sensitive:X)cat").
MIN_INSIDE_TEXT = 4

_lock = threading.Lock()
_names: dict[str, str] = {}  # value -> the variable it came from


def register(name: str, value: str) -> None:
    """Remember `value` (from environment variable `name`) as a secret."""
    if value:
        with _lock:
            _names.setdefault(value, name)


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


def mask(text: str, whole: bool = True) -> str:
    """`text` with every registered secret replaced by `(sensitive:NAME)`: values of
    MIN_INSIDE_TEXT characters or more wherever they occur, shorter ones when they are the whole
    text (`whole`: the text is one value, such as a field; a stream of output is not)."""
    secrets = values()
    if not secrets or not text:
        return text
    if whole and text in _names:
        return f"(sensitive:{_names[text]})"
    inside = [value for value in secrets if len(value) >= MIN_INSIDE_TEXT]
    if not inside:
        return text
    pattern = re.compile("|".join(re.escape(value) for value in inside))
    return pattern.sub(lambda match: f"(sensitive:{_names[match.group(0)]})", text)


# Text that already reads `(sensitive:NAME)` before gluecat masks anything (a YAML literal, a live
# parameter anyone with Glue write access set) is escaped to `(sensitive::NAME)`, so `restore_data`
# puts back only the placeholders gluecat made: never an environment value into a planted one.
_OPENING = "(sensitive:"
_ESCAPED = "(sensitive::"


def mask_data(value: Any) -> Any:
    """`mask` applied to every string inside dicts, lists, tuples and frozen dataclasses, text that
    already looks like a placeholder escaped first."""
    return _map_strings(value, lambda text: mask(text.replace(_OPENING, _ESCAPED)))


def restore_data(value: Any, environ: Mapping[str, str] | None = None) -> Any:
    """Put each `(sensitive:NAME)` gluecat made back from the environment (an unset NAME is an error
    naming it), and escaped text back as it was."""
    env = os.environ if environ is None else environ

    def one(text: str) -> str:
        if _OPENING not in text:
            return text
        restored = PLACEHOLDER.sub(lambda match: _required(env, match.group(1)), text)
        return restored.replace(_ESCAPED, _OPENING)

    return _map_strings(value, one)


def _required(environ: Mapping[str, str], name: str) -> str:
    if name not in environ:
        raise GluecatError(f"environment variable {name} is not set: the plan needs its value (set {name})")
    register(name, environ[name])
    return environ[name]


def _map_strings(value: Any, change: Callable[[str], str]) -> Any:
    if isinstance(value, str) and not isinstance(value, Enum):
        return change(value)
    if isinstance(value, dict):
        return {key: _map_strings(item, change) for key, item in value.items()}
    if isinstance(value, list):
        return [_map_strings(item, change) for item in value]
    if isinstance(value, tuple):
        return tuple(_map_strings(item, change) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        updates = {f.name: _map_strings(getattr(value, f.name), change) for f in dataclasses.fields(value) if f.init}
        return dataclasses.replace(value, **updates)
    return value
