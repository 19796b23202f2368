"""Segment reads of one scan share a single listing; a write or a re-read lists again."""

from __future__ import annotations

from typing import Any

from gluecat.sandbox.segments import SegmentSplits, segment_of

ITEMS = [{"Values": [str(n)]} for n in range(50)]


class Lister:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> list[dict[str, Any]]:
        self.calls += 1
        return list(ITEMS)


def test_the_segments_of_a_scan_list_once_and_together_hold_every_item() -> None:
    splits, lister = SegmentSplits(), Lister()
    parts = [splits.take("scan", 3, number, lister) for number in (2, 0, 1)]
    assert lister.calls == 1
    assert sorted(int(i["Values"][0]) for part in parts for i in part) == list(range(50))
    assert all(segment_of(item, 3) == number for part, number in zip(parts, (2, 0, 1), strict=True) for item in part)


def test_a_new_scan_a_re_read_or_a_write_lists_again() -> None:
    splits, lister = SegmentSplits(), Lister()
    for number in range(2):
        splits.take("scan", 2, number, lister)
    splits.take("scan", 2, 0, lister)  # a new scan
    splits.take("scan", 2, 0, lister)  # the same segment again
    splits.clear()  # a write
    splits.take("scan", 2, 1, lister)
    assert lister.calls == 4
