"""Spark 3.5 on an Iceberg REST catalog (Apache Iceberg's own server behind the tests' OAuth2 proxy,
files on the local S3), built by running the script `gluecat spark-conf --format pyspark` prints,
as it is: it reads a row pyiceberg appended to a table gluecat applied and INSERTs into it, through
the token its OAuth2 settings obtain; gluecat's plan stays clean after Spark's commit.

Spark runs in a process of its own (the engines session's Spark reads the local Glue, and a
process holds one Spark), with the test machine's spark-defaults (tests/engines/conftest.py) and
AWS credentials in its environment, read through the AWS chain (the local S3 takes any)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest
from pyiceberg.catalog.rest import RestCatalog

from tests.engines import conftest as engines
from tests.integration.helpers import gluecat, write_project
from tests.metastores.fixtures import LocalS3
from tests.rest.auth_proxy import Expected, auth_proxy
from tests.rest.rest_server import RestCatalogServer

pytestmark = pytest.mark.spark

REGION = "us-east-1"
NAMESPACE = "spark_rest"
SECRET = "spark-client-secret"
CATALOG = """\
backend: iceberg-rest
rest_auth: {type: oauth2, client_id: spark, client_secret: '${env.REST_SPARK_SECRET}'}
spark: {catalog_name: lake}
"""
EVENTS = """\
format: iceberg
columns:
  - {name: id, type: bigint}
  - {name: kind, type: string}
partition_spec:
  - {column: kind}
"""
ASK = f"""
import json
spark.sql("INSERT INTO lake.{NAMESPACE}.events VALUES (2, 'view')")
rows = spark.sql("SELECT id, kind FROM lake.{NAMESPACE}.events ORDER BY id").collect()
print("ROWS " + json.dumps([list(row) for row in rows]))
spark.stop()
"""


def test_spark_reads_and_writes_a_table_gluecat_applied_through_oauth2(
    tmp_path: Path, rest_catalog: RestCatalogServer, rest_s3: LocalS3, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REST_SPARK_SECRET", SECRET)
    with auth_proxy(rest_catalog.uri, Expected("oauth2", "spark", SECRET)) as (uri, seen):
        files = {
            f"{NAMESPACE}/database.yaml": f"location: s3://{rest_s3.bucket}/{NAMESPACE}/\n",
            f"{NAMESPACE}/tables/events.yaml": EVENTS,
        }
        root = write_project(tmp_path / "catalog", rest_s3.endpoint, files, f"rest_uri: {uri}\n{CATALOG}")
        applied = gluecat("apply", str(root), "--auto-approve")
        assert applied.exit_code == 0, applied.output
        writer = RestCatalog(
            "writer", uri=rest_catalog.uri,
            **{"s3.endpoint": rest_s3.endpoint, "s3.access-key-id": rest_s3.access_key,
               "s3.secret-access-key": rest_s3.secret_key, "s3.region": REGION},
        )  # fmt: skip
        rows = pa.table({"id": [1], "kind": ["click"]}, schema=pa.schema([("id", pa.int64()), ("kind", pa.string())]))
        writer.load_table((NAMESPACE, "events")).append(rows)

        printed = gluecat("spark-conf", str(root), "--format", "pyspark", "--show-secrets")
        assert printed.exit_code == 0, printed.output
        assert '"spark.sql.catalog.lake.type", "rest"' in printed.stdout
        conf_dir = tmp_path / "conf"
        conf_dir.mkdir()
        defaults = "".join(f"{key} {value}\n" for key, value in engines.test_machine(tmp_path).items())
        (conf_dir / "spark-defaults.conf").write_text(defaults)
        environment = {
            **os.environ, "SPARK_CONF_DIR": str(conf_dir), "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing", "AWS_REGION": REGION,
        }  # fmt: skip
        ran = subprocess.run(
            [sys.executable, "-c", printed.stdout + ASK], capture_output=True, text=True, env=environment,
            timeout=900, check=False,
        )  # fmt: skip
        assert ran.returncode == 0, ran.stderr[-3000:]

        answer = [line for line in ran.stdout.splitlines() if line.startswith("ROWS ")]
        assert answer and json.loads(answer[0].removeprefix("ROWS ")) == [[1, "click"], [2, "view"]], ran.stdout
        assert len(writer.load_table((NAMESPACE, "events")).scan().to_arrow()) == 2
        replanned = gluecat("plan", str(root), "--detailed-exitcode")
        assert replanned.exit_code == 0, replanned.output
    assert not [line for line in seen if not line.startswith("200")], "every request carried the issued token"
    assert any(line.startswith(f"200 POST /v1/namespaces/{NAMESPACE}/tables/events") for line in seen), seen
