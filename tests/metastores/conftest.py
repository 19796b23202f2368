"""Every test here runs against real Hive Metastores: marked `metastores`. The fixtures (`hms23`,
`hms40`, `hms`, `metastores_s3`) live in tests/metastores/fixtures.py, a plugin of tests/conftest.py."""

from __future__ import annotations

import os

import pytest

from tests.metastores.fixtures import LocalS3

__all__ = ["LocalS3"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/metastores/" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.metastores)
