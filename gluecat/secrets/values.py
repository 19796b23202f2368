"""Values that came from `${env.NAME}`: secrets, never printed and never saved in a plan file.

Every value read from the process environment is registered here with the variable's
name; `mask` replaces each occurrence in text with `(sensitive:NAME)`, and `restore`
puts the environment's value back when a saved plan is applied.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import hmac
import json
import os
import re
import threading
from collections.abc import Callable, Mapping
from typing import Any

from gluecat.errors import GluecatError
from gluecat.secrets.walk import json_needles, map_strings

# `(sensitive:NAME)`, or `(sensitive:NAME@FORM)` where the value was written in another spelling
# (a partition value escaped into its path): group 1 is the name.
PLACEHOLDER = re.compile(r"\(sensitive:([A-Za-z_][A-Za-z0-9_]*)(?:@[a-z]+)?\)")
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
    return _layered(text, lambda outside, alone: _masked(outside, whole and alone, escape=False), _masked_json)


def _masked(text: str, whole: bool, escape: bool) -> str:
    """`text` with each secret (in each spelling) made a placeholder and, with `escape`, each
    `(sensitive:` of its own escaped: one pass, so neither can be taken for the other."""
    if whole and text in _names:
        return f"(sensitive:{_names[text]})"
    pattern, spelled = _pattern(_generation[0], escape)
    if pattern is None:
        return text
    return pattern.sub(lambda match: spelled[match.group(0)], text)


@functools.lru_cache(maxsize=8)
def _pattern(
    generation: int, escape: bool, json_spelled: bool = False
) -> tuple[re.Pattern[str] | None, dict[str, str]]:
    """What to look for (each value and each of its spellings, as JSON text spells them with
    `json_spelled`; with `escape`, gluecat's own opening too) and what each becomes; `generation`
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
    if json_spelled:
        spelled = {_json_spelling(text): placeholder for text, placeholder in spelled.items()}
    ordered = [re.escape(value) for value in sorted(spelled, key=len, reverse=True)]  # longest first
    if escape:
        spelled[_OPENING] = _ESCAPED
        ordered.append(re.escape(_OPENING))  # after the secrets: a secret holding the opening is masked whole
    if not spelled:
        return None, spelled
    if json_spelled:
        ordered.append(_JSON_ESCAPE)  # kept as it is: no match starts inside one
    return re.compile("|".join(ordered)), spelled


_JSON_ESCAPE = r"\\u[0-9A-Fa-f]{4}|\\."


def _json_spelling(text: str) -> str:
    """`text` as it reads inside a JSON string that gluecat (or any compact writer) wrote."""
    return json.dumps(text, ensure_ascii=False)[1:-1]


def _masked_json(text: str, escape: bool = False) -> str:
    """The JSON text inside a view payload with each secret masked (and, with `escape`, each opening
    escaped), byte for byte where the secrets are spelled as compact JSON spells them. A secret spelled
    otherwise (`\\u003c` for `<`, as Terraform's jsonencode writes) is found in the decoded strings, and
    the JSON is written again: the restored view is the same JSON, if not the same bytes."""
    pattern, spelled = _pattern(_generation[0], escape, json_spelled=True)
    changed = text if pattern is None else pattern.sub(lambda match: spelled.get(match[0], match[0]), text)
    if not _names or not _holds_secret(changed):
        return changed
    try:
        data = json.loads(text)
    except ValueError:
        return changed
    data = map_strings(data, lambda inner: _masked(inner, True, escape))
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _holds_secret(json_text: str) -> bool:
    try:
        data = json.loads(json_text)
    except ValueError:
        return False
    secrets = values()
    found = [False]

    def look(inner: str) -> str:
        if any(inner == secret or (len(secret) >= MIN_INSIDE_TEXT and secret in inner) for secret in secrets):
            found[0] = True
        return inner

    map_strings(data, look)
    return found[0]


def _layered(text: str, outside: Callable[[str, bool], str], inside: Callable[[str], str]) -> str:
    """`outside` applied to the text around Athena view payloads (told whether that text is all there
    is) and `inside` to the JSON text of each payload. Escaping, masking and restoring all walk text
    this one way, so a saved plan can only put a value back where gluecat's own masking could have
    put a placeholder: never into one planted in live text, whatever surrounds it."""
    if _PAYLOAD_OPENING not in text:
        return outside(text, True)
    parts: list[str] = []
    start = 0
    for match in _PAYLOAD.finditer(text):
        parts.append(outside(text[start : match.start()], False))
        parts.append(_in_payload(match, inside))
        start = match.end()
    if start == 0:
        return outside(text, True)
    parts.append(outside(text[start:], False))
    return "".join(parts)


def _in_payload(match: re.Match[str], inside: Callable[[str], str]) -> str:
    """One payload with `inside` applied to its JSON text; a payload nothing changed (or that holds
    no UTF-8 text) keeps its bytes."""
    try:
        body = base64.b64decode(match["body"], validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return match.group(0)
    changed = inside(body)
    if changed == body:
        return match.group(0)
    return f"{_PAYLOAD_OPENING}{base64.b64encode(changed.encode('utf-8')).decode('ascii')} */"


def placeholders(text: str) -> set[str]:
    """The names of the placeholders in `text`, those inside view payloads too."""
    found: set[str] = set()

    def collect(inner: str, alone: bool = True) -> str:
        found.update(match["name"] for match in _RESTORABLE.finditer(inner) if match["name"])
        return inner

    _layered(text, collect, collect)
    return found


# Text that already reads `(sensitive:NAME)` before gluecat masks anything (a YAML literal, a live
# parameter anyone with Glue write access set) is escaped to `(sensitive::NAME)`, so `restore_data`
# puts back only the placeholders gluecat made: never an environment value into a planted one.
_OPENING = "(sensitive:"
_ESCAPED = "(sensitive::"
# What `restore_data` reads, in one pass: a placeholder gluecat made, or an escaped opening.
_RESTORABLE = re.compile(r"\(sensitive:(?:(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:@(?P<form>[a-z]+))?\)|(?P<escaped>:))")


def mask_data(value: Any) -> Any:
    """`mask` applied to every string inside dicts, lists, tuples and frozen dataclasses, text that
    already looks like a placeholder escaped in the same pass (inside view payloads too)."""

    def outside(text: str, alone: bool) -> str:
        return _masked(text, alone, escape=True)

    with _lock:
        wholes = list(_names)
    spellings = [*wholes, *_pattern(_generation[0], False)[1]]
    return map_strings(
        value,
        lambda text: _layered(text, outside, lambda inner: _masked_json(inner, escape=True)),
        json_needles(_OPENING, _PAYLOAD_OPENING, *spellings),
    )


def restore_data(value: Any, environ: Mapping[str, str] | None = None) -> Any:
    """Put each `(sensitive:NAME)` gluecat made back from the environment (an unset NAME is an error
    naming it), and escaped text back as it was: one pass over the same layers `mask_data` walked,
    so a value put back is never read again."""
    env = os.environ if environ is None else environ

    def restored(text: str, spell: Callable[[str], str]) -> str:
        if _OPENING not in text:
            return text

        def one(match: re.Match[str]) -> str:
            if match["escaped"]:
                return _OPENING
            return spell(_required(env, match["name"], match["form"]))

        return _RESTORABLE.sub(one, text)

    return map_strings(
        value,
        lambda text: _layered(
            text, lambda outside, alone: restored(outside, str), lambda inner: restored(inner, _json_spelling)
        ),
        json_needles(_OPENING, _PAYLOAD_OPENING),
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
