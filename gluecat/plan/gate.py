"""The CI gate: `plan --fail-on breaking|destructive` (or catalog.yaml `policy.fail_on`)."""

from __future__ import annotations

from collections.abc import Sequence

from gluecat.changes.impact import ENGINES, Impact
from gluecat.changes.model import Plan


def gate_refusal(plan: Plan, fail_on: str | None, readers: Sequence[str] = ENGINES) -> str | None:
    """One line saying why the plan fails the gate, or None when it passes. Only the engines that
    read the catalog (`readers:` in catalog.yaml) count for breaking changes."""
    if fail_on is None:
        return None
    threshold = Impact(fail_on)
    reaching = [c for c in plan.changes if c.gated_impact_for(readers) >= threshold]
    reaching_partitions = [p for p in plan.partitions if p.impact >= threshold]
    if not reaching and not reaching_partitions:
        return None
    names = [f"{c.address} ({c.impact.value})" for c in reaching]
    names += [f"{p.database}.{p.table} partitions ({p.impact.value})" for p in reaching_partitions]
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    gated = {c.gated_impact_for(readers) for c in reaching} | {p.impact for p in reaching_partitions}
    advice = "review the findings"
    if Impact.BREAKING in gated:
        advice += ", or state the reason with `allow_breaking` on a deliberately breaking table"
    if Impact.ACCESS in gated:
        advice += "; an access change takes access away from someone: review who"
    return f"plan fails the gate (fail on {threshold.value}): {shown}; {advice}"
