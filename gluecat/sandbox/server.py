"""Run moto's Glue + S3 behind the strict layer on a loopback port, in a thread."""

from __future__ import annotations

import threading
import urllib.request
from types import TracebackType

from moto.moto_server.werkzeug_app import (
    DomainDispatcherApplication,
    MotoRequestHandler,
    create_backend_app,
)
from werkzeug.serving import BaseWSGIServer, make_server

from gluecat.sandbox.strict import StrictGlue, StrictOptions


class _QuietHandler(MotoRequestHandler):
    """No access log: the sandbox runs inside gluecat commands and tests."""

    def log_request(self, *args: object) -> None:
        pass


class LocalGlue:
    """A moto server on 127.0.0.1 with Glue's real paging, limits and VersionId checks."""

    def __init__(self, options: StrictOptions | None = None, port: int = 0) -> None:
        self.strict = StrictGlue(DomainDispatcherApplication(create_backend_app), options or StrictOptions())
        self._port = port
        self._server: BaseWSGIServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def endpoint_url(self) -> str:
        assert self._server is not None, "start() first"
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> LocalGlue:
        self._server = make_server("127.0.0.1", self._port, self.strict, threaded=True, request_handler=_QuietHandler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join()

    def reset(self) -> None:
        """Forget every database, table, partition, bucket and object (moto's own reset)."""
        request = urllib.request.Request(f"{self.endpoint_url}/moto-api/reset", method="POST")
        with urllib.request.urlopen(request, timeout=30):
            pass
        self.strict.reset_counts()

    def __enter__(self) -> LocalGlue:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
