"""Keep secret values out of everything gluecat prints.

Three ways a secret is recognised:
- by its key: a parameter, property or setting whose name looks secret
  (`is_secret_key`), wherever the value sits (Glue parameters, SerDe
  parameters, Iceberg and Delta properties, `extra`, Spark settings);
- by its shape: a URL with `user:password@`, or `password=...` inside a
  connection string;
- by its value: anything registered with `remember` (values read from the
  environment, the session's AWS credentials) is masked wherever it appears.

`mask_value` and `mask_mapping` serve structured data; `scrub` serves free
text such as error messages from botocore, pyiceberg and deltalake.
"""

from __future__ import annotations

import functools
import json
import re
import threading
from collections.abc import Mapping
from typing import Any

from gluecat.secrets import values as secret_values

MASK = "(sensitive)"
# Shorter values would mask ordinary words and numbers all over the output.
MIN_REMEMBERED = 4

_SECRET_WORDS = (
    r"password|passwd|passphrase|(?:^|[^a-z])pass(?:[^a-z]|$)|pwd"
    r"|secret|token|credential|private[._-]?key|api[._-]?key|apikey"
    r"|auth(?!or)|access[._-]?key|account[._-]?key|(?:^|[^a-z])sas(?:[^a-z]|$)|sas[._-]?(?:key|token)"
    r"|shared[._-]?access|signing[._-]?key|encryption[._-]?key|service[._-]?account[._-]?(?:json|key)"
    r"|conn(?:ection)?[._-]?str(?:ing)?"
)
_SECRET_KEY = re.compile(_SECRET_WORDS, re.IGNORECASE)
# Every secret word contains one of these: a cheap test that spares most strings the regex.
_HINTS = ("pass", "pwd", "secret", "token", "credential", "key", "auth", "sas", "conn", "shared", "service")
# `scheme://user:password@host`: the password goes, the user and host stay.
_URL_USERINFO = re.compile(r"(?P<head>[a-z][a-z0-9+.\-]*://[^/\s:@\"']*:)(?P<secret>[^/\s@\"']+)(?=@)", re.IGNORECASE)
# Oracle's thin JDBC URL: `jdbc:oracle:thin:user/password@host`.
_ORACLE_USERINFO = re.compile(r"(?P<head>jdbc:oracle:[a-z]+:[^/\s:@\"']*/)(?P<secret>[^/\s@\"']+)(?=@)", re.IGNORECASE)
# A shared access signature in a URL's query (Azure's `sig=`, S3's presigned `Signature=`).
_SIGNATURE = re.compile(
    r"(?P<head>[?&](?:sig|signature|x-amz-signature|x-amz-security-token)=)(?P<secret>[^&\s\"']+)", re.IGNORECASE
)
# `key=value`, `key: value`, `'key': 'value'` where the key looks secret (connection strings, reprs).
# A value in parentheses is one of our own placeholders ("(sensitive)", "(absent)"), not a secret.
_PAIR = re.compile(
    r"(?<![\w.\-])(?P<key>[\w.\-]{0,80}?(?:" + _SECRET_WORDS + r")[\w.\-]{0,80})"
    r"(?P<sep>['\"]?\s*[:=]\s*['\"]?)"
    r"(?!\()(?P<secret>[^'\"\s,;&}\)\]]+)",
    re.IGNORECASE,
)

_lock = threading.Lock()
_remembered: set[str] = set()
_remembered_pattern: re.Pattern[str] | None = None


@functools.lru_cache(maxsize=4096)
def is_secret_key(key: str) -> bool:
    """A parameter, property or setting name whose value must not be shown."""
    return _may_hold_secret_word(key) and bool(_SECRET_KEY.search(key))


def _may_hold_secret_word(text: str) -> bool:
    lowered = text.lower()
    return any(hint in lowered for hint in _HINTS)


def remember(value: str) -> None:
    """Register a secret value (e.g. one read from the environment): masked in all output from now on.

    Values shorter than MIN_REMEMBERED characters are ignored: masking them would
    garble unrelated text."""
    global _remembered_pattern
    if len(value) < MIN_REMEMBERED:
        return
    with _lock:
        if value in _remembered:
            return
        _remembered.add(value)
        ordered = sorted(_remembered, key=len, reverse=True)  # longest first: no partial masking
        _remembered_pattern = re.compile("|".join(re.escape(v) for v in ordered))


def forget_all() -> None:
    """Clear the registry and the `${env.NAME}` values (between runs in one process, as tests do)."""
    global _remembered_pattern
    secret_values.forget()
    with _lock:
        _remembered.clear()
        _remembered_pattern = None


def scrub_known(text: str, whole: bool = True) -> str:
    """Remembered values and URL passwords masked; nothing else touched (safe on any output).

    Values from `${env.NAME}` become `(sensitive:NAME)`, so a user can tell which one it was; a
    short one only when it is the whole of `text` and `whole` says `text` is one value."""
    text = _quoted_or_cut(secret_values.mask(text, whole))
    pattern = _remembered_pattern
    if pattern is not None:
        text = pattern.sub(MASK, text)
    if "@" in text:
        text = _URL_USERINFO.sub(lambda m: m["head"] + MASK, text)
        text = _ORACLE_USERINFO.sub(lambda m: m["head"] + MASK, text)
    if "=" in text:
        text = _SIGNATURE.sub(lambda m: m["head"] + MASK, text)
    return text


# How a message may quote a value: as Python's repr or JSON writes it (backslashes doubled, quotes and
# control characters escaped), or cut short with an ellipsis (`the text 'Abc…'`).
_CUT = "…"


def _quoted_or_cut(text: str) -> str:
    """`text` with each `${env.NAME}` value masked in the spellings a message quotes it in."""
    if "\\" not in text and _CUT not in text:
        return text
    for name, value in sorted(secret_values.by_name().items(), key=lambda item: len(item[1]), reverse=True):
        if len(value) < MIN_REMEMBERED:
            continue
        if "\\" in text:
            for spelled in _quoted(value):
                text = text.replace(spelled, f"(sensitive:{name})")
        if _CUT in text:
            for spelled in (value, *_quoted(value)):
                text = _cut_short(text, spelled, f"(sensitive:{name})")
    return text


@functools.lru_cache(maxsize=256)
def _quoted(value: str) -> tuple[str, ...]:
    spellings = {repr(value)[1:-1], json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]}
    spellings |= {spelled.replace("\\'", "'") for spelled in spellings}
    return tuple(sorted((s for s in spellings if s != value), key=len, reverse=True))


def _cut_short(text: str, value: str, placeholder: str) -> str:
    """A value's first characters followed by an ellipsis: how long values are cut in messages."""
    for length in range(len(value) - 1, MIN_REMEMBERED - 1, -1):
        cut = value[:length] + _CUT
        if cut in text:
            text = text.replace(cut, placeholder + _CUT)
    return text


def scrub(text: str) -> str:
    """Free text (an error message, a value) with every recognisable secret masked."""
    text = scrub_known(text)
    return _PAIR.sub(_mask_pair, text) if _may_hold_secret_word(text) else text


def secret_spans(text: str) -> list[tuple[int, int]]:
    """Where `scrub` finds a secret in `text` by its shape (a URL's password, `password=...`, a
    signature): (start, end) pairs in order, none overlapping. Import writes a reference there."""
    patterns = [_URL_USERINFO, _ORACLE_USERINFO, _SIGNATURE]
    if _may_hold_secret_word(text):
        patterns.append(_PAIR)
    found = sorted(match.span("secret") for pattern in patterns for match in pattern.finditer(text))
    spans: list[tuple[int, int]] = []
    for start, end in found:
        if spans and start < spans[-1][1]:
            spans[-1] = (spans[-1][0], max(end, spans[-1][1]))
        else:
            spans.append((start, end))
    return spans


def _mask_pair(match: re.Match[str]) -> str:
    return match["key"] + match["sep"] + MASK


def mask_value(key: str, value: Any) -> Any:
    """What to show for `key: value`: MASK when the key looks secret, else the value scrubbed."""
    if value is None:
        return None
    if is_secret_key(key) and not isinstance(value, (dict, list)):
        return MASK
    return mask_any(value)


def mask_mapping(values: Mapping[str, Any]) -> dict[str, Any]:
    return {key: mask_value(key, value) for key, value in values.items()}


def mask_known_data(value: Any) -> Any:
    """Every string in nested data (dicts, lists) through `scrub_known`, each as the one value it is:
    what machine formats print, masked without touching their syntax."""
    if isinstance(value, str):
        return scrub_known(value)
    if isinstance(value, Mapping):
        return {mask_known_data(key): mask_known_data(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [mask_known_data(item) for item in value]
    return value


def mask_any(value: Any) -> Any:
    """Nested data with secret-keyed values masked and every string scrubbed."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, Mapping):
        return mask_mapping(value)
    if isinstance(value, (list, tuple)):
        return [mask_any(v) for v in value]
    return value
