"""The plan as a pull-request comment."""

from __future__ import annotations

from gluecat.plan.model import Plan
from gluecat.render.text import PARTITIONS_SHOWN, summary_line, value


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render(plan: Plan) -> str:
    lines = [f"### gluecat plan for `{plan.catalog}`", ""]
    lines += [f"> note: {note}" for note in plan.notes]
    if not plan.has_changes:
        return "\n".join([*lines, "No changes. The live catalog matches the YAML.", ""])
    if plan.destructive:
        lines += [
            "> :warning: **This plan deletes or replaces objects**; apply needs `--allow-destroy`.",
            "",
        ]
    lines += ["| | address | action | details |", "| --- | --- | --- | --- |"]
    for change in plan.changes:
        details = "<br>".join(
            f"`{_cell(d.path)}`: {_cell(value(d.before))} → {_cell(value(d.after))}" for d in change.diffs
        )
        if change.reason:
            details = _cell(change.reason) + ("<br>" + details if details else "")
        lines.append(
            f"| `{change.action.glyph}` | `{change.address}` | {change.action.value} {change.kind}"
            f"{' **(destructive)**' if change.destructive else ''} | {details} |"
        )
    for group in plan.partitions:
        summary = f"{len(group.creates):,} create, {len(group.updates):,} update, {len(group.deletes):,} delete"
        lines.append(f"| | `{group.database}.{group.table}` | partitions | {summary} |")
    lines += ["", summary_line(plan)]
    for group in plan.partitions:
        shown = [f"+ {group.address(w.values)}" for w in group.creates[:PARTITIONS_SHOWN]]
        shown += [f"~ {group.address(w.values)}: {w.before} -> {w.location}" for w in group.updates[:PARTITIONS_SHOWN]]
        shown += [f"- {group.address(v)}" for v in group.deletes[:PARTITIONS_SHOWN]]
        more = group.count - len(shown)
        lines += [
            "",
            f"<details><summary>Partitions of <code>{group.database}.{group.table}</code> ({group.count:,})</summary>",
            "",
            "```diff",
            *shown,
            *([f"# … and {more:,} more"] if more > 0 else []),
            "```",
            "</details>",
        ]
    return "\n".join(lines) + "\n"
