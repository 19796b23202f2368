"""A real Iceberg REST catalog for the session: Apache Iceberg's own RESTCatalogServer (from Maven
Central), keeping its tables' files on a local S3 (the sandbox's local Glue + S3) through S3FileIO.
A plugin of tests/conftest.py, so that tests/rest/, the shared backend suite (tests/backends/) and
the engines tests share one server.

`rest_catalog` is the server, started on first use and stopped at the session's end; `rest_s3` is the
S3 it writes to. A server that cannot be fetched or started fails the session with one line, never a
skip. Every test uses its own namespace names: the catalog is shared by the session.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.metastores.fixtures import LocalS3
from tests.rest.rest_server import RestCatalogServer, RestCatalogUnavailable, running_rest_catalog


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "rest: runs against a real Iceberg REST catalog server (Java)")


@pytest.fixture(scope="session")
def rest_s3(metastores_s3: LocalS3) -> LocalS3:
    """The session's local S3 (the one the metastores reach): the REST catalog's files go under rest/."""
    return metastores_s3


@pytest.fixture(scope="session")
def rest_catalog(rest_s3: LocalS3, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RestCatalogServer]:
    workdir = tmp_path_factory.mktemp("iceberg-rest")
    warehouse = f"s3://{rest_s3.bucket}/rest/"
    try:
        with running_rest_catalog(workdir, rest_s3.endpoint, rest_s3.access_key, rest_s3.secret_key, warehouse) as s:
            yield s
    except RestCatalogUnavailable as exc:
        pytest.fail(str(exc), pytrace=False)
