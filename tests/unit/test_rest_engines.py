"""spark-conf for an Iceberg REST catalog (`backend: iceberg-rest`), offline: Spark's Iceberg catalog
with type=rest and Trino's iceberg.catalog.type=rest, each auth kind, and no secret in clear. The
engines test (tests/engines/test_trino_on_rest.py) runs Trino with what this prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gluecat.cli import app
from tests.unit.test_validate import make_project

URI = "https://catalog.example.com/api/catalog"
ORDERS = "format: iceberg\ncolumns:\n  - {name: id, type: bigint}\n"
AUTHS = {
    "none": "",
    "bearer": "rest_auth: {type: bearer, token: '${env.REST_TOKEN}'}\n",
    "oauth2": "rest_auth: {type: oauth2, client_id: etl, client_secret: '${env.REST_SECRET}', scope: 'PRINCIPAL_ROLE:ALL'}\n",
    "sigv4": "rest_auth: {type: sigv4, signing_name: s3tables, region: us-west-2}\n",
}


def _project(tmp_path: Path, auth: str, nested: bool = False) -> Path:
    catalog = (
        f"region: eu-west-1\nendpoint_url: http://127.0.0.1:9000\nbackend: iceberg-rest\nrest_uri: {URI}\n"
        f"rest_warehouse: analytics\n{AUTHS[auth]}"
    )
    files = {"catalog.yaml": catalog, "sales/tables/orders.yaml": ORDERS}
    if nested:
        files |= {"sales.eu/database.yaml": "location: s3://lake/sales/eu/\n", "sales.eu/tables/eu.yaml": ORDERS}
    return make_project(tmp_path, files)


def _run(root: Path, *args: str) -> str:
    result = CliRunner().invoke(app, ["spark-conf", str(root), *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_spark_reaches_the_rest_catalog_and_its_files(tmp_path: Path) -> None:
    conf = json.loads(_run(_project(tmp_path, "none"), "--format", "json"))
    prefix = "spark.sql.catalog.glue"
    assert conf[prefix] == "org.apache.iceberg.spark.SparkCatalog"
    assert conf[f"{prefix}.type"] == "rest"
    assert conf[f"{prefix}.uri"] == URI
    assert conf[f"{prefix}.warehouse"] == "analytics"  # the catalog's warehouse name, not the S3 root
    assert conf[f"{prefix}.io-impl"] == "org.apache.iceberg.aws.s3.S3FileIO"
    assert conf[f"{prefix}.s3.endpoint"] == "http://127.0.0.1:9000"
    assert "org.apache.iceberg:iceberg-aws-bundle:1.10.0" in conf["spark.jars.packages"]
    assert not [key for key in conf if "glue." in key.removeprefix(prefix + ".") or "hive" in key]
    assert not [key for key in conf if "access" in key and "key" in key], "S3 keys come from the AWS chain"


def test_trino_reaches_the_rest_catalog_through_native_s3(tmp_path: Path) -> None:
    printed = _run(_project(tmp_path, "none"), "--format", "trino")
    assert printed.splitlines() == [
        "# etc/catalog/iceberg.properties",
        "connector.name=iceberg",
        "iceberg.catalog.type=rest",
        f"iceberg.rest-catalog.uri={URI}",
        "iceberg.rest-catalog.warehouse=analytics",
        "fs.native-s3.enabled=true",
        "s3.region=eu-west-1",
        "s3.endpoint=http://127.0.0.1:9000",
        "s3.path-style-access=true",
    ]


def test_trino_reads_nested_namespaces_when_the_project_has_them(tmp_path: Path) -> None:
    printed = _run(_project(tmp_path, "none", nested=True), "--format", "trino")
    assert "iceberg.rest-catalog.nested-namespace-enabled=true" in printed.splitlines()


@pytest.mark.parametrize(
    ("auth", "trino", "spark"),
    [
        ("bearer", ["iceberg.rest-catalog.security=OAUTH2", "iceberg.rest-catalog.oauth2.token=${ENV:REST_TOKEN}"],
         {"token": "(sensitive)"}),
        ("oauth2", ["iceberg.rest-catalog.security=OAUTH2",
                    "iceberg.rest-catalog.oauth2.credential=etl:${ENV:REST_SECRET}",
                    f"iceberg.rest-catalog.oauth2.server-uri={URI}/v1/oauth/tokens",
                    "iceberg.rest-catalog.oauth2.scope=PRINCIPAL_ROLE:ALL"],
         {"credential": "(sensitive)", "oauth2-server-uri": f"{URI}/v1/oauth/tokens", "scope": "PRINCIPAL_ROLE:ALL"}),
        ("sigv4", ["iceberg.rest-catalog.sigv4-enabled=true", "iceberg.rest-catalog.signing-name=s3tables",
                   "s3.region=us-west-2"],
         {"rest.sigv4-enabled": "true", "rest.signing-name": "s3tables", "rest.signing-region": "us-west-2"}),
    ],
)  # fmt: skip
def test_each_auth_kind_without_a_secret_in_clear(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, auth: str, trino: list[str], spark: dict[str, str]
) -> None:
    root = _project(tmp_path, auth)
    printed = _run(root, "--format", "trino")  # Trino's files name the variable: none need be set
    lines = printed.splitlines()
    assert all(line in lines for line in trino), printed

    monkeypatch.setenv("REST_TOKEN", "tok-0123456789")
    monkeypatch.setenv("REST_SECRET", "sec-0123456789")
    conf = json.loads(_run(root, "--format", "json"))
    assert {key: conf[f"spark.sql.catalog.glue.{key}"] for key in spark} == spark
    assert "0123456789" not in json.dumps(conf)
    shown = json.loads(_run(root, "--format", "json", "--show-secrets"))
    if auth == "oauth2":
        assert shown["spark.sql.catalog.glue.credential"] == "etl:sec-0123456789"


def test_spark_without_the_secret_in_the_environment_is_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["spark-conf", str(_project(tmp_path, "oauth2"))])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "REST_SECRET is not set" in lines[0], result.output
