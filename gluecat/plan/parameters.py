"""Which parameters gluecat owns, which engines own, and which values are secret."""

from __future__ import annotations

from gluecat.convert.parameters import diffed, is_schema_copy, is_volatile, managed
from gluecat.redact import MASK as MASK
from gluecat.redact import is_secret_key

__all__ = ["MASK", "diffed", "is_engine_owned", "is_schema_copy", "is_secret", "is_volatile", "managed"]

# Kept for callers that ask the older question: an engine-owned key is a volatile one.
is_engine_owned = is_volatile


def is_secret(key: str) -> bool:
    return is_secret_key(key)
