"""A short, stable digest of a live object as planned, which apply compares with what it finds."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from gluecat.convert.shapes import PARTITION_INPUT_KEYS

Shape = dict[str, Any]


def fingerprint(shape: Mapping[str, Any]) -> str:
    stable = {k: v for k, v in shape.items() if k not in ("CreateTime", "UpdateTime", "LastAccessTime")}
    return hashlib.sha256(json.dumps(stable, sort_keys=True, default=str).encode()).hexdigest()[:16]


def partition_input_of(live: Mapping[str, Any]) -> Shape:
    """The writable part of a live partition: what an update carries over."""
    return {k: live[k] for k in PARTITION_INPUT_KEYS if k in live}
