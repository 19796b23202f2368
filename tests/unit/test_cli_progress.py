"""Progress without a terminal: plain lines, at most one every few seconds, no escape codes."""

from __future__ import annotations

import io
from collections.abc import Callable

from rich.console import Console

from gluecat.cli.progress import PlainLines, bar, status


def _console() -> tuple[Console, io.StringIO]:
    buffer = io.StringIO()
    return Console(file=buffer, highlight=False, soft_wrap=True), buffer


def _clock(times: list[float]) -> Callable[[], float]:
    ticks = iter(times)
    return lambda: next(ticks)


def test_plain_lines_are_spaced_by_the_interval() -> None:
    console, buffer = _console()
    lines = PlainLines(console, interval=5.0, clock=_clock([0.0, 1.0, 4.9, 5.0, 6.0, 9.9, 12.0]))
    for message in ["a", "b", "c", "d", "e", "f"]:
        lines.show(message)
    assert buffer.getvalue() == "c\nf\n"


def test_a_quick_command_prints_no_progress() -> None:
    console, buffer = _console()
    with status(console, "reading the live catalog") as update:
        update("reading partitions of 3 tables")
    assert buffer.getvalue() == ""


def test_status_without_a_terminal_prints_plain_lines() -> None:
    console, buffer = _console()
    assert not console.is_terminal
    with status(console, "reading the live catalog", interval=0) as update:
        update("reading partitions of 3 tables")
    text = buffer.getvalue()
    assert text.startswith("reading the live catalog...\n")
    assert "\x1b" not in text


def test_bar_without_a_terminal_counts_and_notes() -> None:
    console, buffer = _console()
    with bar(console, "applying", 1200, interval=0) as progress:
        progress.advance(120)
        progress.note("sales.orders: retried")
    assert buffer.getvalue() == "applying: 120 of 1,200 (10%)\nsales.orders: retried\n"
