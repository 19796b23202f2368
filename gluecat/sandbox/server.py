"""Run moto's Glue + S3 behind the strict layer on a loopback port, in its own process.

A separate process, not a thread: deltalake's bindings hold the GIL while they
wait on S3, so a server thread in the same process could never answer them.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import urllib.request
from collections import Counter
from types import TracebackType
from typing import Any

from gluecat.sandbox import fast_partitions
from gluecat.sandbox.strict import CONTROL_PREFIX, StrictGlue, StrictOptions

STARTUP_SECONDS = 60


class LocalGlue:
    """A moto server on 127.0.0.1 with Glue's real paging, limits and VersionId checks."""

    def __init__(self, options: StrictOptions | None = None, port: int = 0) -> None:
        self._options = options or StrictOptions()
        self._process: subprocess.Popen[str] | None = None
        self._port = port

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
        self._process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gluecat.sandbox.server",
                "--options",
                json.dumps(self._options.__dict__),
                "--port",
                str(self._port),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line.startswith("PORT "):
            self.stop()
            raise RuntimeError(f"the local Glue did not start: {line!r}")
        self._port = int(line.split()[1])
        return self

    def stop(self) -> None:
        if self._process is not None:
            self._process.terminate()
            self._process.wait(timeout=10)
            self._process = None

    def _post(self, path: str, payload: dict[str, Any] | None = None) -> Any:
        data = json.dumps(payload or {}).encode()
        request = urllib.request.Request(f"{self.endpoint_url}{path}", data=data, method="POST")
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
        return json.loads(body) if body.startswith(b"{") else None

    def reset(self) -> None:
        """Forget every database, table, partition, bucket and object; zero the counts."""
        self._post("/moto-api/reset")
        self.reset_counts()

    def reset_counts(self) -> None:
        self._post(f"{CONTROL_PREFIX}/reset-counts")

    def configure(self, page_size: int | None = None, throttle_rate: float = 0.0) -> None:
        self._post(f"{CONTROL_PREFIX}/options", {"page_size": page_size, "throttle_rate": throttle_rate})

    def calls(self) -> Counter[str]:
        return Counter(self._post(f"{CONTROL_PREFIX}/calls")["calls"])

    def throttled(self) -> int:
        return int(self._post(f"{CONTROL_PREFIX}/calls")["throttled"])

    def __enter__(self) -> LocalGlue:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def serve(options: StrictOptions, port: int) -> None:
    from moto.moto_server.werkzeug_app import DomainDispatcherApplication, MotoRequestHandler, create_backend_app
    from werkzeug.serving import make_server

    class QuietHandler(MotoRequestHandler):
        def log_request(self, *args: object) -> None:
            pass

    fast_partitions.install()
    app = StrictGlue(DomainDispatcherApplication(create_backend_app), options)
    server = make_server("127.0.0.1", port, app, threaded=True, request_handler=QuietHandler)
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--options", default="{}")
    parser.add_argument("--port", type=int, default=0)
    arguments = parser.parse_args()
    serve(StrictOptions(**json.loads(arguments.options)), arguments.port)
