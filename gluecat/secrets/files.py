"""Every file gluecat writes stays inside the directory it belongs to (the project, the sandbox
state), whatever symbolic links that directory holds.

A path is resolved first (every link followed): one that ends outside the root is refused with one
line, written nowhere. The write itself then walks from the root one directory at a time without
following links (a link put in place meanwhile is refused, not followed), writes a temporary file
beside the target and renames it over the target: a reader sees the old file or the new one.
`private` files (the sandbox state holds parameter values such as passwords) are made 0600 and their
directories 0700. Each file's data reaches the disk before it is renamed into place; a directory's
new entries, once its writer is done with it (`Writer`: once for a directory of thousands of files).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path
from types import TracebackType

from gluecat.errors import GluecatError

PRIVATE_FILE, PRIVATE_DIRECTORY = 0o600, 0o700
SHARED_FILE, SHARED_DIRECTORY = 0o666, 0o777  # less the umask, as any file a user writes
_DIRECTORY_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


class OutsideRoot(GluecatError):
    """A path that leads out of the directory gluecat may write in."""


def confined(root: Path, path: Path) -> Path:
    """`path` with every link resolved; an OutsideRoot error when that leaves `root` (resolved)."""
    base = root.resolve()
    target = (path if path.is_absolute() else Path.cwd() / path).resolve()
    if target != base and base not in target.parents:
        raise OutsideRoot(
            f"refusing to write {path}: a symbolic link takes it to {target}, outside {root};"
            " gluecat writes only inside the directory it manages"
        )
    return target


def write_inside(root: Path, path: Path, data: bytes | str, private: bool = False) -> Path:
    """Write `data` to `path` (through links that stay inside `root`), making its directories; the
    file the data went to. OutsideRoot when `path` leads out of `root`; OSError as the file system
    refuses."""
    with Writer(root, private) as writer:
        return writer.write(path, data)


class Writer:
    """`write_inside` for many files under one root (import writes one per table): the root and each
    directory are resolved and opened once, and each directory is synced once, when the writer is done
    with it, rather than after every file. A few directories stay open at a time."""

    OPEN_DIRECTORIES = 16

    def __init__(self, root: Path, private: bool = False) -> None:
        self.root = root
        self._private = private
        self._resolved: dict[Path, Path] = {}  # a directory as asked for -> where its links lead
        self._open: dict[Path, int] = {}  # resolved directory -> descriptor, least recently used first

    def confined(self, path: Path) -> Path:
        """`confined(root, path)`, its directory resolved once."""
        parent = self._resolved.get(path.parent)
        if parent is None:
            try:
                parent = self._resolved[path.parent] = confined(self.root, path.parent)
            except OutsideRoot:
                confined(self.root, path)  # refused naming the file, as for one file alone
                raise
        target = parent / path.name
        if path.name in ("", "..") or target.is_symlink():  # not a plain name: resolved whole
            return confined(self.root, path)
        return target

    def write(self, path: Path, data: bytes | str) -> Path:
        """As `write_inside`: the file the data went to."""
        target = self.confined(path)
        payload = data.encode("utf-8") if isinstance(data, str) else data
        _replace(self._directory(target.parent), target.name, payload, PRIVATE_FILE if self._private else SHARED_FILE)
        return target

    def _directory(self, directory: Path) -> int:
        descriptor = self._open.pop(directory, None)
        if descriptor is None:
            if len(self._open) >= self.OPEN_DIRECTORIES:
                _sync_and_close(self._open.pop(next(iter(self._open))))
            descriptor = open_directory(self.root, directory, self._private)
        self._open[directory] = descriptor
        return descriptor

    def close(self) -> None:
        """Every directory still open synced and closed; the first that fails raises, after the rest."""
        failures: list[OSError] = []
        while self._open:
            try:
                _sync_and_close(self._open.popitem()[1])
            except OSError as exc:
                failures.append(exc)
        if failures:
            raise failures[0]

    def __enter__(self) -> Writer:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()


def _sync_and_close(directory: int) -> None:
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


def make_directory(root: Path, path: Path, private: bool = False) -> Path:
    """`path` made (with its parents) inside `root`, never through a link that leaves it."""
    target = confined(root, path)
    os.close(open_directory(root, target, private))
    return target


def open_directory(root: Path, directory: Path, private: bool = False) -> int:
    """A descriptor of `directory` (resolved, inside `root`), reached from `root` one name at a time
    without following links and made where missing (0700 when `private`)."""
    base = root.resolve()
    relative = directory.relative_to(base).parts if directory != base else ()
    mode = PRIVATE_DIRECTORY if private else SHARED_DIRECTORY
    base.mkdir(mode, parents=True, exist_ok=True)  # the root itself is where the user pointed gluecat
    descriptor = os.open(base, _DIRECTORY_FLAGS & ~os.O_NOFOLLOW)
    try:
        for name in relative:
            child = _step(descriptor, name, mode, directory)
            os.close(descriptor)
            descriptor = child
        if private and relative:
            _make_private(descriptor)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def _step(parent: int, name: str, mode: int, whole: Path) -> int:
    """The child directory `name` of `parent`, made when missing."""
    try:
        try:
            return os.open(name, _DIRECTORY_FLAGS, dir_fd=parent)
        except FileNotFoundError:
            with contextlib.suppress(FileExistsError):  # made meanwhile: opened below, as any other
                os.mkdir(name, mode, dir_fd=parent)
            return os.open(name, _DIRECTORY_FLAGS, dir_fd=parent)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR) and _is_link(parent, name):  # put there since resolved
            raise OutsideRoot(f"refusing to write in {whole}: {name} became a symbolic link") from exc
        raise


def _replace(directory: int, name: str, payload: bytes, mode: int) -> None:
    # Short, whatever the name: a name may already be as long as the file system allows.
    temporary = f".gluecat-{os.getpid()}-{os.urandom(4).hex()}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    kept = None if mode == PRIVATE_FILE else _mode_of(directory, name)
    try:
        # Made inside the `try`: Ctrl-C the moment the file exists, before its descriptor is even
        # held, still removes it by name.
        _fill(os.open(temporary, flags, mode, dir_fd=directory), payload, mode, kept)
        os.replace(temporary, name, src_dir_fd=directory, dst_dir_fd=directory)
    except BaseException as exc:
        if not isinstance(exc, FileExistsError):  # O_EXCL refused a name that is not this write's
            with contextlib.suppress(OSError):  # a full disk or Ctrl-C leaves no half-written file behind
                os.unlink(temporary, dir_fd=directory)
        raise


def _fill(handle: int, payload: bytes, mode: int, kept: int | None) -> None:
    """`payload` written to the new file `handle`, its mode set, on disk; the handle closed."""
    try:
        view = memoryview(payload)
        while view:
            view = view[os.write(handle, view) :]
        if mode == PRIVATE_FILE or kept is not None:
            # A private file is the owner's alone whatever the umask; a file written over keeps its mode.
            os.fchmod(handle, mode if kept is None else kept)
        os.fsync(handle)
    finally:
        os.close(handle)


def _mode_of(directory: int, name: str) -> int | None:
    try:
        return os.stat(name, dir_fd=directory, follow_symlinks=False).st_mode & 0o7777
    except FileNotFoundError:
        return None


def _make_private(directory: int) -> None:
    """0700 for a private directory made earlier, or by a version that made it open; one this user
    does not own stays as it is."""
    with contextlib.suppress(PermissionError):
        os.fchmod(directory, PRIVATE_DIRECTORY)


def _is_link(directory: int, name: str) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=directory, follow_symlinks=False).st_mode)
    except OSError:
        return False
