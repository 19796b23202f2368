"""Run moto's Glue + S3 behind the strict layer on a loopback port, in its own process.

A separate process, not a thread: deltalake's bindings hold the GIL while they
wait on S3, so a server thread in the same process could never answer them.

Given a state directory, the server restores it before it answers and saves it
(when something was written) on request, on SIGTERM, and when its parent dies.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import os
import signal
import subprocess
import sys
import threading
import urllib.request
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

from gluecat.errors import ExitCode, LiveStateError
from gluecat.sandbox import collector, fast_partitions, iam, lakeformation
from gluecat.sandbox import optimizers as table_optimizers
from gluecat.sandbox.strict import CONTROL_PREFIX, StrictGlue, StrictOptions
from gluecat.sandbox.tracking import SAVE_PATH

STARTUP_SECONDS = 60
STOP_SECONDS = 120  # a final save of a large state takes a while


class LocalGlue:
    """A moto server on 127.0.0.1 with Glue's real paging, limits and VersionId checks."""

    def __init__(
        self,
        options: StrictOptions | None = None,
        port: int = 0,
        state: Path | None = None,
        region: str = "us-east-1",
        inherit_fds: tuple[int, ...] = (),
    ) -> None:
        """`state`: restore from and save to this directory; `inherit_fds`: descriptors the
        server process keeps open (a lock it must hold for as long as it runs)."""
        self._options = options or StrictOptions()
        self._process: subprocess.Popen[str] | None = None
        self._port = port
        self._state = state
        self._region = region
        self._inherit_fds = inherit_fds

    @property
    def endpoint_url(self) -> str:
        assert self._process is not None, "start() first"
        return f"http://127.0.0.1:{self._port}"

    @property
    def pid(self) -> int:
        """The server's process id (benchmarks read its CPU time apart from the client's)."""
        assert self._process is not None, "start() first"
        return self._process.pid

    def start(self) -> LocalGlue:
        state = ["--state", str(self._state), "--region", self._region] if self._state else []
        self._process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gluecat.sandbox.server",
                "--options",
                json.dumps(self._options.__dict__),
                "--port",
                str(self._port),
                *state,
            ],
            stdout=subprocess.PIPE,
            text=True,
            pass_fds=self._inherit_fds,
            env=_server_environment(),
            # Its own session: a signal to the command's process group (Ctrl-C, a CI runner's or
            # `timeout`'s SIGTERM) is the command's to handle; it stops its server when done.
            start_new_session=True,
        )
        assert self._process.stdout is not None
        try:
            line = self._process.stdout.readline()
        except BaseException:  # Ctrl-C while it starts: it has served nothing, so nothing is lost
            self._process.kill()
            self._process.wait()
            self._process = None
            raise
        if line.startswith("ERROR "):
            self.stop()
            raise LiveStateError(line.removeprefix("ERROR ").strip())
        if not line.startswith("PORT "):
            self.stop()
            raise LiveStateError(f"the sandbox's local Glue did not start (it answered {line.strip()!r})")
        self._port = int(line.split()[1])
        return self

    def stop(self) -> None:
        """SIGTERM: the server stops answering, saves what was written, and exits."""
        if self._process is not None:
            self._process.terminate()
            self._process.wait(timeout=STOP_SECONDS)
            self._process = None

    def save(self) -> bool:
        return request_save(self.endpoint_url)

    def _post(self, path: str, payload: dict[str, Any] | None = None, timeout: float = 30) -> Any:
        data = json.dumps(payload or {}).encode()
        request = urllib.request.Request(f"{self.endpoint_url}{path}", data=data, method="POST")
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read()
        return json.loads(body) if body.startswith(b"{") else None

    def reset(self) -> None:
        """Forget every database, table, partition, bucket and object; zero the counts."""
        self._post("/moto-api/reset")
        self.reset_counts()

    def check_iam(self, free_calls: float = 0) -> None:
        """Check callers' IAM actions after `free_calls` more calls (inf: never), as moto's reset-auth."""
        request = urllib.request.Request(
            f"{self.endpoint_url}{iam.RESET_AUTH_PATH}", data=str(free_calls).encode(), method="POST"
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()

    def reset_counts(self) -> None:
        self._post(f"{CONTROL_PREFIX}/reset-counts")

    def configure(
        self, page_size: int | None = None, throttle_rate: float = 0.0, fold_names: bool = True, latency_ms: float = 0.0
    ) -> None:
        settings = {"page_size": page_size, "throttle_rate": throttle_rate, "fold_names": fold_names}
        self._post(f"{CONTROL_PREFIX}/options", {**settings, "latency_ms": latency_ms})

    def calls(self) -> Counter[str]:
        return Counter(self._post(f"{CONTROL_PREFIX}/calls")["calls"])

    def lakeformation_calls(self) -> Counter[str]:
        """Calls the local Lake Formation answered, by operation (zeroed with the Glue counts)."""
        return Counter(self._post(f"{CONTROL_PREFIX}/lakeformation-calls")["calls"])

    def throttled(self) -> int:
        return int(self._post(f"{CONTROL_PREFIX}/calls")["throttled"])

    def peak_in_flight(self) -> int:
        """The most partition batch writes it was answering at once since the counts were reset."""
        return int(self._post(f"{CONTROL_PREFIX}/calls")["peak_in_flight"])

    def __enter__(self) -> LocalGlue:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def _server_environment() -> dict[str, str]:
    """The emulator never reaches AWS: the user's profile (perhaps unknown here) must not stop it."""
    return {k: v for k, v in os.environ.items() if k not in ("AWS_PROFILE", "AWS_DEFAULT_PROFILE")}


def request_save(endpoint_url: str) -> bool:
    """Have the server save its state now if anything was written since its last save."""
    request = urllib.request.Request(f"{endpoint_url}{SAVE_PATH}", data=b"{}", method="POST")
    try:
        with urllib.request.urlopen(request, timeout=STOP_SECONDS) as response:
            answer = json.loads(response.read())
    except (OSError, ValueError) as exc:
        raise LiveStateError(f"could not save the sandbox state at {endpoint_url}: {exc}") from exc
    if "error" in answer:
        raise LiveStateError(unsaved_message(answer["error"]))
    return bool(answer["saved"])


def unsaved_message(reason: str) -> str:
    return (
        f"could not save the sandbox state ({reason}): what was written to the sandbox since its last save "
        "is lost; make room on the disk or make .gluecat/sandbox writable, then run the command again"
    )


def serve(options: StrictOptions, port: int, state: Path | None, region: str) -> None:
    from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
    from werkzeug.serving import make_server

    from gluecat.sandbox import persist
    from gluecat.sandbox.http_handler import KeepAliveHandler
    from gluecat.sandbox.partition_indexes import BACKFILL_SECONDS, PartitionIndexStore
    from gluecat.sandbox.snapshot import STATE_FILE
    from gluecat.sandbox.tracking import Tracking

    fast_partitions.install()
    indexes = PartitionIndexStore(BACKFILL_SECONDS)
    optimizers = table_optimizers.OptimizerStore()
    if state is not None:
        snapshot_file = state / STATE_FILE  # else the layout before it: the directory is named
        restores = (
            (snapshot_file if snapshot_file.exists() else state, lambda: persist.restore(state, region, indexes)),
            (state / table_optimizers.STATE_FILE, lambda: table_optimizers.restore(optimizers, state)),
        )
        if not _restored(restores):
            return
    lake: lakeformation.LocalLakeFormation  # made below, once Tracking is; saved beside the Glue state
    save_state = (lambda: _save_all(state, indexes, lake, optimizers)) if state is not None else None
    moto = DomainDispatcherApplication(create_backend_app)
    # moto lists its service packages on disk to route every request; a host's service never changes.
    moto.get_backend_for_host = functools.lru_cache(maxsize=64)(moto.get_backend_for_host)  # type: ignore[method-assign]
    tracking = Tracking(moto, save_state)
    indexes.on_change = optimizers.on_change = tracking.note_write
    # Lake Formation's grants and LF-tags: the local layer answers them, held to the API reference.
    lake = lakeformation.LocalLakeFormation(
        StrictGlue(tracking, options, indexes=indexes, optimizers=optimizers, direct_writes=tracking.writing),
        on_write=tracking.note_write,
    )
    if state is not None:
        restore_access = (state / lakeformation.STATE_FILE, lambda: lakeformation.restore(lake, state))
        if not _restored((restore_access,)):
            return
    # IAM actions, checked on each request as the client sent it (gluecat/sandbox/iam.py).
    strict = iam.IamGate(lake, free_calls=iam.take_over_moto_setting())
    collector.freeze_what_survives()
    try:
        with contextlib.redirect_stderr(io.StringIO()):  # werkzeug's own two lines about it, then exit
            server = make_server("127.0.0.1", port, strict, threaded=True, request_handler=KeepAliveHandler)
    except (OSError, SystemExit):
        _announce(f"ERROR port {port} on 127.0.0.1 is in use by another program: stop it, or pass --port")
        return
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    # Ctrl-C reaches the whole process group: the command decides when its server stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(os.getppid(), stop), daemon=True).start()
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True).start()
    _announce(f"PORT {server.server_address[1]}")
    stop.wait()
    server.shutdown()
    failure = tracking.save_on_exit()
    if failure is not None:
        sys.stderr.write(f"error: {unsaved_message(f'{state}: {failure}')}\n")
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(ExitCode.OK)  # tearing down a large emulated catalog object by object takes seconds; nothing is left to do


def _announce(line: str) -> None:
    """The one line the command that started this server waits for. A command killed (or
    interrupted) while the server started reads it no more: the server has served nothing and
    written nothing, so it ends quietly instead of printing a BrokenPipeError to the terminal."""
    try:
        print(line, flush=True)
    except BrokenPipeError:
        os._exit(ExitCode.OK)


def _save_all(
    state: Path, indexes: Any, lake: lakeformation.LocalLakeFormation, optimizers: table_optimizers.OptimizerStore
) -> None:
    from gluecat.sandbox import persist

    persist.save(state, indexes)
    lakeformation.save(lake, state)
    table_optimizers.save(optimizers, state)


def _restored(restores: tuple[tuple[Path, Callable[[], None]], ...]) -> bool:
    """Each file of the state restored; a damaged one is the one line the command prints, naming it."""
    for path, restore in restores:
        try:
            restore()
        except Exception as exc:  # a damaged file: moto and the local layers refuse its entries in their own ways
            _announce(f"ERROR {_unreadable_state(path, exc)}")
            return False
    return True


def _unreadable_state(path: Path, exc: Exception) -> str:
    reason = " ".join(f"{type(exc).__name__}: {exc}".split())[:300]
    return (
        f"cannot restore the sandbox state from {path} ({reason}): "
        f"move it aside (or delete it to start over without what it held)"
    )


def _watch_parent(parent: int, stop: threading.Event) -> None:
    """A server whose command was killed saves what it was given and exits, never lingers."""
    while not stop.wait(0.5):
        if os.getppid() != parent:
            stop.set()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--options", default="{}")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--state", type=Path)
    parser.add_argument("--region", default="us-east-1")
    arguments = parser.parse_args()
    serve(StrictOptions(**json.loads(arguments.options)), arguments.port, arguments.state, arguments.region)
