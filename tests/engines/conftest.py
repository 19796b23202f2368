"""One local Glue + S3 and one Trino for the whole engines session; Trino's catalogs are the files
`gluecat spark-conf --format trino` prints, used as they are.

Every engines test writes its own databases (named after the test) into the shared Glue, applies
them with gluecat, and reads them back through the engines. An engine that cannot be fetched or
started fails the session with one line saying what, never a skip.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import boto3
import pytest

from gluecat.sandbox.server import LocalGlue
from gluecat.sandbox.strict import StrictOptions
from tests.engines.trino_server import EngineUnavailable, Trino, catalog_files
from tests.integration.helpers import gluecat, write_project

BUCKET = "lake"
REGION = "us-east-1"

# A project that uses every feature a Trino catalog file depends on: its `spark-conf --format trino`
# output is what Trino starts with, and every test checks that its own project asks for no more.
FEATURES = {
    "features/database.yaml": "location: s3://lake/features/\n",
    "features/tables/hive.yaml": "storage: parquet\ncolumns: [{name: id, type: bigint}]\n",
    "features/tables/iceberg.yaml": "format: iceberg\ncolumns: [{name: id, type: bigint}]\n",
    "features/tables/delta.yaml": "format: delta\ncolumns: [{name: id, type: bigint}]\n",
    "features/tables/athena_view.yaml": (
        "format: view\ndialect: athena\nsql: SELECT 1 AS id\ncolumns: [{name: id, type: int}]\n"
    ),
    "features/tables/spark_view.yaml": (
        "format: view\ndialect: spark\nsql: SELECT 1 AS id\ncolumns: [{name: id, type: int}]\n"
    ),
    "features/tables/projected.yaml": """\
storage: parquet
columns: [{name: id, type: bigint}]
partition_keys: [{name: dt, type: string}]
projection:
  keys:
    dt: {type: date, range: ["2024-01-01", "2024-01-02"], format: "yyyy-MM-dd"}
""",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/engines/" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.engines)


@pytest.fixture(scope="session")
def engines_glue() -> Iterator[LocalGlue]:
    with LocalGlue(StrictOptions()) as server:
        boto3.client("s3", endpoint_url=server.endpoint_url, region_name=REGION).create_bucket(Bucket=BUCKET)
        yield server


def trino_catalogs(root: Path, endpoint: str) -> dict[str, str]:
    printed = gluecat("spark-conf", str(root), "--format", "trino", "--endpoint", endpoint)
    assert printed.exit_code == 0, printed.output
    return catalog_files(printed.stdout)


@pytest.fixture(scope="session")
def trino(engines_glue: LocalGlue, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Trino]:
    workdir = tmp_path_factory.mktemp("trino")
    features = write_project(workdir / "features", engines_glue.endpoint_url, FEATURES)
    # The only additions: credentials, from the environment as on any machine (the local S3 takes any).
    credentials = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_REGION": REGION}
    server = Trino(workdir, trino_catalogs(features, engines_glue.endpoint_url), credentials)
    try:
        server.start()
    except EngineUnavailable as exc:
        server.stop()
        pytest.fail(str(exc), pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def lake(engines_glue: LocalGlue, trino: Trino, tmp_path: Path) -> Lake:
    return Lake(engines_glue, trino, tmp_path)


@pytest.fixture(scope="module")
def module_lake(engines_glue: LocalGlue, trino: Trino, tmp_path_factory: pytest.TempPathFactory) -> Lake:
    """One project for a module whose tests read tables applied once."""
    return Lake(engines_glue, trino, tmp_path_factory.mktemp("lake"))


class Lake:
    """A test's own project in the shared Glue, and what the engines read of it."""

    def __init__(self, glue: LocalGlue, trino: Trino, tmp: Path) -> None:
        self.glue = glue
        self.trino = trino
        self.tmp = tmp
        self.s3 = boto3.client("s3", endpoint_url=glue.endpoint_url, region_name=REGION)
        self.glue_client = boto3.client("glue", endpoint_url=glue.endpoint_url, region_name=REGION)
        self.root = tmp / "catalog"

    def project(self, files: dict[str, str], catalog_extra: str = "") -> Path:
        write_project(self.root, self.glue.endpoint_url, files, catalog_extra)
        return self.root

    def apply(self) -> str:
        applied = gluecat("apply", str(self.root), "--auto-approve")
        assert applied.exit_code == 0, applied.output
        self.assert_trino_configured_as_printed()
        return applied.output

    def plan_exit_code(self) -> int:
        return gluecat("plan", str(self.root), "--detailed-exitcode").exit_code

    def assert_trino_configured_as_printed(self) -> None:
        """Trino runs with every line this project's spark-conf prints, in the file it names: its
        catalogs came from a project that uses every feature, so they may hold more, never other."""
        for name, text in trino_catalogs(self.root, self.glue.endpoint_url).items():
            running = set(self.trino.catalogs.get(name, "").splitlines())
            missing = [line for line in text.splitlines() if line and line not in running]
            assert not missing, f"Trino's {name}.properties lacks what spark-conf printed: {missing}"

    def put(self, key: str, body: bytes) -> None:
        self.s3.put_object(Bucket=BUCKET, Key=key, Body=body)

    def query(self, sql: str) -> list[list[object]]:
        return self.trino.query(sql)
