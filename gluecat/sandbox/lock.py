"""Who owns a project's sandbox state: one process at a time, or the running `gluecat sandbox`.

`.gluecat/sandbox.lock` is held (flock, exclusive) by whichever process has the state
loaded: a command with its own short-lived server, or `gluecat sandbox` for as long as
it serves. The server process inherits the lock, so a command killed mid-way keeps the
state locked until its server has saved and exited. `gluecat sandbox` also writes its
address to `.gluecat/sandbox.served`; commands that find it talk to that server instead
of loading the state themselves.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from gluecat.errors import LiveStateError
from gluecat.secrets.files import make_directory, write_inside

GLUECAT_DIR = ".gluecat"
LOCK_FILE = "sandbox.lock"
SERVED_FILE = "sandbox.served"
POLL_SECONDS = 0.2


@dataclass
class Served:
    """A `gluecat sandbox` serving this project's state."""

    url: str
    pid: int


class SandboxLock:
    def __init__(self, project_root: Path) -> None:
        self.root = project_root
        self.directory = project_root / GLUECAT_DIR
        self._descriptor: int | None = None
        self._held = False

    @property
    def descriptor(self) -> int:
        assert self._descriptor is not None, "acquire() first"
        return self._descriptor

    def claim(self) -> Served | None:
        """Take the lock (None), or find the running `gluecat sandbox` (Served); wait for either.

        While another command holds the state, one line on stderr says so and this waits.
        """
        self._open()
        announced = False
        while True:
            if self._try_lock():
                self._forget_served()  # left by a killed server
                return None
            served = read_served(self.directory)
            if served is not None:
                self._close()
                return served
            if not announced:
                sys.stderr.write(f"waiting for another gluecat command to finish with the sandbox ({self._path})\n")
                sys.stderr.flush()
                announced = True
            time.sleep(POLL_SECONDS)

    def announce(self, url: str) -> None:
        """Tell later commands that this process serves the state at `url`."""
        payload = json.dumps({"url": url, "pid": os.getpid()}).encode()
        write_inside(self.root, self.directory / SERVED_FILE, payload, private=True)

    def release(self) -> None:
        if self._held:
            self._forget_served()
        self._close()

    def _close(self) -> None:
        if self._descriptor is not None:
            os.close(self._descriptor)  # closing drops the flock (once inheritors are gone too)
            self._descriptor = None
        self._held = False

    @property
    def _path(self) -> Path:
        return self.directory / LOCK_FILE

    def _forget_served(self) -> None:
        served = self.directory / SERVED_FILE
        if served.exists():
            served.unlink(missing_ok=True)

    def _open(self) -> None:
        """Open the lock file; in a directory gluecat cannot write, a clear error (or, when the
        lock file is there already, read-only: commands that only read still run)."""
        if self._descriptor is not None:
            return
        try:  # never through a link that leaves the project (OutsideRoot is not an OSError)
            make_directory(self.root, self.directory, private=True)
            self._descriptor = os.open(self._path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        except OSError as exc:
            try:
                self._descriptor = os.open(self._path, os.O_RDONLY | os.O_NOFOLLOW)
            except OSError:
                raise LiveStateError(
                    f"cannot use the sandbox state in {self.directory}: {exc.strerror or exc}; "
                    "the sandbox keeps its state there: make it writable"
                ) from exc

    def _try_lock(self) -> bool:
        self._open()
        try:
            fcntl.flock(self.descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        self._held = True
        return True


def read_served(directory: Path) -> Served | None:
    try:
        document = json.loads((directory / SERVED_FILE).read_text(encoding="utf-8"))
        return Served(str(document["url"]), int(document["pid"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def serving_now(project_root: Path) -> Served | None:
    """The `gluecat sandbox` serving this project right now, if any (a killed one's file is ignored)."""
    served = read_served(project_root / GLUECAT_DIR)
    if served is None:
        return None
    try:
        os.kill(served.pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        pass  # alive, under another user
    return served
