"""spark-conf output: golden files per format, the same settings in every format, versions."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gluecat.cli import app
from gluecat.project.load import load_project
from gluecat.spark.render import GLUE_JOB_DROPS, RENDERERS
from gluecat.spark.settings import spark_settings

EXAMPLE = Path(__file__).parents[2] / "catalogs" / "example"
GOLDEN = Path(__file__).parents[1] / "golden" / "spark"
FORMATS = ["conf", "json", "pyspark", "emr", "glue-job", "trino", "ddl"]


@pytest.mark.parametrize("output_format", FORMATS)
def test_golden(output_format: str) -> None:
    result = CliRunner().invoke(app, ["spark-conf", str(EXAMPLE), "--format", output_format])
    assert result.exit_code == 0, result.output
    golden = GOLDEN / f"example.{output_format}"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(result.stdout)
    assert result.stdout == golden.read_text(), f"run with UPDATE_GOLDEN=1 to accept a deliberate change to {golden}"


def test_every_format_carries_the_same_settings() -> None:
    settings = spark_settings(load_project(EXAMPLE), endpoint_url="http://127.0.0.1:5454")
    expected = settings.conf
    conf_lines = [line.split(None, 1) for line in RENDERERS["conf"](settings).splitlines() if not line.startswith("#")]
    assert {k: v.strip() for k, v in conf_lines} == expected
    assert json.loads(RENDERERS["json"](settings)) == expected
    snippet = RENDERERS["pyspark"](settings)
    pairs = [line.strip()[len(".config(") : -1] for line in snippet.splitlines() if line.strip().startswith(".config(")]
    assert {json.loads(f"[{p}]")[0]: json.loads(f"[{p}]")[1] for p in pairs} == expected
    emr = json.loads(RENDERERS["emr"](settings))
    merged = dict(emr[0]["Properties"])
    merged.update({f"spark.hadoop.{k}": v for k, v in emr[1]["Properties"].items()})
    assert merged == expected
    job = json.loads(RENDERERS["glue-job"](settings))
    words = shlex.split("--conf " + job["--conf"])
    from_job = dict(word.split("=", 1) for word in words if word != "--conf")
    assert from_job == {k: v for k, v in expected.items() if k not in GLUE_JOB_DROPS}
    assert job["--datalake-formats"] == "iceberg,delta"


def test_only_what_the_tables_need(tmp_path: Path) -> None:
    (tmp_path / "catalog.yaml").write_text("region: eu-west-1\ncatalog_id: '123456789012'\n")
    (tmp_path / "db" / "tables").mkdir(parents=True)
    (tmp_path / "db" / "database.yaml").write_text("location: s3://b/db/\n")
    (tmp_path / "db" / "tables" / "t.yaml").write_text("storage: parquet\n")
    conf = spark_settings(load_project(tmp_path)).conf
    assert conf["spark.hadoop.hive.metastore.glue.catalogid"] == "123456789012"
    assert conf["spark.hadoop.aws.region"] == "eu-west-1"
    assert not any("iceberg" in k or "delta" in v for k, v in conf.items())
    assert "spark.sql.extensions" not in conf and "spark.jars.packages" not in conf

    (tmp_path / "db" / "tables" / "i.yaml").write_text("format: iceberg\ncolumns: [{name: a, type: int}]\n")
    conf = spark_settings(load_project(tmp_path)).conf
    assert conf["spark.sql.catalog.glue.glue.id"] == "123456789012"
    assert conf["spark.sql.catalog.glue.client.region"] == "eu-west-1"
    assert conf["spark.sql.catalog.glue.warehouse"] == "s3://b/db/"
    assert conf["spark.sql.extensions"] == "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions"


@pytest.mark.parametrize(
    ("version", "iceberg", "delta"),
    [
        ("3.4", "iceberg-spark-runtime-3.4_2.12:1.9.2", "io.delta:delta-core_2.12:2.4.0"),
        ("3.5", "iceberg-spark-runtime-3.5_2.12:1.10.0", "io.delta:delta-spark_2.12:3.3.2"),
        ("4.0", "iceberg-spark-runtime-4.0_2.13:1.10.0", "io.delta:delta-spark_2.13:4.0.0"),
        ("3.5.3", "iceberg-spark-runtime-3.5_2.12:1.10.0", "io.delta:delta-spark_2.12:3.3.2"),
    ],
)
def test_packages_match_the_spark_version(version: str, iceberg: str, delta: str) -> None:
    packages = spark_settings(load_project(EXAMPLE), spark_version=version).conf["spark.jars.packages"]
    assert f"org.apache.iceberg:{iceberg}" in packages and delta in packages


def test_packages_can_be_overridden_and_unknown_versions_refused() -> None:
    conf = spark_settings(load_project(EXAMPLE), packages=["a:b:1"]).conf
    assert conf["spark.jars.packages"] == "a:b:1"
    result = CliRunner().invoke(app, ["spark-conf", str(EXAMPLE), "--spark-version", "2.4"])
    assert result.exit_code == 1 and "gluecat knows 3.4, 3.5, 4.0" in result.output
