"""Ctrl-C and SIGTERM: the same to every command; during apply, stop sending work, let calls in
flight finish, report."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

from gluecat.errors import ExitCode


@contextmanager
def stop_on_signals(say: Callable[[str], None]) -> Iterator[threading.Event]:
    """An event set by the first SIGINT or SIGTERM; a second one ends the process at once."""
    stop = threading.Event()

    def handle(signum: int, _frame: FrameType | None) -> None:
        if stop.is_set():
            say("second interrupt: exiting now; calls in flight may or may not have landed")
            os._exit(ExitCode.INTERRUPTED)
        stop.set()
        say(f"{signal.Signals(signum).name}: no new changes are sent; waiting for the calls in flight…")

    previous = {sig: signal.signal(sig, handle) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@contextmanager
def sigterm_interrupts() -> Iterator[None]:
    """SIGTERM (a CI runner cancelling, `timeout`) ends a command as Ctrl-C does: "interrupted",
    exit 130, the sandbox saved on the way out; not a silent death by signal. Ctrl-C itself is the
    command body's to handle from here (before, while gluecat loads, gluecat/__init__.py ends the
    process quietly). Only in the main thread, where signal handlers can be set."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(_signum: int, _frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    previous_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous_int)
        signal.signal(signal.SIGTERM, previous)
