"""The plan as people read it in a terminal (colour only when stdout is one)."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from gluecat.plain import counted
from gluecat.plan.model import Action, Plan
from gluecat.render.text import PARTITIONS_SHOWN, summary_line, value

COLOURS = {
    Action.CREATE: "green",
    Action.UPDATE: "yellow",
    Action.REPLACE: "magenta",
    Action.DELETE: "red",
}


def render(plan: Plan, console: Console, destroy_allowed: bool = False) -> None:
    for note in plan.notes:
        console.print(f"[dim]note: {escape(note)}[/]")
    if not plan.has_changes:
        console.print("No changes. The live catalog matches the YAML.")
        return
    console.print(f"gluecat will change catalog [bold]{escape(plan.catalog)}[/]:\n")
    width = max((len(c.address) for c in plan.changes), default=0)
    for change in plan.changes:
        colour = COLOURS[change.action]
        flag = " [bold red](destructive)[/]" if change.destructive else ""
        reason = f" — {escape(change.reason)}" if change.reason else ""
        console.print(
            f"  [{colour}]{change.action.glyph:>3}[/] {escape(change.address.ljust(width))}"
            f"  [dim]{change.action.value} {change.kind}[/]{reason}{flag}"
        )
        for diff in change.diffs:
            console.print(f"        {escape(diff.path)}: {escape(value(diff.before))} -> {escape(value(diff.after))}")
    for group in plan.partitions:
        rows = [(Action.CREATE, w.values, w.location) for w in group.creates]
        rows += [(Action.UPDATE, w.values, f"{w.before} -> {w.location}") for w in group.updates]
        rows += [(Action.DELETE, v, "") for v in group.deletes]
        for action, values, detail in rows[:PARTITIONS_SHOWN]:
            flag = " [bold red](destructive)[/]" if action.destructive else ""
            console.print(
                f"  [{COLOURS[action]}]{action.glyph:>3}[/] {escape(group.address(values))}"
                f"  [dim]{action.value} partition {escape(detail)}[/]{flag}"
            )
        if len(rows) > PARTITIONS_SHOWN:
            more = counted(len(rows) - PARTITIONS_SHOWN, "more partition")
            console.print(
                f"      … and {more} of {group.database}.{group.table}"
                f" ({len(group.creates):,} create, {len(group.updates):,} update, {len(group.deletes):,} delete)"
            )
    console.print()
    console.print(summary_line(plan))
    if plan.destructive and not destroy_allowed:
        console.print("[bold red]This plan deletes or replaces objects: apply needs --allow-destroy.[/]")
