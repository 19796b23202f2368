"""The local Glue's HTTP request handler: quiet, and keeping connections alive as AWS's endpoints do.

werkzeug's development server answers every request with `Connection: close`: after the answer it
drains whatever the client sent beyond the body, which on a kept connection would swallow the next
request. So every call paid a new TCP connection and a new server thread (about a tenth of a large
import's client time), a cost real Glue does not have. Here a request with a known body length is
read whole first and werkzeug drains an empty buffer, so the connection stays clean and open unless
the client asks to close it. Any other request (chunked, `Expect: 100-continue`) is answered as
werkzeug does and closed.
"""

from __future__ import annotations

import io
import socket

from moto.moto_server.werkzeug_app import MotoRequestHandler


class KeepAliveHandler(MotoRequestHandler):
    timeout = 120  # seconds an idle kept-alive connection holds its thread
    _keep_alive = False

    def setup(self) -> None:
        super().setup()
        # An answer goes out in several writes (headers, then chunks): on a kept connection Nagle's
        # algorithm would hold each later write for the client's delayed ACK, 40 ms a call.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_request(self, *args: object) -> None:
        pass

    def log_error(self, format: str, *args: object) -> None:
        if not format.startswith("Request timed out"):  # an idle kept connection, closed as AWS's are
            super().log_error(format, *args)

    def run_wsgi(self) -> None:
        length = self.headers.get("Content-Length", "0")
        self._keep_alive = length.isdigit() and "Transfer-Encoding" not in self.headers and "Expect" not in self.headers
        if not self._keep_alive:
            super().run_wsgi()
            return
        connection = self.rfile
        self.rfile = io.BytesIO(connection.read(int(length)))
        try:
            super().run_wsgi()
        finally:
            self.rfile = connection

    def send_header(self, keyword: str, value: str) -> None:
        if (
            self._keep_alive
            and not self.close_connection
            and keyword.lower() == "connection"
            and value.lower() == "close"
        ):
            return  # open unless the request's HTTP version or Connection header closes it, as http.server decides
        super().send_header(keyword, value)
