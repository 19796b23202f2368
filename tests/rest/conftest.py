"""Every test in tests/rest/ is marked `rest`; the server and its S3 are the session's, from the
plugin tests/rest/fixtures.py (shared with the backend suite and the engines tests)."""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/rest/" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.rest)
