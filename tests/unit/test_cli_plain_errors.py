"""Library errors reach the user as plain, one-line text: no ANSI codes from deltalake."""

from __future__ import annotations

import socket

import pytest

from gluecat.backends import aws
from gluecat.backends.delta import DeltaTables
from gluecat.errors import LiveStateError
from gluecat.text.plain import one_line, strip_ansi


def test_strip_ansi_and_join_lines() -> None:
    text = "Generic S3 error\n   \x1b[31m↳\x1b[0m Error performing list request\n"
    assert strip_ansi(text) == "Generic S3 error\n   ↳ Error performing list request\n"
    assert one_line(text) == "Generic S3 error ↳ Error performing list request"


def test_delta_errors_are_plain_and_one_line() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    session = aws.session_holding("k", "s", None, "us-east-1")
    tables = DeltaTables(session, f"http://127.0.0.1:{port}")
    with pytest.raises(LiveStateError) as caught:
        tables.read("s3://lake/sales/events")
    message = str(caught.value)
    assert "cannot read the Delta log at s3://lake/sales/events" in message
    assert "\x1b" not in message
    assert "\n" not in message
