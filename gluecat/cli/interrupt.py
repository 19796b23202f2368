"""Ctrl-C and SIGTERM during apply: stop sending work, let calls in flight finish, report."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

EXIT_INTERRUPTED = 130


@contextmanager
def stop_on_signals(say: Callable[[str], None]) -> Iterator[threading.Event]:
    """An event set by the first SIGINT or SIGTERM; a second one ends the process at once."""
    stop = threading.Event()

    def handle(signum: int, _frame: FrameType | None) -> None:
        if stop.is_set():
            say("second interrupt: exiting now; calls in flight may or may not have landed")
            os._exit(EXIT_INTERRUPTED)
        stop.set()
        say(f"{signal.Signals(signum).name}: no new changes are sent; waiting for the calls in flight…")

    previous = {sig: signal.signal(sig, handle) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
