"""Small wording helpers shared by the human and markdown views."""

from __future__ import annotations

from typing import Any

from gluecat.plan.model import Plan

PARTITIONS_SHOWN = 10


def value(item: Any) -> str:
    return "(absent)" if item is None else str(item)


def summary_line(plan: Plan) -> str:
    counts = plan.summary()
    return (
        f"Plan: {counts['create']:,} to create, {counts['update']:,} to update,"
        f" {counts['replace']:,} to replace, {counts['delete']:,} to delete."
    )
