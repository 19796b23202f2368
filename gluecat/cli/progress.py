"""Progress on stderr: rich's spinner and bar on a terminal, a plain line every few seconds otherwise.

CI logs keep every line a spinner would redraw, and show nothing of a transient
bar, so without a terminal progress is a plain line every INTERVAL seconds, and
a command that ends sooner prints none.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from rich.console import Console

from gluecat.secrets import redact

if TYPE_CHECKING:  # a terminal's bar only: without one (CI), the command need not load it
    from rich.progress import Progress

INTERVAL = 5.0
Clock = Callable[[], float]


class PlainLines:
    """Prints a message when `interval` seconds have passed since the last one, or since the start."""

    def __init__(self, console: Console, interval: float = INTERVAL, clock: Clock = time.monotonic) -> None:
        self._console = console
        self._interval = interval
        self._clock = clock
        self._last = clock()

    def show(self, message: str) -> None:
        now = self._clock()
        if now - self._last >= self._interval:
            self._console.print(message, markup=False, highlight=False)
            self._last = now


@contextmanager
def status(console: Console, message: str, interval: float = INTERVAL) -> Iterator[Callable[[str], None]]:
    """A context whose value updates the status message."""
    if console.is_terminal:
        with console.status(message) as spinner:
            yield lambda text: spinner.update(text)
        return
    lines = PlainLines(console, interval)
    lines.show(f"{message}...")
    yield lambda text: lines.show(f"{text}...")


class RichBar:
    def __init__(self, progress: Progress, description: str, total: int) -> None:
        self._progress = progress
        self._task = progress.add_task(description, total=total)

    def advance(self, units: int) -> None:
        self._progress.advance(self._task, units)

    def note(self, message: str) -> None:
        self._progress.console.print(redact.scrub(message), markup=False)  # notes quote library errors


class PlainBar:
    """`applying: 1,200 of 12,000 (10%)` at most every INTERVAL seconds; notes at once."""

    def __init__(self, lines: PlainLines, console: Console, description: str, total: int) -> None:
        self._lines = lines
        self._console = console
        self._description = description
        self._total = total
        self._done = 0

    def advance(self, units: int) -> None:
        self._done += units
        percent = 100 * self._done // self._total if self._total else 100
        self._lines.show(f"{self._description}: {self._done:,} of {self._total:,} ({percent}%)")

    def note(self, message: str) -> None:
        self._console.print(redact.scrub(message), markup=False)  # notes quote library errors


@contextmanager
def bar(console: Console, description: str, total: int, interval: float = INTERVAL) -> Iterator[RichBar | PlainBar]:
    if console.is_terminal:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        with Progress(*columns, console=console, transient=True) as progress:
            yield RichBar(progress, description, total)
        return
    yield PlainBar(PlainLines(console, interval), console, description, total)
