"""Live text shown in a terminal or a markdown comment cannot spoof what surrounds it: generated
hostile text (control sequences, bidi overrides, `<!--`, backticks, pipes) through the escaping
rule and through the human and markdown plans."""

from __future__ import annotations

import io
import re
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from rich.console import Console

from gluecat.changes.impact import Finding, Impact
from gluecat.changes.model import Action, Change, FieldDiff, PartitionChanges, PartitionWrite, Plan
from gluecat.render import human, markdown
from gluecat.render.text import summary_line
from gluecat.text.escape import controls_of, markdown_code, markdown_text, terminal, terminal_lines

BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
PIECES = [
    "\x1b[2K",
    "\x1b[1A",
    "\x1b]8;;http://x\x07",
    "\r",
    "\x08",
    "\x9b2J",
    "\u202e",
    "\n",
    "<!--",
    "-->",
    "`",
    "```",
    "|",
    "\\",
    "</details>",
    "$$",
    "[x](http://e)",
    "Plan: 0 to create",
]
SGR = re.compile(r"\x1b\[[0-9;]*m")
hostile = st.lists(
    st.one_of(st.sampled_from(PIECES), st.text(max_size=6), st.characters(codec="utf-8")), max_size=8
).map("".join)


def _raw_controls(text: str) -> list[str]:
    """Characters a terminal acts on, or that reorder text, left in `text` (line breaks aside)."""
    return [c for c in text if c != "\n" and (unicodedata.category(c) in ("Cc", "Cs") or c in BIDI)]


@given(hostile)
def test_terminal_leaves_no_control_character(text: str) -> None:
    shown = terminal(text)
    assert _raw_controls(shown) == [] and "\n" not in shown
    assert controls_of(shown) == []
    assert _raw_controls(terminal_lines(text)) == []
    assert terminal("plain text, ünïcode ✓") == "plain text, ünïcode ✓"


def _markdown_tokens(text: str) -> list[object]:
    tokens = []
    for token in MarkdownIt("commonmark").enable("table").parse(text):
        tokens.append(token)
        tokens.extend(token.children or ())
    return tokens


@given(hostile)
def test_markdown_code_and_text_stay_in_their_cell(text: str) -> None:
    page = f"| a | b |\n| --- | --- |\n| {markdown_code(text)} | {markdown_text(text)} |\n\nSUMMARY\n"
    tokens = _markdown_tokens(page)
    kinds = [t.type for t in tokens]  # type: ignore[attr-defined]
    assert "html_inline" not in kinds and "html_block" not in kinds
    assert kinds.count("td_open") == 2
    codes = [t.content for t in tokens if t.type == "code_inline"]  # type: ignore[attr-defined]
    assert terminal(text).strip(" ") in [c.strip(" ") for c in codes] or not text
    assert tokens[-2].content == "SUMMARY"  # type: ignore[attr-defined]


def _hostile_plan(text: str) -> Plan:
    change = Change(
        address=f"db.{text}",
        kind="table",
        action=Action.UPDATE,
        database="db",
        table=text,
        desired={},
        diffs=(FieldDiff(f"parameters.{text}", text, f"new {text}"), FieldDiff("description", None, text)),
        reason=text,
        findings=(Finding("rule", Impact.BREAKING, f"column {text} changes"),),
    )
    group = PartitionChanges(
        "db",
        text,
        ("k",),
        {},
        creates=(PartitionWrite((text,), f"s3://b/{text}"),),
        updates=(PartitionWrite((text,), f"s3://b/{text}/", f"s3://old/{text}"),),
        deletes=((text,),),
    )
    return Plan("cat", (change,), (group,), notes=(f"live table {text} is not in the YAML",))


@settings(max_examples=60, deadline=None)
@given(hostile)
def test_human_plan_prints_live_text_escaped(text: str) -> None:
    plan = _hostile_plan(text)
    for colour in (False, True):
        out = io.StringIO()
        human.render(plan, Console(file=out, force_terminal=colour, width=200, highlight=False))
        printed = SGR.sub("", out.getvalue()) if colour else out.getvalue()  # rich's own colours
        assert _raw_controls(printed) == [], repr(out.getvalue())
        lines = printed.splitlines()
        assert [line for line in lines if line.startswith("Plan: ")] == [summary_line(plan)]
        assert lines[-1].startswith("This plan deletes or replaces objects")


@settings(max_examples=60, deadline=None)
@given(hostile)
def test_markdown_plan_keeps_its_rows_and_summary_line(text: str) -> None:
    plan = _hostile_plan(text)
    page = markdown.render(plan)
    tokens = _markdown_tokens(page)
    kinds = [t.type for t in tokens]  # type: ignore[attr-defined]
    blocks = [t.content for t in tokens if t.type == "html_block"]  # type: ignore[attr-defined]
    assert [b.split("<code>")[0] for b in blocks] == ["<details><summary>Partitions of ", "</details>\n"]
    assert "<!--" not in blocks[0] and blocks[0].count("<") == 5
    assert {t.content for t in tokens if t.type == "html_inline"} <= {"<br>"}  # type: ignore[attr-defined]
    assert kinds.count("tr_open") == 4  # each section: its head row and one row (change, partitions)
    assert any(getattr(t, "content", None) == summary_line(plan) for t in tokens)
    fenced = [t.content for t in tokens if t.type == "fence"]  # type: ignore[attr-defined]
    assert len(fenced) == 1 and fenced[0].count("\n") == 3  # create, update, delete: nothing escapes the block
    assert _raw_controls(page) == []
