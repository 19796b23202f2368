"""JSON for the local Glue's hot path (every request body is read by the strict layer and by moto):
orjson, with the standard library's reading for what orjson refuses (integers beyond 64 bits, NaN),
so a request answers exactly as before, only sooner."""

from __future__ import annotations

import json
from typing import Any

import orjson


def loads(raw: bytes | str) -> Any:
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return json.loads(raw)  # its own answer: the value, or the ValueError it always raised


def dumps(value: Any) -> bytes:
    try:
        return orjson.dumps(value, option=orjson.OPT_PASSTHROUGH_DATETIME)
    except TypeError:  # a key that is not text, a number too large, a datetime: written as always
        return json.dumps(value, default=str).encode()
