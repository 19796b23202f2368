"""Shared fixtures: a strict local Glue + S3 (moto server behind gluecat's strict layer)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import boto3
import pytest

from gluecat.sandbox.server import LocalGlue
from gluecat.sandbox.strict import StrictOptions
from gluecat.secrets import redact

# The real Hive Metastores and the Iceberg REST catalog (started only by the tests that ask for them),
# shared by tests/metastores/, tests/rest/, the backend suite in tests/backends/ and the engines tests.
pytest_plugins = ("tests.metastores.fixtures", "tests.rest.fixtures")

# Credentials for the local server only; nothing here can reach AWS.
for _key, _value in {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
    # The local emulator answers one request at a time: a page of 17,000 partitions
    # queued behind parallel segments can wait longer than a real Glue call ever would.
    "GLUECAT_READ_TIMEOUT": "120",
}.items():
    os.environ[_key] = _value
os.environ.pop("AWS_PROFILE", None)


@pytest.fixture(autouse=True)
def _forget_secrets() -> Iterator[None]:
    """Secrets are remembered for the process (the CLI runs in-process in many tests): drop each
    test's, so no other test's output is masked."""
    yield
    redact.forget_all()


@pytest.fixture(scope="session")
def glue_server() -> Iterator[LocalGlue]:
    with LocalGlue(StrictOptions()) as server:
        yield server


@pytest.fixture
def server(glue_server: LocalGlue) -> Iterator[LocalGlue]:
    """The strict server, emptied, with AWS's page sizes and no throttling unless a test sets them."""
    glue_server.configure()
    glue_server.reset()
    yield glue_server
    glue_server.configure()


@pytest.fixture
def raw_glue(server: LocalGlue) -> Any:
    """A plain boto3 client, for arranging live state and asserting what Glue holds."""
    return boto3.client("glue", endpoint_url=server.endpoint_url, region_name="us-east-1")


@pytest.fixture
def lake_bucket(server: LocalGlue) -> str:
    """An S3 bucket named `lake` on the local server, for Iceberg metadata and Delta logs."""
    boto3.client("s3", endpoint_url=server.endpoint_url, region_name="us-east-1").create_bucket(Bucket="lake")
    return "lake"
