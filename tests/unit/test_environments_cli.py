"""Commands in an environment, offline: spark-conf uses its connection settings, validate names missing secrets."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from gluecat.cli import app

CATALOG = """\
region: us-east-1
environments:
  dev:  {catalog_id: "111111111111", endpoint_url: "http://127.0.0.1:9", vars: {lake: dev-lake}}
  prod: {region: eu-west-1, catalog_id: "222222222222", vars: {lake: prod-lake}}
"""
EVENTS = """\
format: iceberg
location: s3://${var.lake}/warehouse/events
columns:
  - {name: id, type: bigint}
properties: {api.token: "${env.GC_CLI_TEST_TOKEN}"}
"""


def _project(root: Path) -> Path:
    (root / "lake/tables").mkdir(parents=True)
    (root / "catalog.yaml").write_text(CATALOG)
    (root / "lake/database.yaml").write_text("location: s3://${var.lake}/warehouse/\n")
    (root / "lake/tables/events.yaml").write_text(EVENTS)
    return root


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_spark_conf_uses_the_environments_connection_settings(tmp_path: Path) -> None:
    root = _project(tmp_path)
    code, output = _run("spark-conf", str(root), "--env", "prod", "--format", "json")
    assert code == 0, output
    conf = json.loads(output)
    assert conf["spark.sql.catalog.glue.glue.id"] == "222222222222"
    assert conf["spark.sql.catalog.glue.client.region"] == "eu-west-1"
    assert "endpoint" not in " ".join(conf)
    _, dev = _run("spark-conf", str(root), "--env", "dev", "--format", "json")
    assert json.loads(dev)["spark.sql.catalog.glue.glue.id"] == "111111111111"
    assert "http://127.0.0.1:9" in dev


def test_validate_runs_without_secrets_and_names_them(tmp_path: Path) -> None:
    code, output = _run("validate", str(_project(tmp_path)), "--env", "dev")
    assert code == 0, output
    assert "environment variable GC_CLI_TEST_TOKEN is not set" in output and "validated without its value" in output


def test_a_command_without_env_lists_the_environments(tmp_path: Path) -> None:
    code, output = _run("validate", str(_project(tmp_path)))
    assert code == 1
    assert "declares environments (dev, prod): choose one with --env NAME or GLUECAT_ENV, or set default_env" in output
