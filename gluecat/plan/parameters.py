"""Which parameters gluecat owns, which engines own, and which values are secret."""

from __future__ import annotations

import re

from gluecat.convert.parameters import diffed, is_schema_copy, is_volatile, managed

__all__ = ["MASK", "diffed", "is_engine_owned", "is_schema_copy", "is_secret", "is_volatile", "managed"]

# Kept for callers that ask the older question: an engine-owned key is a volatile one.
is_engine_owned = is_volatile

_SECRET = re.compile(r"password|passwd|secret|token|credential|private.?key", re.IGNORECASE)
MASK = "(sensitive)"


def is_secret(key: str) -> bool:
    return bool(_SECRET.search(key))
