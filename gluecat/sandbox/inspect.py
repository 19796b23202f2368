"""What a project's sandbox holds, read from its saved state without starting a server; and
clearing it (`gluecat sandbox status` and `gluecat sandbox reset`).

Whether a server runs for the project right now is the lock (`.gluecat/sandbox.lock`, held by a
command's server or by `gluecat sandbox`) and, for `gluecat sandbox`, its `.gluecat/sandbox.served`.
Reading never creates either file, and never rewrites the state.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gluecat.errors import LiveStateError
from gluecat.sandbox.lock import GLUECAT_DIR, LOCK_FILE, Served, serving_now
from gluecat.sandbox.snapshot import STATE_FILE, read_snapshot
from gluecat.sandbox.state import STATE_DIR
from gluecat.secrets.files import confined


@dataclass(frozen=True)
class DatabaseCount:
    name: str
    region: str
    tables: int
    partitions: int


@dataclass(frozen=True)
class BucketCount:
    name: str
    region: str
    objects: int


@dataclass(frozen=True)
class Running:
    """Who holds the sandbox now: `gluecat sandbox` (served) or another command (served is None)."""

    served: Served | None

    def describe(self) -> str:
        if self.served is not None:
            return f"served at {self.served.url} by `gluecat sandbox` (process {self.served.pid})"
        return "in use by another gluecat command"


@dataclass
class Status:
    state: Path  # the state directory
    saved: bool  # a saved state exists
    size: int  # bytes under the state directory
    running: Running | None
    databases: list[DatabaseCount] = field(default_factory=list)
    buckets: list[BucketCount] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        running = self.running
        return {
            "state": str(self.state),
            "saved": self.saved,
            "size_bytes": self.size,
            "running": running is not None,
            "served": None if running is None or running.served is None else vars(running.served),
            "databases": [vars(database) for database in self.databases],
            "buckets": [vars(bucket) for bucket in self.buckets],
        }


def state_directory(project_root: Path) -> Path:
    return project_root / STATE_DIR


def status(project_root: Path, region: str) -> Status:
    """What the saved state holds; a damaged state.json is a LiveStateError, not a traceback."""
    state = state_directory(project_root)
    try:
        snapshot = read_snapshot(state, legacy_region=region, legacy_account="")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise LiveStateError(f"cannot read the sandbox state {state / STATE_FILE}: {exc}") from exc
    found = Status(state, snapshot is not None, _size(state), running(project_root))
    if snapshot is None:
        return found
    for catalog in snapshot.glue:
        for database in catalog["databases"]:
            tables = database["tables"]
            partitions = sum(len(table["partitions"]) for table in tables)
            found.databases.append(DatabaseCount(database["name"], catalog["region"], len(tables), partitions))
    for bucket in snapshot.buckets:
        if bucket.legacy_dir is not None:
            count = sum(1 for path in bucket.legacy_dir.rglob("*") if path.is_file())
        else:
            count = len(bucket.objects)
        found.buckets.append(BucketCount(bucket.name, bucket.region, count))
    found.databases.sort(key=lambda database: (database.name, database.region))
    found.buckets.sort(key=lambda bucket: bucket.name)
    return found


def running(project_root: Path) -> Running | None:
    """The process holding the sandbox now, if any (the lock is tested and at once let go)."""
    with _lock_taken(project_root) as taken:
        if taken:
            return None
    return Running(serving_now(project_root))


def reset(project_root: Path) -> bool:
    """Delete the saved state, holding the lock so no command loads it meanwhile; False when there was none.

    A running server (a command's or `gluecat sandbox`) is a LiveStateError: it holds the state in
    memory and would save it back."""
    state = state_directory(project_root)
    confined(project_root, state)  # deletes nothing through a link that leaves the project
    with _lock_taken(project_root, create=state.exists()) as taken:
        if not taken:
            holder = Running(serving_now(project_root))
            raise LiveStateError(f"the sandbox is {holder.describe()}: stop it, then reset")
        if not state.exists():
            return False
        try:
            shutil.rmtree(state)
        except OSError as exc:
            raise LiveStateError(f"cannot delete the sandbox state {state}: {exc.strerror or exc}") from exc
        return True


@contextmanager
def _lock_taken(project_root: Path, create: bool = False) -> Iterator[bool]:
    """Try the sandbox lock without waiting: True while this process holds it (also when there is no
    lock file, and `create` is not asked: nothing has served this project yet)."""
    path = project_root / GLUECAT_DIR / LOCK_FILE
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600) if create else os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        yield True
        return
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(descriptor)  # drops the flock


def _size(state: Path) -> int:
    if not state.is_dir():
        return 0
    total = 0
    for path in state.rglob("*"):
        try:
            if path.is_file():
                total += path.stat().st_size
        except OSError:
            continue  # a body removed by a save meanwhile
    return total


def human_size(size: int) -> str:
    value = float(size)
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{size:,} bytes" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size:,} bytes"  # pragma: no cover
