"""Small wording helpers shared by the human and markdown views."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gluecat.changes.impact import Impact
from gluecat.changes.model import Change, PartitionChanges, Plan

PARTITIONS_SHOWN = 10


def value(item: Any) -> str:
    return "(absent)" if item is None else str(item)


def summary_line(plan: Plan) -> str:
    counts = plan.summary()
    registers = f" {counts['register']:,} to register," if counts["register"] else ""
    return (
        f"Plan: {counts['create']:,} to create,{registers} {counts['update']:,} to update,"
        f" {counts['replace']:,} to replace, {counts['delete']:,} to delete."
    )


IMPACT_ORDER = (Impact.DESTRUCTIVE, Impact.ACCESS, Impact.BREAKING, Impact.SAFE)
IMPACT_TITLES = {
    Impact.DESTRUCTIVE: "Destructive",
    Impact.ACCESS: "Access (someone loses access)",
    Impact.BREAKING: "Breaking",
    Impact.SAFE: "Safe",
}


@dataclass(frozen=True)
class Section:
    impact: Impact
    changes: tuple[Change, ...]
    partitions: tuple[PartitionChanges, ...]


def sections(plan: Plan) -> list[Section]:
    """The plan's changes grouped by impact, worst first; empty groups left out."""
    found = [
        Section(
            impact,
            tuple(c for c in plan.changes if c.impact is impact),
            tuple(p for p in plan.partitions if p.impact is impact and p.count),
        )
        for impact in IMPACT_ORDER
    ]
    return [s for s in found if s.changes or s.partitions]


def impact_label(change: Change) -> str:
    if change.allow_breaking and change.impact is Impact.BREAKING:
        return f"breaking, allowed: {change.allow_breaking}"
    return change.impact.value


def counts_line(plan: Plan) -> str:
    """Counted as the Plan line counts (each partition one change), so the two lines agree."""
    groups = {s.impact: len(s.changes) + sum(p.count for p in s.partitions) for s in sections(plan)}
    parts = [f"{groups[i]:,} {i.value}" for i in IMPACT_ORDER if groups.get(i)]
    return f"Impact: {plan.impact.value} ({', '.join(parts)})"


def no_changes_line(plan: Plan) -> str:
    """What a plan without changes says: that everything matches only when nothing live is left out."""
    if plan.undeclared or plan.unmanaged_databases or plan.targets or any(p.left_alone for p in plan.partitions):
        return "No changes to what the YAML declares."
    return "No changes. The live catalog matches the YAML."
