"""Segment reads share one listing, as Glue's segments share one scan.

A reader asking for `TotalSegments: 10` makes ten requests; answering each by
listing every partition from moto and keeping a tenth made a 100,000-partition
read cost the emulator ten full listings (~30 s). The first request of a scan
lists once and splits the items into all segments; the others take their
part. Any write empties the store, so a segment never answers from before it.
"""

from __future__ import annotations

import json
import threading
import zlib
from collections.abc import Callable
from typing import Any


def segment_of(item: dict[str, Any], total: int) -> int:
    """A stable segment for a partition, from its values."""
    return zlib.crc32(json.dumps(item.get("Values", [])).encode()) % total


class SegmentSplits:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._splits: dict[str, list[list[Any] | None]] = {}

    def clear(self) -> None:
        with self._lock:
            self._splits.clear()

    def take(self, scan: str, total: int, number: int, listing: Callable[[], list[Any]]) -> list[Any]:
        """Segment `number` of `total` of the scan named `scan`; `listing` lists it all when the
        scan is new (or this segment was taken already: a re-read lists again)."""
        with self._lock:  # the other segments of a scan wait for its one listing
            split = self._splits.get(scan)
            if split is None or split[number] is None:
                split = [[] for _ in range(total)]
                for item in listing():
                    part = split[segment_of(item, total)]
                    assert part is not None
                    part.append(item)
                self._splits[scan] = split
            taken, split[number] = split[number], None
            if all(part is None for part in split):
                del self._splits[scan]
            assert taken is not None
            return taken
