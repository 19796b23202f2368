"""One local Glue + S3, one Trino and one Spark for the whole engines session, each configured by
what `gluecat spark-conf` prints, used as it is.

Trino's catalogs are the files `spark-conf --format trino` prints. Spark's session is built by
running the `--format pyspark` script itself; the default format is checked to carry exactly the
same settings. Spark resolves `spark.jars.packages` from Maven Central with its own Ivy (cached in
~/.ivy2 between runs).

What this machine adds, and no user writes (TEST_MACHINE, set as spark-defaults that the emitted
settings override): a local master, the driver bound to loopback, no UI, two shuffle partitions,
and Derby's metastore and log in the session's folder. Credentials come from the environment, as
on any machine (the local S3 takes any). Spark reaches Glue's Hive tables only through EMR's
AWS-only Hive client, so Spark's own Hive catalog stands in for them here (tables created with
`spark-conf --format ddl`): the emitted client factory setting is kept, and ignored by open-source
Spark.

Every engines test writes its own databases (named after the test) into the shared Glue, applies
them with gluecat, and reads them back through the engines. An engine that cannot be fetched or
started fails the session with one line saying what, never a skip.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest

from gluecat.sandbox.server import LocalGlue
from gluecat.sandbox.strict import StrictOptions
from tests.engines.trino_server import EngineUnavailable, Trino, catalog_files
from tests.integration.helpers import gluecat, write_project

BUCKET = "lake"
WAREHOUSE = "warehouse: s3://lake/warehouse\n"  # catalog.yaml: where engines create Iceberg tables
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
    features = write_project(workdir / "features", engines_glue.endpoint_url, FEATURES, WAREHOUSE)
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

    def delta_options(self) -> dict[str, str]:
        """deltalake's storage options for the local S3."""
        return {
            "AWS_ENDPOINT_URL": self.glue.endpoint_url,
            "AWS_ALLOW_HTTP": "true",
            "AWS_REGION": REGION,
            "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing",
        }

    def put(self, key: str, body: bytes) -> None:
        self.s3.put_object(Bucket=BUCKET, Key=key, Body=body)

    def query(self, sql: str) -> list[list[object]]:
        return self.trino.query(sql)


def test_machine(tmp: Path) -> dict[str, str]:
    return {
        "spark.master": "local[2]",
        "spark.driver.host": "127.0.0.1",
        "spark.ui.enabled": "false",
        "spark.sql.shuffle.partitions": "2",
        "spark.sql.warehouse.dir": str(tmp / "spark-warehouse"),
        "spark.hadoop.javax.jdo.option.ConnectionURL": f"jdbc:derby:;databaseName={tmp}/metastore_db;create=true",
        "spark.driver.extraJavaOptions": f"-Dderby.stream.error.file={tmp}/derby.log",
    }


def parse_conf(text: str) -> dict[str, str]:
    pairs = (line.split(None, 1) for line in text.splitlines() if line.strip() and not line.startswith("#"))
    return {key: value.strip() for key, value in pairs}


def pyspark_settings(script: str) -> dict[str, str]:
    """The settings a `--format pyspark` script passes to the builder, read by running it against a
    recording builder: the same text that builds the real session below."""
    recorded: dict[str, str] = {}

    class Builder:
        def config(self, key: str, value: str) -> Builder:
            recorded[key] = value
            return self

        def getOrCreate(self) -> None:
            return None

    class Session:
        builder = Builder()

    exec(script.replace("from pyspark.sql import SparkSession", ""), {"SparkSession": Session})
    return recorded


@pytest.fixture(scope="session")
def spark(engines_glue: LocalGlue, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    tmp = tmp_path_factory.mktemp("spark")
    root = write_project(tmp / "features", engines_glue.endpoint_url, FEATURES, WAREHOUSE)
    endpoint = engines_glue.endpoint_url
    script = gluecat("spark-conf", str(root), "--format", "pyspark", "--endpoint", endpoint)
    conf = gluecat("spark-conf", str(root), "--endpoint", endpoint)
    assert script.exit_code == 0 and conf.exit_code == 0, script.output + conf.output
    assert pyspark_settings(script.stdout) == parse_conf(conf.stdout), "the two formats must say the same"

    conf_dir = tmp / "conf"
    conf_dir.mkdir()
    (conf_dir / "spark-defaults.conf").write_text("".join(f"{k} {v}\n" for k, v in test_machine(tmp).items()))
    os.environ["SPARK_CONF_DIR"] = str(conf_dir)
    scope: dict[str, Any] = {}
    exec(script.stdout, scope)  # the emitted script, verbatim, builds the session
    session = scope["spark"]
    try:
        yield session
    finally:
        session.stop()
        os.environ.pop("SPARK_CONF_DIR", None)
