"""The plan as people read it in a terminal (colour only when stdout is one): destructive changes
first, then breaking ones, each with the findings that say why; safe changes after."""

from __future__ import annotations

import itertools

from rich.console import Console

from gluecat.changes.impact import Impact
from gluecat.changes.model import Action, Change, PartitionChanges, Plan
from gluecat.plan.destroys import destroys
from gluecat.render.text import (
    IMPACT_TITLES,
    PARTITIONS_SHOWN,
    counts_line,
    impact_label,
    no_changes_line,
    sections,
    summary_line,
    value,
)
from gluecat.text.escape import rich_markup as escape
from gluecat.text.plain import counted

COLOURS = {
    Action.CREATE: "green",
    Action.REGISTER: "green",
    Action.UPDATE: "yellow",
    Action.REPLACE: "magenta",
    Action.DELETE: "red",
}
IMPACT_COLOURS = {
    Impact.DESTRUCTIVE: "bold red",
    Impact.ACCESS: "bold magenta",
    Impact.BREAKING: "bold yellow",
    Impact.SAFE: "green",
}


def render(plan: Plan, console: Console, destroy_allowed: bool = False) -> None:
    # Lines are never wrapped by the renderer: a long live value wrapped at a space could start a line
    # with text of its own choosing ("Plan: 0 to create, ...") and pass for gluecat's.
    wraps, console.soft_wrap = console.soft_wrap, True
    try:
        _render(plan, console, destroy_allowed)
    finally:
        console.soft_wrap = wraps


def _render(plan: Plan, console: Console, destroy_allowed: bool) -> None:
    for note in plan.notes:
        console.print(f"[dim]note: {escape(note)}[/]")
    if not plan.has_changes:
        console.print(no_changes_line(plan))
        return
    where = f" in environment [bold]{escape(plan.env)}[/]" if plan.env else ""
    console.print(f"gluecat will change catalog [bold]{escape(plan.catalog)}[/]{where}:")
    width = max((len(c.address) for c in plan.changes), default=0)
    for section in sections(plan):
        console.print(f"\n[{IMPACT_COLOURS[section.impact]}]{IMPACT_TITLES[section.impact]}[/]")
        for change in section.changes:
            _change(console, change, width)
        for group in section.partitions:
            _partitions(console, group)
    console.print()
    console.print(escape(summary_line(plan)))
    console.print(f"[{IMPACT_COLOURS[plan.impact]}]{escape(counts_line(plan))}[/]")
    if plan.destructive and not destroy_allowed:
        console.print(f"[bold red]This plan {destroys(plan)}: apply needs --allow-destroy.[/]")


def _change(console: Console, change: Change, width: int) -> None:
    colour = COLOURS[change.action]
    reason = f" — {escape(change.reason)}" if change.reason else ""
    label = (
        "" if change.impact is Impact.SAFE else f" [{IMPACT_COLOURS[change.impact]}]({escape(impact_label(change))})[/]"
    )
    console.print(
        f"  [{colour}]{change.action.glyph:>3}[/] {escape(change.address.ljust(width))}"
        f"  [dim]{change.action.value} {escape(change.kind)}[/]{reason}{label}"
    )
    for diff in change.diffs:
        console.print(f"        {escape(diff.path)}: {escape(value(diff.before))} -> {escape(value(diff.after))}")
    for finding in change.findings:
        style = IMPACT_COLOURS[finding.impact] if finding.impact is not Impact.SAFE else "dim"
        console.print(
            f"        [{style}]{finding.impact.value}[/] [dim]{escape(finding.rule)}{escape(finding.engines_label)}:[/]"
            f" {escape(finding.message)}"
        )


def _partitions(console: Console, group: PartitionChanges) -> None:
    rows = itertools.chain(  # only the shown ones are built: a table may add a million partitions
        ((Action.CREATE, w.values, w.location) for w in group.creates),
        ((Action.UPDATE, w.values, w.change_text) for w in group.updates),
        ((Action.DELETE, v, "") for v in group.deletes),
        ((Action.UPDATE, v, "columns and SerDe follow the table") for v in group.follows),
    )
    total = len(group.creates) + len(group.updates) + len(group.deletes) + len(group.follows)
    for action, values, detail in itertools.islice(rows, PARTITIONS_SHOWN):
        flag = " [bold red](destructive)[/]" if action.destructive else ""
        console.print(
            f"  [{COLOURS[action]}]{action.glyph:>3}[/] {escape(group.address(values))}"
            f"  [dim]{action.value} partition {escape(detail)}[/]{flag}"
        )
    for finding in group.findings:
        console.print(
            f"        [{IMPACT_COLOURS[finding.impact]}]{finding.impact.value}[/] [dim]{finding.rule}:[/]"
            f" {escape(finding.message)}"
        )
    if total > PARTITIONS_SHOWN:
        updates = len(group.updates) + len(group.follows)
        more = counted(total - PARTITIONS_SHOWN, "more partition")
        console.print(
            f"      … and {more} of {escape(group.database)}.{escape(group.table)}"
            f" ({len(group.creates):,} create, {updates:,} update, {len(group.deletes):,} delete)"
        )
