"""Real PySpark 3.5, offline, configured by `gluecat spark-conf`, against the local Glue + S3.

No Maven here, so `spark.jars.packages` cannot resolve: the test puts jars that
ship on PyPI on `spark.jars` instead. The Iceberg runtime in
sagemaker-feature-store-pyspark is relocated under `smfs.shaded.`, so the test
maps the emitted class names to that prefix (the emitted config itself keeps
the standard names, which golden tests check).
"""

from __future__ import annotations

import importlib.util
import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

pytestmark = pytest.mark.spark

SHADED = "smfs.shaded."
EVENTS = """\
format: iceberg
columns:
  - {name: id, type: bigint, required: true}
  - {name: kind, type: string}
properties: {format-version: 2}
"""
ORDERS = """\
storage: parquet
columns:
  - {name: order_id, type: bigint}
  - {name: amount, type: double}
partition_keys: [{name: dt, type: string}]
partitions:
  - expand:
      dt: {from: 2024-01-01, to: 2024-01-02}
"""
CUSTOMERS = """\
storage: csv
columns:
  - {name: id, type: bigint}
  - {name: email, type: string}
"""


def _package_dir(name: str) -> Path:
    """Where a package is installed, without importing it (these pull in pyspark.ml)."""
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None, f"{name} is not installed (see .ci/run)"
    return Path(spec.origin).parent


def _jars() -> list[str]:
    iceberg = _package_dir("feature_store_pyspark") / "jars" / "sagemaker-feature-store-spark-sdk-3.5.jar"
    hadoop = _package_dir("sagemaker_pyspark") / "jars"
    return [str(iceberg), str(hadoop / "hadoop-aws-3.3.1.jar"), str(hadoop / "aws-java-sdk-bundle-1.11.901.jar")]


def _parse_conf(text: str) -> dict[str, str]:
    pairs = (line.split(None, 1) for line in text.splitlines() if line.strip() and not line.startswith("#"))
    return {key: value.strip() for key, value in pairs}


def _shaded(conf: dict[str, str]) -> dict[str, str]:
    def shade(value: str) -> str:
        return ",".join(SHADED + v if v.startswith("org.apache.iceberg.") else v for v in value.split(","))

    return {key: shade(value) for key, value in conf.items()}


@pytest.fixture(scope="module")
def spark_world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """One moto server, one applied catalog and one Spark session for the module (Spark is a singleton)."""
    tmp = tmp_path_factory.mktemp("spark")
    with LocalGlue() as server:
        boto3.client("s3", endpoint_url=server.endpoint_url, region_name="us-east-1").create_bucket(Bucket="lake")
        root = write_project(
            tmp / "catalog",
            server.endpoint_url,
            {
                "lake/database.yaml": "location: s3://lake/lake.db/\n",
                "lake/tables/events.yaml": EVENTS,
                "web/database.yaml": "location: s3://lake/web/\n",
                "web/tables/orders.yaml": ORDERS,
                "web/tables/customers.yaml": CUSTOMERS,
            },
            catalog_extra="warehouse: s3://lake/warehouse\n",
        )
        applied = gluecat("apply", str(root), "--auto-approve")
        assert applied.exit_code == 0, applied.output
        emitted = gluecat("spark-conf", str(root), "--endpoint", server.endpoint_url)
        assert emitted.exit_code == 0, emitted.output
        conf = _shaded(_parse_conf(emitted.stdout))
        conf.pop("spark.jars.packages")  # no Maven: the jars below stand in for them
        # Spark's own Hive catalog (Derby) stands in for the Glue Hive client, which exists only on EMR/Glue.
        conf.pop("spark.hadoop.hive.metastore.client.factory.class")
        conf.update(
            {
                "spark.jars": ",".join(_jars()),
                "spark.master": "local[2]",
                "spark.driver.host": "127.0.0.1",
                "spark.ui.enabled": "false",
                "spark.sql.shuffle.partitions": "2",
                "spark.sql.warehouse.dir": str(tmp / "spark-warehouse"),
                "spark.hadoop.javax.jdo.option.ConnectionURL": f"jdbc:derby:;databaseName={tmp}/metastore_db;create=true",
                "spark.hadoop.fs.s3a.access.key": "testing",
                "spark.hadoop.fs.s3a.secret.key": "testing",
                # Derby writes derby.log into the working directory unless told otherwise.
                "spark.driver.extraJavaOptions": f"-Dderby.stream.error.file={tmp}/derby.log",
            }
        )
        conf_dir = tmp / "conf"
        conf_dir.mkdir()
        (conf_dir / "spark-defaults.conf").write_text("".join(f"{k} {v}\n" for k, v in conf.items()))
        os.environ.update(SPARK_CONF_DIR=str(conf_dir), AWS_REGION="us-east-1")
        from pyspark.sql import SparkSession

        spark = SparkSession.builder.enableHiveSupport().getOrCreate()
        try:
            yield {"spark": spark, "root": root, "server": server, "conf": conf}
        finally:
            spark.stop()
            os.environ.pop("SPARK_CONF_DIR", None)


def test_spark_reads_and_appends_iceberg_tables_gluecat_made(spark_world: dict[str, Any]) -> None:
    spark, root = spark_world["spark"], spark_world["root"]
    tables = [row.tableName for row in spark.sql("SHOW TABLES IN glue.lake").collect()]
    assert "events" in tables
    spark.sql("INSERT INTO glue.lake.events VALUES (1, 'click'), (2, 'view')")
    spark.sql("INSERT INTO glue.lake.events VALUES (3, 'click')")
    assert spark.sql("SELECT count(*) AS n FROM glue.lake.events").collect()[0].n == 3
    assert sorted(r.kind for r in spark.sql("SELECT kind FROM glue.lake.events WHERE id < 3").collect()) == [
        "click",
        "view",
    ]
    planned = gluecat("plan", str(root), "--detailed-exitcode")
    assert planned.exit_code == 0, planned.output


def test_hive_ddl_runs_in_spark_and_reads_the_partitions(spark_world: dict[str, Any]) -> None:
    spark, root, server = spark_world["spark"], spark_world["root"], spark_world["server"]
    s3 = boto3.client("s3", endpoint_url=server.endpoint_url, region_name="us-east-1")
    for dt, amounts in (("2024-01-01", [1.5, 2.5]), ("2024-01-02", [4.0])):
        buffer = io.BytesIO()
        pq.write_table(pa.table({"order_id": list(range(len(amounts))), "amount": amounts}), buffer)
        s3.put_object(Bucket="lake", Key=f"web/orders/dt={dt}/part-0.parquet", Body=buffer.getvalue())
    s3.put_object(Bucket="lake", Key="web/customers/part-0.csv", Body=b"1,a@x.org\n2,b@x.org\n")

    ddl = gluecat("spark-conf", str(root), "--format", "ddl")
    assert ddl.exit_code == 0, ddl.output
    statements = [s.strip() for s in ddl.stdout.split(";\n") if s.strip()]
    assert any("PARTITIONED BY (`dt` string)" in s for s in statements)
    for statement in statements:
        spark.sql(statement.rstrip(";"))

    rows = spark.sql("SELECT dt, sum(amount) AS total FROM web.orders GROUP BY dt ORDER BY dt").collect()
    assert [(r.dt, r.total) for r in rows] == [("2024-01-01", 4.0), ("2024-01-02", 4.0)]
    emails = sorted(r.email for r in spark.sql("SELECT email FROM web.customers").collect())
    assert emails == ["a@x.org", "b@x.org"]
