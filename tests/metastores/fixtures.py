"""Real Hive Metastores for the session: HMS 2.3.9 (Spark's own Hive, from the pyspark wheel) and HMS
4.0.1 (the standalone metastore from Maven Central), each started on first use and stopped at the
session's end, both reaching the local S3 of the sandbox's local Glue + S3 through S3A. A plugin of
tests/conftest.py, so that tests/metastores/ and the shared backend suite (tests/backends/) share
one of each, and `-m "not metastores"` works wherever pytest starts.

`hms23` and `hms40` are one metastore each; `hms` runs a test against both. A metastore that cannot
be fetched or started fails the session with one line saying what, never a skip. Every test uses
its own database names: the metastores are shared by the session.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import boto3
import pytest

from gluecat.sandbox.server import LocalGlue
from gluecat.sandbox.strict import StrictOptions
from tests.metastores.hms_server import HMS2, HMS4, Metastore, MetastoreUnavailable, running_metastore

BUCKET = "lake"
REGION = "us-east-1"
ACCESS_KEY = "testing"  # the local S3 takes any key; these are the ones tests/conftest.py exports
SECRET_KEY = "testing"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "metastores: runs against real Hive Metastores 2.3.9 and 4.0.1 (slow)")


@dataclass(frozen=True)
class LocalS3:
    """The local S3 the metastores reach: its endpoint, the keys, one bucket and a client for it."""

    endpoint: str
    access_key: str
    secret_key: str
    bucket: str
    client: Any


@pytest.fixture(scope="session")
def metastores_s3() -> Iterator[LocalS3]:
    with LocalGlue(StrictOptions()) as server:
        client = boto3.client(
            "s3", endpoint_url=server.endpoint_url, region_name=REGION,
            aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY,
        )  # fmt: skip
        client.create_bucket(Bucket=BUCKET)
        yield LocalS3(server.endpoint_url, ACCESS_KEY, SECRET_KEY, BUCKET, client)


def _metastore(version: str, s3: LocalS3, factory: pytest.TempPathFactory) -> Iterator[Metastore]:
    workdir = factory.mktemp(f"hms-{version}")
    try:
        with running_metastore(version, workdir, s3.endpoint, s3.access_key, s3.secret_key) as server:
            yield server
    except MetastoreUnavailable as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture(scope="session")
def hms23(metastores_s3: LocalS3, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Metastore]:
    yield from _metastore(HMS2, metastores_s3, tmp_path_factory)


@pytest.fixture(scope="session")
def hms40(metastores_s3: LocalS3, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Metastore]:
    yield from _metastore(HMS4, metastores_s3, tmp_path_factory)


@pytest.fixture(params=[HMS2, HMS4], ids=["hms2.3.9", "hms4.0.1"])
def hms(request: pytest.FixtureRequest) -> Metastore:
    """Each metastore in turn (only the one a test runs against is started)."""
    name = "hms23" if request.param == HMS2 else "hms40"
    server: Metastore = request.getfixturevalue(name)
    return server
