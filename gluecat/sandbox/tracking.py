"""A WSGI layer between the strict layer and moto that notices writes and saves.

Every request that may change Glue or S3 bumps a write count; `POST /_sandbox/save`
saves the state only when something was written since the last save, so read-only
commands never rewrite it. Writes and saves take one lock, so a save never sees half
a request. (Segment reads share one listing in the strict layer: see `segments`.)
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from gluecat.errors import GluecatError

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
SAVE_PATH = "/_sandbox/save"
_READ_PREFIXES = ("Get", "BatchGet", "Search", "List")
_SCOPE = re.compile(r"Credential=[^/]+/[^/]+/([^/]+)/([^/]+)/")


class Tracking:
    def __init__(
        self,
        app: WSGIApp,
        save_state: Callable[[], None] | None = None,
    ) -> None:
        """`save_state` writes the emulator's contents to disk (None: nothing is kept)."""
        self.app = app
        self._save_state = save_state
        self.writes = 0
        self._saved_writes = 0
        self._failed_writes = -1  # the write count when a save last failed (and was reported)
        self._lock = threading.RLock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("PATH_INFO") == SAVE_PATH:
            return self._save(start_response)
        operation = _glue_operation(environ)
        if not _is_write(environ, operation):
            return self.app(environ, start_response)
        with self._lock:
            self.writes += 1
            return list(self.app(environ, start_response))

    def note_write(self) -> None:
        """A write handled above this layer (the strict layer's partition indexes)."""
        with self._lock:
            self.writes += 1

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """A write answered above this layer straight from moto's backend: counted, and apart from
        saves as the writes passing through are."""
        with self._lock:
            self.writes += 1
            yield

    def save(self) -> bool:
        """Save the state if anything was written since the last save; whether it saved."""
        with self._lock:
            if self._save_state is None or self.writes == self._saved_writes:
                return False
            self._save_state()
            self._saved_writes = self.writes
            return True

    def save_on_exit(self) -> str | None:
        """The last save as the server stops: why it failed, unless a command was told already."""
        try:
            self.save()
        except (OSError, GluecatError) as exc:
            return None if self._failed_writes == self.writes else str(exc)
        return None

    def _save(self, start_response: Callable[..., Any]) -> Iterable[bytes]:
        try:
            answer: dict[str, Any] = {"saved": self.save()}
        except (OSError, GluecatError) as exc:  # a full disk, a read-only directory, a link refused: one line
            self._failed_writes = self.writes
            answer = {"saved": False, "error": str(exc)}
        start_response("200 OK", [("Content-Type", "application/json")])
        return [json.dumps(answer).encode()]


def _glue_operation(environ: dict[str, Any]) -> str | None:
    target = str(environ.get("HTTP_X_AMZ_TARGET", ""))
    return target.split(".", 1)[1] if target.startswith("AWSGlue.") else None


def _scope(environ: dict[str, Any]) -> tuple[str, str]:
    match = _SCOPE.search(str(environ.get("HTTP_AUTHORIZATION", "")))
    return (match.group(1), match.group(2)) if match else ("", "")


def _is_write(environ: dict[str, Any], operation: str | None) -> bool:
    if operation is not None:
        return not operation.startswith(_READ_PREFIXES)
    if _scope(environ)[1] == "sts":
        return False
    return environ.get("REQUEST_METHOD", "GET") not in ("GET", "HEAD", "OPTIONS")
