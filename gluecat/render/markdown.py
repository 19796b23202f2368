"""The plan as a pull-request comment: destructive, then breaking changes with their findings,
then safe ones; summarised when the whole would pass GitHub's comment limit."""

from __future__ import annotations

from urllib.parse import quote

from gluecat.changes.impact import Impact
from gluecat.changes.model import Change, PartitionChanges, Plan
from gluecat.plan.destroys import destroys
from gluecat.render.text import (
    IMPACT_TITLES,
    PARTITIONS_SHOWN,
    Section,
    counts_line,
    impact_label,
    no_changes_line,
    sections,
    summary_line,
    value,
)
from gluecat.text.escape import html_text, markdown_block, markdown_code, markdown_text

COMMENT_LIMIT = 65_536  # GitHub's limit on a comment body, in characters
HEADINGS = {Impact.DESTRUCTIVE: ":boom: ", Impact.ACCESS: ":lock: ", Impact.BREAKING: ":warning: ", Impact.SAFE: ""}
TABLE_HEAD = ["| | address | action | details |", "| --- | --- | --- | --- |"]
SUMMARISED = (
    "> :scissors: This plan is longer than a GitHub comment allows ({limit:,} characters): it is summarised"
    " here ({shown:,} of {total:,} rows); run `gluecat plan` for every detail."
)


def render(plan: Plan, limit: int = COMMENT_LIMIT, docs_url: str | None = None) -> str:
    """The comment; with `docs_url` (catalog.yaml's, where `gluecat docs` is published) each changed
    table's address links to its page there."""
    docs = docs_url.rstrip("/") if docs_url else None
    where = f" (environment {markdown_code(plan.env)})" if plan.env else ""
    head = [f"### gluecat plan for {markdown_code(plan.catalog)}{where}", ""]
    head += [f"> note: {markdown_text(note)}" for note in plan.notes]
    if plan.notes:
        head.append("")  # ends the quote: a line right after it would join the note
    if not plan.has_changes:
        return "\n".join([*head, no_changes_line(plan), ""])
    head.append(f"**{counts_line(plan)}**")
    if plan.destructive:
        head += ["", f"> :warning: **This plan {destroys(plan)}**; apply needs `--allow-destroy`."]
    full = _document(plan, head, True, docs)
    if len(full) <= limit:
        return full
    brief = _document(plan, head, False, docs)
    return brief if len(brief) <= limit else _cut(plan, head, limit, docs)


def _document(plan: Plan, head: list[str], detailed: bool, docs: str | None) -> str:
    lines = list(head)
    for section in sections(plan):
        lines += _section_head(section)
        lines += [_row(change, detailed or change.impact is not Impact.SAFE, docs) for change in section.changes]
        lines += [_partition_row(group) for group in section.partitions]
    lines += ["", summary_line(plan)]
    if detailed:
        lines += [line for group in plan.partitions for line in _partition_details(group)]
    return "\n".join(lines) + "\n"


def _cut(plan: Plan, head: list[str], limit: int, docs: str | None) -> str:
    """Rows in order of impact until the budget is spent, and a line that says so."""
    rows = [(s, _row(c, c.impact is not Impact.SAFE, docs)) for s in sections(plan) for c in s.changes]
    rows += [(s, _partition_row(p)) for s in sections(plan) for p in s.partitions]
    total = len(rows)
    tail = ["", summary_line(plan)]
    budget = limit - len("\n".join([*head, SUMMARISED, *tail])) - 400
    lines: list[str] = []
    shown = 0
    current: Section | None = None
    for section, row in rows:
        extra = ([] if section is current else _section_head(section)) + [row]
        cost = sum(len(line) + 1 for line in extra)
        if cost > budget:
            break
        lines += extra
        budget -= cost
        shown += 1
        current = section
    notice = SUMMARISED.format(limit=limit, shown=shown, total=total)
    return "\n".join([*head, notice, *lines, *tail]) + "\n"


def _section_head(section: Section) -> list[str]:
    count = len(section.changes) + len(section.partitions)
    return ["", f"#### {HEADINGS[section.impact]}{IMPACT_TITLES[section.impact]} ({count})", "", *TABLE_HEAD]


def _address(change: Change, docs: str | None) -> str:
    """The address, linked to the table's or database's page of the documentation site when there is one."""
    if docs is None or change.kind not in ("table", "database"):
        return markdown_code(change.address)
    page = "t" if change.kind == "table" else "db"
    return f"[{markdown_code(change.address)}]({docs}/index.html#/{page}/{quote(change.address, safe='')})"


def _row(change: Change, detailed: bool, docs: str | None = None) -> str:
    details = [f"**{markdown_text(change.reason)}**"] if change.reason else []
    details += [
        f"{f.impact.value} {markdown_code(f.rule)}{markdown_text(f.engines_label)}: {markdown_text(f.message)}"
        for f in change.findings
        if detailed
    ]
    if detailed:
        details += [
            f"{markdown_code(d.path)}: {markdown_text(value(d.before))} → {markdown_text(value(d.after))}"
            for d in change.diffs
        ]
    else:
        details.append(f"{len(change.diffs)} field changes")
    label = "" if change.impact is Impact.SAFE else f" **({markdown_text(impact_label(change))})**"
    return (
        f"| `{change.action.glyph}` | {_address(change, docs)} | {change.action.value}"
        f" {markdown_text(change.kind)}{label}"
        f" | {'<br>'.join(details)} |"
    )


def _partition_row(group: PartitionChanges) -> str:
    updates = len(group.updates) + len(group.follows)
    summary = f"{len(group.creates):,} create, {updates:,} update, {len(group.deletes):,} delete"
    if group.follows:
        summary += f" ({len(group.follows):,} get the table's columns and SerDe)"
    label = "" if group.impact is Impact.SAFE else f" **({group.impact.value})**"
    summary += "".join(f"<br>{f.impact.value} `{f.rule}`: {markdown_text(f.message)}" for f in group.findings)
    return f"| | {markdown_code(f'{group.database}.{group.table}')} | partitions{label} | {summary} |"


def _partition_details(group: PartitionChanges) -> list[str]:
    shown = [f"+ {group.address(w.values)}" for w in group.creates[:PARTITIONS_SHOWN]]
    shown += [f"~ {group.address(w.values)}: {w.change_text}" for w in group.updates[:PARTITIONS_SHOWN]]
    shown += [f"- {group.address(v)}" for v in group.deletes[:PARTITIONS_SHOWN]]
    shown += [f"~ {group.address(v)}: columns and SerDe" for v in group.follows[:PARTITIONS_SHOWN]]
    more = group.count - len(shown)
    return [
        "",
        f"<details><summary>Partitions of <code>{html_text(f'{group.database}.{group.table}')}</code>"
        f" ({group.count:,})</summary>",
        "",
        *markdown_block([*shown, *([f"# … and {more:,} more"] if more > 0 else [])], "diff"),
        "</details>",
    ]
