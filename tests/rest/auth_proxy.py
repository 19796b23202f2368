"""A small local proxy in front of the REST catalog server that checks credentials as a real
catalog would, since Apache Iceberg's test server checks none: OAuth2 client credentials at its token
endpoint (a wrong secret answers 401), then the bearer token it handed out, or an AWS SigV4
signature recomputed with botocore's own signer for the expected signing name and keys."""

from __future__ import annotations

import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Literal

from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

TOKEN_PATH = "/v1/oauth/tokens"
ISSUED = "token-from-the-proxy"


@dataclass(frozen=True)
class Expected:
    """What the proxy lets through: a client id and secret (oauth2), a token (bearer), or SigV4."""

    mode: Literal["oauth2", "bearer", "sigv4"]
    client_id: str = ""
    client_secret: str = ""
    token: str = ISSUED
    signing_name: str = ""
    region: str = "us-east-1"
    access_key: str = ""
    secret_key: str = ""


def _signature_holds(handler: BaseHTTPRequestHandler, body: bytes, expected: Expected) -> bool:
    authorization = handler.headers.get("Authorization", "")
    if not authorization.startswith("AWS4-HMAC-SHA256 "):
        return False
    parts = dict(part.strip().split("=", 1) for part in authorization.removeprefix("AWS4-HMAC-SHA256 ").split(","))
    signed = parts.get("SignedHeaders", "").split(";")
    url = f"http://{handler.headers.get('Host')}{handler.path}"
    split = urllib.parse.urlsplit(url)
    request = AWSRequest(
        method=handler.command,
        url=urllib.parse.urlunsplit((*split[:3], "", "")),
        params=dict(urllib.parse.parse_qsl(split.query)),
        data=body or None,
        headers={name: handler.headers[name] for name in signed if handler.headers.get(name) is not None},
    )
    signer = SigV4Auth(Credentials(expected.access_key, expected.secret_key), expected.signing_name, expected.region)
    request.context["timestamp"] = handler.headers.get("X-Amz-Date", "")
    canonical = signer.canonical_request(request)
    signature = signer.signature(signer.string_to_sign(request, canonical), request)
    return parts.get("Signature") == signature


def _handler(upstream: str, expected: Expected, seen: list[str]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_: object) -> None:
            return

        def _answer(self, status: int, body: bytes, content_type: str = "application/json") -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _refuse(self, status: int, why: str) -> None:
            seen.append(f"{status} {self.command} {self.path}: {why}")
            self._answer(
                status,
                f'{{"error": {{"message": "{why}", "type": "NotAuthorizedException", "code": {status}}}}}'.encode(),
            )

        def _handle(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if self.path.startswith(TOKEN_PATH) and expected.mode == "oauth2":
                form = dict(urllib.parse.parse_qsl(body.decode()))
                if (form.get("client_id"), form.get("client_secret")) != (expected.client_id, expected.client_secret):
                    seen.append("401 token endpoint: wrong client credentials")
                    self._answer(401, b'{"error": "invalid_client", "error_description": "wrong client credentials"}')
                    return
                answer = f'{{"access_token": "{ISSUED}", "token_type": "bearer", "issued_token_type": "urn:ietf:params:oauth:token-type:access_token"}}'
                self._answer(200, answer.encode())
                return
            if expected.mode == "sigv4":
                if not _signature_holds(self, body, expected):
                    self._refuse(403, "the SigV4 signature does not match")
                    return
            elif self.headers.get("Authorization") != f"Bearer {expected.token}":
                self._refuse(401, "no valid bearer token")
                return
            seen.append(f"200 {self.command} {self.path}")
            forwarded = urllib.request.Request(
                upstream + self.path, data=body or None, method=self.command,
                headers={"Content-Type": self.headers.get("Content-Type") or "application/json"},
            )  # fmt: skip
            try:
                with urllib.request.urlopen(forwarded, timeout=60) as reply:
                    self._answer(reply.status, reply.read(), reply.headers.get("Content-Type") or "application/json")
            except urllib.error.HTTPError as exc:
                self._answer(exc.code, exc.read(), exc.headers.get("Content-Type") or "application/json")

        do_GET = do_POST = do_DELETE = do_HEAD = _handle

    return Handler


@contextmanager
def auth_proxy(upstream: str, expected: Expected) -> Iterator[tuple[str, list[str]]]:
    """The proxy's base URI, and what it saw (one line per request), for the block."""
    seen: list[str] = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(upstream, expected, seen))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()
