"""The local Glue keeps HTTP connections alive as AWS's endpoints do, and still answers requests
whose body it cannot read ahead (chunked, `Expect: 100-continue`) on connections it then closes."""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlsplit

from gluecat.sandbox.server import LocalGlue

HEADERS = {
    "X-Amz-Target": "AWSGlue.GetDatabases",
    "Content-Type": "application/x-amz-json-1.1",
    "Authorization": "AWS4-HMAC-SHA256 Credential=k/20260101/us-east-1/glue/aws4_request, SignedHeaders=host, Signature=0",
}


def _connection(server: LocalGlue) -> http.client.HTTPConnection:
    address = urlsplit(server.endpoint_url)
    return http.client.HTTPConnection(address.hostname or "127.0.0.1", address.port, timeout=10)


def test_one_connection_carries_many_calls(server: LocalGlue) -> None:
    connection = _connection(server)
    for body in (b"{}", b'{"MaxResults": 5}', b"{}"):  # sent back to back on the same socket
        connection.request("POST", "/", body=body, headers=HEADERS)
        answer = connection.getresponse()
        assert answer.status == 200
        text = answer.read()
        assert json.loads(text) == {"DatabaseList": []}
        assert not answer.will_close
        # Glue sends each answer's length; without it the answer went chunked, dearer to read.
        assert answer.getheader("Content-Length") == str(len(text))
        assert answer.getheader("Transfer-Encoding") is None
    assert connection.sock is not None  # never reopened: http.client reconnects silently otherwise
    connection.close()


def test_requests_without_a_known_length_are_answered_and_closed(server: LocalGlue) -> None:
    connection = _connection(server)
    connection.request("POST", "/", body=iter([b"{", b"}"]), headers=HEADERS, encode_chunked=True)
    answer = connection.getresponse()
    assert answer.status == 200 and json.loads(answer.read()) == {"DatabaseList": []}
    assert answer.will_close
    connection = _connection(server)
    connection.request("POST", "/", body=b"{}", headers={**HEADERS, "Connection": "close"})
    answer = connection.getresponse()
    assert answer.status == 200 and answer.will_close
