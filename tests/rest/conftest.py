"""A real Iceberg REST catalog for the session: Apache Iceberg's own RESTCatalogServer (from Maven
Central), keeping its tables' files on a local S3 (the sandbox's local Glue + S3) through S3FileIO.

`rest_catalog` is the server, started on first use and stopped at the session's end; `rest_s3` is the
S3 it writes to. A server that cannot be fetched or started fails the session with one line, never a
skip. Every test uses its own namespace names: the catalog is shared by the session.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import boto3
import pytest

from gluecat.sandbox.server import LocalGlue
from gluecat.sandbox.strict import StrictOptions
from tests.rest.rest_server import RestCatalogServer, RestCatalogUnavailable, running_rest_catalog

BUCKET = "lake"
REGION = "us-east-1"
ACCESS_KEY = "testing"  # the local S3 takes any key; these are the ones tests/conftest.py exports
SECRET_KEY = "testing"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "rest: runs against a real Iceberg REST catalog server (Java)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/rest/" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.rest)


@dataclass(frozen=True)
class RestS3:
    """The local S3 (and Glue) the REST catalog's files live on: endpoint, keys, bucket, a client."""

    endpoint: str
    access_key: str
    secret_key: str
    bucket: str
    client: Any


@pytest.fixture(scope="session")
def rest_s3() -> Iterator[RestS3]:
    with LocalGlue(StrictOptions()) as server:
        client = boto3.client(
            "s3", endpoint_url=server.endpoint_url, region_name=REGION,
            aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY,
        )  # fmt: skip
        client.create_bucket(Bucket=BUCKET)
        yield RestS3(server.endpoint_url, ACCESS_KEY, SECRET_KEY, BUCKET, client)


@pytest.fixture(scope="session")
def rest_catalog(rest_s3: RestS3, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RestCatalogServer]:
    workdir = tmp_path_factory.mktemp("iceberg-rest")
    warehouse = f"s3://{rest_s3.bucket}/rest/"
    try:
        with running_rest_catalog(workdir, rest_s3.endpoint, rest_s3.access_key, rest_s3.secret_key, warehouse) as s:
            yield s
    except RestCatalogUnavailable as exc:
        pytest.fail(str(exc), pytrace=False)
