"""Where output goes: payload to stdout, chatter to stderr, one place for error lines."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

import rich.console
from rich.markup import escape

from gluecat.secrets import redact
from gluecat.text.escape import terminal_lines


class Console(rich.console.Console):
    """A console that shows every control character in the text it prints escaped: messages quote
    live text (names, owners, values), and a planted ESC, CR or bidi override must not move the
    cursor, erase lines above or reorder what a reader sees."""

    def print(self, *objects: Any, **options: Any) -> None:
        super().print(*(terminal_lines(o) if isinstance(o, str) else o for o in objects), **options)


# Consoles made without a file write to whatever sys.stdout/sys.stderr is at print time,
# so the scrubbing streams below reach everything they print.
stdout = Console(highlight=False, soft_wrap=True)
stderr = Console(stderr=True, highlight=False, soft_wrap=True)


def print_json(payload: Any) -> None:
    """JSON masked as data, value by value, and written past the text scrubbing: masking the text
    could cut into JSON's own syntax (a secret `2` in `"create": 2`)."""
    text = json.dumps(redact.mask_known_data(payload), indent=2, sort_keys=False) + "\n"
    write = getattr(sys.stdout, "write_verbatim", sys.stdout.write)
    write(text)


def error(message: str) -> None:
    """One red `error:` line; the message is scrubbed of secrets and escaped, since it quotes
    what users wrote and what libraries answered."""
    stderr.print(f"[bold red]error:[/] {escape(redact.scrub(message))}", markup=True)


class ScrubbingStream:
    """A text stream that masks remembered secret values and URL passwords in everything written."""

    def __init__(self, inner: TextIO) -> None:
        self._inner = inner

    def write(self, text: str) -> int:
        self._inner.write(redact.scrub_known(text, whole=False))
        return len(text)

    def write_verbatim(self, text: str) -> int:
        """For output already masked as data (JSON)."""
        self._inner.write(text)
        return len(text)

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, flush, encoding, ...
        return getattr(self._inner, name)


@contextmanager
def scrubbed_streams(enabled: bool = True) -> Iterator[None]:
    """The last line of defence: whatever a command prints passes through `redact.scrub_known`."""
    if not enabled:
        yield
        return
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = ScrubbingStream(saved[0]), ScrubbingStream(saved[1])
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


@contextmanager
def library_logging_kept_quiet(enabled: bool = True) -> Iterator[None]:
    """Libraries (Thrift, botocore, pyiceberg) log what gluecat reports itself, in its one line with
    the fix; with no handler configured Python would print their warnings and errors on stderr. A
    handler that drops them keeps the terminal to gluecat's own lines (`--debug` lets them through)."""
    if not enabled:
        yield
        return
    root = logging.getLogger()
    dropped = logging.NullHandler()
    root.addHandler(dropped)
    try:
        yield
    finally:
        root.removeHandler(dropped)
