"""Text from the live catalog made safe to show: one rule for the terminal, one for markdown.

Anyone who can write to Glue writes text gluecat prints. In a terminal, a control character is
an instruction (ESC `[1A` moves up a line, CR returns to its start, `\\u202e` reverses what
follows), so every one is shown escaped, as Python writes it in a string (`\\x1b`, `\\r`,
`\\u202e`). In markdown, `<!--` opens a comment that hides the rest of the page, a backtick ends a
code span and a pipe ends a table cell: prose is backslash-escaped, code spans are fenced longer
than any run of backticks they hold.
"""

from __future__ import annotations

import re

# Bidirectional overrides, isolates and marks: they reorder what a reader sees around them.
_BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _spelled(char: str) -> str:
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


# Control characters (C0, DEL, C1), bidi controls, lone surrogates, line and paragraph separators:
# a character class of ranges rather than a table, which would cost every command ~0.3 MB to build.
_CLASS = r"\x00-\x1f\x7f-\x9f" + "".join(f"\\u{ord(char):04x}" for char in _BIDI) + r"\ud800-\udfff\u2028\u2029"
_CONTROL = re.compile(f"[{_CLASS}]")
_CONTROL_BUT_NEWLINE = re.compile(f"(?!\n)[{_CLASS}]")


def _escaped(found: re.Match[str]) -> str:
    return _spelled(found.group())


def has_controls(text: str) -> bool:
    return _CONTROL.search(text) is not None


def terminal(text: str) -> str:
    """`text` with every control character, bidi control and lone surrogate shown escaped: what a
    terminal prints of it is exactly what it holds, and moves no cursor. A value shown on one line
    has its line breaks escaped too, so it cannot add a line that looks like gluecat's."""
    return _CONTROL.sub(_escaped, text) if has_controls(text) else text


def terminal_lines(text: str) -> str:
    """`terminal` for a whole message of gluecat's own, whose line breaks are its own: everything
    but line breaks escaped (the last guard on everything a console prints)."""
    return _CONTROL_BUT_NEWLINE.sub(_escaped, text) if has_controls(text) else text


def controls_of(text: str) -> list[str]:
    """The characters of `text` that `terminal` escapes (for tests and checks)."""
    return _CONTROL.findall(text)


# Characters that let text take over a GitHub markdown page rather than show: `<` opens HTML (and
# `<!--` a comment that hides the rest), a backtick a code span, a pipe ends a table cell, brackets
# make a link, `$` math (which can draw nothing), and a backslash escapes the next one.
_MARKDOWN = re.compile(r"([\\`|<\[\]$])")


def markdown_text(text: str) -> str:
    """Prose or a table cell: control characters shown escaped, every markdown character
    backslash-escaped (no `<!--`, no end of a cell, no code span, no link)."""
    return _MARKDOWN.sub(r"\\\1", terminal(text))


def markdown_code(text: str) -> str:
    """`text` as a code span inside a table cell: fenced by one more backtick than its longest
    run, padded when it starts or ends with one, pipes escaped (GitHub splits cells first)."""
    shown = terminal(text).replace("|", "\\|")
    fence = "`" * (1 + max((len(run) for run in re.findall("`+", shown)), default=0))
    pad = " " if shown.startswith(("`", " ")) or shown.endswith(("`", " ")) else ""
    return f"{fence}{pad}{shown}{pad}{fence}"


def markdown_block(lines: list[str], info: str = "") -> list[str]:
    """Lines as a fenced code block no line of them can close: fenced by one more backtick than any
    run of three or more in them, each line's control characters escaped."""
    shown = [terminal(line) for line in lines]
    longest = max((len(run) for line in shown for run in re.findall("`{3,}", line)), default=2)
    fence = "`" * (longest + 1)
    return [f"{fence}{info}", *shown, fence]


def html_text(text: str) -> str:
    """Text inside an HTML element of a markdown page (`<summary>`)."""
    shown = terminal(text)
    return shown.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", "&#124;")


def rich_markup(text: str) -> str:
    """`text` for a rich console line: control characters escaped, then rich's markup (`[bold]`)."""
    from rich.markup import escape  # rich loads only where a console prints

    return escape(terminal(text))
