"""One definition, two environments on two Glue endpoints; secrets from the environment; import in an environment."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest

from gluecat.sandbox.server import LocalGlue
from gluecat.sandbox.strict import StrictOptions
from tests.integration.helpers import gluecat

SECRET = "pw-9f1c2e7a-never-shown"
API_KEY = "key-4b8d0c3e-never-shown"

CATALOG = """\
region: us-east-1
vars: {{team: commerce}}
environments:
  dev:  {{endpoint_url: "{dev}", vars: {{lake: dev-lake}}}}
  prod: {{endpoint_url: "{prod}", vars: {{lake: prod-lake}}}}
"""
DATABASE = """\
location: s3://${var.lake}/sales/
parameters: {owner_team: "${var.team}"}
"""
ORDERS = """\
storage: parquet
columns:
  - {name: order_id, type: bigint}
partition_keys:
  - {name: dt, type: string}
partitions:
  - expand:
      dt: {from: 2024-01-01, to: 2024-01-03}
"""
CUSTOMERS = """\
description: Customers of ${var.team}, literal $${var.not_a_reference}
location: s3://${var.lake}/sales/customers_v2
storage: csv
columns:
  - {name: id, type: bigint}
"""
EVENTS = """\
format: iceberg
location: s3://${var.lake}/warehouse/events
columns:
  - {name: id, type: bigint, required: true}
"""
VAULT = """\
storage: csv
columns:
  - {name: id, type: bigint}
parameters:
  jdbc.password: "${env.DB_PASSWORD}"
  api_key: "prefix-${env.API_KEY}"
"""


@pytest.fixture(scope="module")
def prod_glue() -> Iterator[LocalGlue]:
    """A second strict Glue + S3: the prod account, next to the shared server as dev."""
    with LocalGlue(StrictOptions()) as server:
        yield server


@pytest.fixture
def endpoints(server: LocalGlue, prod_glue: LocalGlue) -> dict[str, LocalGlue]:
    prod_glue.reset()
    for name, glue in (("dev", server), ("prod", prod_glue)):
        _client("s3", glue).create_bucket(Bucket=f"{name}-lake")
    return {"dev": server, "prod": prod_glue}


def _client(service: str, glue: LocalGlue) -> Any:
    return boto3.client(service, endpoint_url=glue.endpoint_url, region_name="us-east-1")  # type: ignore[call-overload]


def _project(root: Path, endpoints: dict[str, LocalGlue], **tables: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    urls = {name: glue.endpoint_url for name, glue in endpoints.items()}
    (root / "catalog.yaml").write_text(CATALOG.format(**urls))
    (root / "sales/tables").mkdir(parents=True)
    (root / "sales/database.yaml").write_text(DATABASE)
    for name, text in tables.items():
        (root / f"sales/tables/{name}.yaml").write_text(textwrap.dedent(text))
    return root


def _locations(glue: LocalGlue) -> list[str]:
    raw = _client("glue", glue)
    found = [raw.get_database(Name="sales")["Database"]["LocationUri"]]
    for table in raw.get_tables(DatabaseName="sales")["TableList"]:
        found.append(table["StorageDescriptor"]["Location"])
        for partition in raw.get_partitions(DatabaseName="sales", TableName=table["Name"])["Partitions"]:
            found.append(partition["StorageDescriptor"]["Location"])
    return found


def test_one_definition_applies_to_each_environment_with_its_own_values(
    tmp_path: Path, endpoints: dict[str, LocalGlue], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path / "catalog", endpoints, orders=ORDERS, customers=CUSTOMERS, events=EVENTS)
    assert gluecat("apply", str(root), "--env", "dev", "--auto-approve").exit_code == 0
    monkeypatch.setenv("GLUECAT_ENV", "prod")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0

    for name, glue in endpoints.items():
        locations = _locations(glue)
        assert len(locations) == 1 + 3 + 3  # the database, three tables, three partitions
        assert all(location.startswith(f"s3://{name}-lake/sales/") or location.startswith(f"s3://{name}-lake/warehouse/")
                   for location in locations), locations  # fmt: skip
        raw = _client("glue", glue)
        assert raw.get_database(Name="sales")["Database"]["Parameters"] == {"owner_team": "commerce"}
        customers = raw.get_table(DatabaseName="sales", Name="customers")["Table"]
        assert customers["Description"] == "Customers of commerce, literal ${var.not_a_reference}"
        metadata = raw.get_table(DatabaseName="sales", Name="events")["Table"]["Parameters"]["metadata_location"]
        assert metadata.startswith(f"s3://{name}-lake/warehouse/events/metadata/")

    for env in ("dev", "prod"):
        assert gluecat("plan", str(root), "--env", env, "--detailed-exitcode").exit_code == 0, env


def test_without_env_a_catalog_with_environments_lists_them(
    tmp_path: Path, endpoints: dict[str, LocalGlue], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GLUECAT_ENV", raising=False)
    root = _project(tmp_path / "catalog", endpoints, orders=ORDERS)
    result = gluecat("plan", str(root))
    assert result.exit_code == 1
    assert "declares environments (dev, prod): choose one with --env NAME or GLUECAT_ENV" in result.output
    assert "did you mean 'prod'?" in gluecat("plan", str(root), "--env", "prd").output
    with (root / "catalog.yaml").open("a") as catalog:
        catalog.write("default_env: dev\n")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    assert (
        _client("glue", endpoints["dev"]).get_database(Name="sales")["Database"]["LocationUri"]
        == "s3://dev-lake/sales/"
    )


def test_secrets_reach_glue_and_are_printed_nowhere(
    tmp_path: Path, endpoints: dict[str, LocalGlue], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path / "catalog", endpoints, vault=VAULT)
    monkeypatch.setenv("DB_PASSWORD", SECRET)
    monkeypatch.setenv("API_KEY", API_KEY)
    shown = [
        gluecat("plan", str(root), "--env", "dev", "--format", form).output for form in ("human", "json", "markdown")
    ]
    saved = tmp_path / "plan.json"
    shown.append(gluecat("plan", str(root), "--env", "dev", "--out", str(saved)).output)
    shown.append(saved.read_text())
    applied = gluecat("apply", str(saved))
    assert applied.exit_code == 0, applied.output
    shown.append(applied.output)
    for text in shown:
        assert SECRET not in text and API_KEY not in text
    assert '"api_key": "(sensitive)"' in shown[1]  # a secret-looking key is masked whole in what is printed
    assert "(sensitive:DB_PASSWORD)" in saved.read_text()

    parameters = _client("glue", endpoints["dev"]).get_table(DatabaseName="sales", Name="vault")["Table"]["Parameters"]
    assert parameters["jdbc.password"] == SECRET and parameters["api_key"] == f"prefix-{API_KEY}"
    assert gluecat("plan", str(root), "--env", "dev", "--detailed-exitcode").exit_code == 0


def test_a_saved_plan_needs_its_secrets_at_apply_time(
    tmp_path: Path, endpoints: dict[str, LocalGlue], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path / "catalog", endpoints, vault=VAULT)
    monkeypatch.setenv("DB_PASSWORD", SECRET)
    monkeypatch.setenv("API_KEY", API_KEY)
    saved = tmp_path / "plan.json"
    assert gluecat("plan", str(root), "--env", "prod", "--out", str(saved)).exit_code == 0
    assert json.loads(saved.read_text())["env"] == "prod"
    monkeypatch.delenv("API_KEY")
    refused = gluecat("apply", str(saved))
    assert refused.exit_code == 1 and "environment variable API_KEY is not set" in refused.output
    assert _client("glue", endpoints["prod"]).get_databases()["DatabaseList"] == []


def test_an_unset_secret_and_an_undefined_var_are_errors_where_written(
    tmp_path: Path, endpoints: dict[str, LocalGlue], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DB_PASSWORD", raising=False)
    monkeypatch.setenv("API_KEY", API_KEY)
    root = _project(tmp_path / "catalog", endpoints, vault=VAULT)
    unset = gluecat("plan", str(root), "--env", "dev")
    assert unset.exit_code == 1
    assert "vault.yaml:5:19: environment variable DB_PASSWORD is not set" in unset.output
    validated = gluecat("validate", str(root), "--env", "dev")
    assert validated.exit_code == 0 and "DB_PASSWORD is not set" in validated.output
    assert "validated without its value" in validated.output

    (root / "sales/tables/vault.yaml").write_text("storage: csv\ncolumns:\n  - {name: id, type: bigint}\n"
                                                 "location: s3://${var.lake}/x/${var.bucket_suffix}\n")  # fmt: skip
    undefined = gluecat("plan", str(root), "--env", "dev")
    assert undefined.exit_code == 1
    assert "vault.yaml:4:30: undefined var 'bucket_suffix': add it to vars in catalog.yaml" in undefined.output
    assert _client("glue", endpoints["dev"]).get_databases()["DatabaseList"] == []


def test_import_in_an_environment_writes_references_and_plans_clean(
    tmp_path: Path, endpoints: dict[str, LocalGlue], monkeypatch: pytest.MonkeyPatch
) -> None:
    vault = f"storage: csv\ncolumns:\n  - {{name: id, type: bigint}}\nparameters: {{jdbc.password: {SECRET}, plain: prod-lake}}\n"
    source = _project(tmp_path / "source", endpoints, orders=ORDERS, customers=CUSTOMERS, vault=vault)
    assert gluecat("apply", str(source), "--env", "prod", "--auto-approve").exit_code == 0

    imported = tmp_path / "imported"
    imported.mkdir()
    (imported / "catalog.yaml").write_text((source / "catalog.yaml").read_text())
    result = gluecat("import", str(imported), "--env", "prod", "--partitions")
    assert result.exit_code == 0, result.output
    assert SECRET not in result.output
    assert "SALES_VAULT_JDBC_PASSWORD  (sales.vault parameters.jdbc.password)" in result.output

    texts = {
        p.relative_to(imported).as_posix(): p.read_text() for p in imported.rglob("*.yaml") if p.name != "catalog.yaml"
    }
    assert texts, "import wrote nothing"
    for text in texts.values():
        assert "prod-lake" not in text and SECRET not in text
    assert "location: s3://${var.lake}/sales/" in texts["sales/database.yaml"]
    assert "owner_team: ${var.team}" in texts["sales/database.yaml"]
    assert "$${var.not_a_reference}" in texts["sales/tables/customers.yaml"]
    assert "jdbc.password: ${env.SALES_VAULT_JDBC_PASSWORD}" in texts["sales/tables/vault.yaml"]

    monkeypatch.setenv("SALES_VAULT_JDBC_PASSWORD", SECRET)
    assert gluecat("plan", str(imported), "--env", "prod", "--detailed-exitcode").exit_code == 0
    # The same files, in dev, create dev's objects with dev's values.
    assert gluecat("apply", str(imported), "--env", "dev", "--auto-approve").exit_code == 0
    assert all(location.startswith("s3://dev-lake/") for location in _locations(endpoints["dev"]))


def test_environments_json_is_a_ci_matrix(tmp_path: Path, endpoints: dict[str, LocalGlue]) -> None:
    _project(tmp_path / "catalogs" / "commerce", endpoints, orders=ORDERS)
    (tmp_path / "catalogs" / "plain").mkdir()
    (tmp_path / "catalogs" / "plain" / "catalog.yaml").write_text("region: eu-west-1\nsandbox: true\n")
    listed = gluecat("environments", str(tmp_path / "catalogs"), "--json")
    assert listed.exit_code == 0
    rows = json.loads(listed.stdout)["include"]
    assert [(row["name"], row["env"], row["sandbox"]) for row in rows] == [
        ("commerce/dev", "dev", "false"), ("commerce/prod", "prod", "false"), ("plain", "", "true")]  # fmt: skip
    assert rows[0]["catalog"] == str(tmp_path / "catalogs" / "commerce") and rows[0]["id"] == "commerce-dev"


def test_a_sandbox_environment_outside_us_east_1_creates_its_buckets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "catalog"
    (root / "sales").mkdir(parents=True)
    (root / "catalog.yaml").write_text(
        "region: us-east-1\nsandbox: true\nvars: {team: t}\nenvironments:\n  dev: {region: eu-west-1, vars: {lake: dev-lake}}\n"
    )
    (root / "sales/database.yaml").write_text(DATABASE)
    applied = gluecat("apply", str(root), "--env", "dev", "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert gluecat("plan", str(root), "--env", "dev", "--detailed-exitcode").exit_code == 0


def test_a_rotated_secret_shows_neither_its_old_nor_its_new_value(
    tmp_path: Path, endpoints: dict[str, LocalGlue], monkeypatch: pytest.MonkeyPatch
) -> None:
    # `note` does not look secret: only where its value came from says it is one.
    root = _project(tmp_path / "catalog", endpoints, vault='storage: csv\ncolumns: [{name: id, type: bigint}]\n'
                    'parameters: {note: "${env.DB_PASSWORD}"}\ndescription: "x-${env.DB_PASSWORD}"\n')  # fmt: skip
    monkeypatch.setenv("DB_PASSWORD", SECRET)
    assert gluecat("apply", str(root), "--env", "dev", "--auto-approve").exit_code == 0
    rotated = SECRET.replace("pw", "rotated")
    monkeypatch.setenv("DB_PASSWORD", rotated)
    saved = tmp_path / "plan.json"
    shown = [
        gluecat("plan", str(root), "--env", "dev", "--format", form, "--out", str(saved)).output
        for form in ("human", "json", "markdown")
    ]
    shown.append(saved.read_text())
    assert "parameters.note: (sensitive) -> (sensitive:DB_PASSWORD)" in shown[0]
    for text in shown:
        assert SECRET not in text and rotated not in text, text
    assert gluecat("apply", str(saved)).exit_code == 0
    parameters = _client("glue", endpoints["dev"]).get_table(DatabaseName="sales", Name="vault")["Table"]["Parameters"]
    assert parameters["note"] == rotated


def test_spark_conf_ddl_masks_a_secret_that_quoting_would_disguise(
    tmp_path: Path, endpoints: dict[str, LocalGlue], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path / "catalog", endpoints, vault='storage: csv\ndescription: "${env.DB_PASSWORD}"\n'
                    'columns: [{name: id, type: bigint, comment: "${env.API_KEY}"}]\n')  # fmt: skip
    monkeypatch.setenv("DB_PASSWORD", "it's-" + SECRET)
    monkeypatch.setenv("API_KEY", API_KEY + "\\n")
    result = gluecat("spark-conf", str(root), "--env", "dev", "--format", "ddl")
    assert result.exit_code == 0, result.output
    assert SECRET not in result.output and API_KEY not in result.output, result.output
    assert "COMMENT '(sensitive:DB_PASSWORD)'" in result.output


def test_a_saved_plan_refuses_a_secret_that_changed_since(
    tmp_path: Path, endpoints: dict[str, LocalGlue], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The value `eu` also names a partition: the saved plan holds a placeholder there too, and a
    # different value at apply time would have created region=us partitions nobody reviewed.
    regions = ORDERS.replace("partition_keys:\n", "partition_keys:\n  - {name: region, type: string}\n")
    regions += '      region: ["${env.REGION_SECRET}"]\n'
    root = _project(tmp_path / "catalog", endpoints, orders=regions)
    monkeypatch.setenv("REGION_SECRET", "eu")
    saved = tmp_path / "plan.json"
    assert gluecat("plan", str(root), "--env", "dev", "--out", str(saved)).exit_code == 0
    assert "eu" not in json.dumps(json.loads(saved.read_text())["secrets"])
    monkeypatch.setenv("REGION_SECRET", "us")
    refused = gluecat("apply", str(saved))
    assert refused.exit_code == 1
    assert "environment variable REGION_SECRET now holds a different value" in refused.output
    assert _client("glue", endpoints["dev"]).get_databases()["DatabaseList"] == []
    monkeypatch.setenv("REGION_SECRET", "eu")
    assert gluecat("apply", str(saved)).exit_code == 0
    partitions = _client("glue", endpoints["dev"]).get_partitions(DatabaseName="sales", TableName="orders")
    assert {p["Values"][0] for p in partitions["Partitions"]} == {"eu"}


def test_a_broken_catalog_is_still_a_matrix_row_so_its_plan_job_reports_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, text in (("good", "region: us-east-1\nenvironments: {dev: {}}\n"), ("bad", "environmnts: {dev: {}}\n")):
        (tmp_path / "catalogs" / name).mkdir(parents=True)
        (tmp_path / "catalogs" / name / "catalog.yaml").write_text(text)
    listed = gluecat("environments", str(tmp_path / "catalogs"), "--json")
    assert listed.exit_code == 0
    rows = json.loads(listed.stdout)["include"]
    assert [(row["name"], row["env"]) for row in rows] == [("bad", ""), ("good/dev", "dev")]
    assert "catalog.yaml:1:1: unknown key 'environmnts'" in listed.stderr
    assert gluecat("environments", str(tmp_path / "catalogs")).exit_code == 1
    # Run from inside a catalog, the row is still named after it.
    monkeypatch.chdir(tmp_path / "catalogs" / "good")
    inside = json.loads(gluecat("environments", ".", "--json").stdout)["include"]
    assert [(row["name"], row["id"]) for row in inside] == [("good/dev", "good-dev")]
