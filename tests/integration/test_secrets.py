"""No secret value reaches any output: plans in every format (before and after), apply, errors, spark-conf.

Secrets are planted in every place a catalog can hold one — Hive parameters and SerDe parameters,
`extra`, Iceberg and Delta properties, a connection string with `user:password@` — and every
output of every command is searched for them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gluecat.cli import app
from gluecat.sandbox.server import LocalGlue
from gluecat.secrets import redact
from tests.integration.helpers import write_project

PLANTED = {
    "hive-parameter": "PlantedHiveParam1",
    "hive-serde": "PlantedSerdeParam2",
    "hive-url": "PlantedUrlPassword3",
    "hive-auth": "PlantedAuthHeader4",
    "extra": "PlantedExtraParam5",
    "iceberg": "PlantedIcebergProp6",
    "delta": "PlantedDeltaProp7",
    "api-key": "PlantedApiKey8",
}

VAULT = f"""\
storage: csv
columns:
  - {{name: id, type: bigint}}
serde:
  parameters:
    sas.token: {PLANTED["hive-serde"]}
parameters:
  jdbc.password: {PLANTED["hive-parameter"]}
  source: "postgresql://loader:{PLANTED["hive-url"]}@db.internal:5432/sales"
  http.auth.header: {PLANTED["hive-auth"]}
  ApiKey: {PLANTED["api-key"]}
  plain: visible-value
extra:
  StorageDescriptor:
    Parameters: {{db.credential: {PLANTED["extra"]}}}
"""
EVENTS = f"""\
format: iceberg
columns:
  - {{name: id, type: bigint}}
properties:
  custom.access.token: {PLANTED["iceberg"]}
"""
STOCK = f"""\
format: delta
location: s3://lake/lake.db/stock
columns:
  - {{name: sku, type: string}}
properties:
  custom.private.key: {PLANTED["delta"]}
"""


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout + result.stderr


def _assert_clean(text: str, where: str, planted: dict[str, str] = PLANTED) -> None:
    leaked = [name for name, secret in planted.items() if secret in text]
    assert not leaked, f"{where} printed {leaked}:\n{text}"


@pytest.fixture
def project(tmp_path: Path, server: LocalGlue, lake_bucket: str) -> Path:
    files = {
        "lake/database.yaml": "location: s3://lake/lake.db/\n",
        "lake/tables/vault.yaml": VAULT,
        "lake/tables/events.yaml": EVENTS,
        "lake/tables/stock.yaml": STOCK,
    }
    return write_project(tmp_path / "cat", server.endpoint_url, files, "warehouse: s3://lake/warehouse\n")


def _change_every_secret(root: Path) -> dict[str, str]:
    """New values everywhere, so the next plan has a before and an after for each."""
    changed = {name: value.replace("Planted", "Changed") for name, value in PLANTED.items()}
    for relative, text in (("vault", VAULT), ("events", EVENTS)):
        (root / f"lake/tables/{relative}.yaml").write_text(text.replace("Planted", "Changed"))
    return changed


def test_no_planted_secret_in_plans_apply_or_library_errors(project: Path, raw_glue: Any) -> None:
    for output_format in ("human", "json", "markdown"):
        code, shown = _run("plan", str(project), "--format", output_format)
        assert code == 0, shown
        _assert_clean(shown, f"plan --format {output_format}")
    # deltalake refuses a configuration key it does not know, quoting the value back in its error.
    code, shown = _run("apply", str(project), "--auto-approve")
    assert code == 1, shown
    assert "failed lake.stock" in shown and "custom.private.key" in shown
    _assert_clean(shown, "apply (with a deltalake error)")
    vault = raw_glue.get_table(DatabaseName="lake", Name="vault")["Table"]
    assert vault["Parameters"]["jdbc.password"] == PLANTED["hive-parameter"], "masking is for output, not for Glue"
    assert vault["StorageDescriptor"]["Parameters"]["db.credential"] == PLANTED["extra"]

    (project / "lake/tables/stock.yaml").unlink()
    changed = _change_every_secret(project)
    both = {**PLANTED, **{f"{k} (new)": v for k, v in changed.items()}}
    for output_format in ("human", "json", "markdown"):
        code, shown = _run("plan", str(project), "--format", output_format)
        assert code == 0, shown
        _assert_clean(shown, f"plan --format {output_format} of changed secrets", both)
        assert "jdbc.password" in shown and "custom.access.token" in shown and "db.credential" in shown
    code, shown = _run("apply", str(project), "--auto-approve")
    assert code == 0, shown
    _assert_clean(shown, "apply of changed secrets", both)


def test_plan_json_masks_keys_and_keeps_other_values(project: Path) -> None:
    result = CliRunner().invoke(app, ["plan", str(project), "--format", "json"], catch_exceptions=False)
    vault = next(c for c in json.loads(result.stdout)["changes"] if c["address"] == "lake.vault")
    parameters = vault["desired"]["Parameters"]
    assert parameters["jdbc.password"] == redact.MASK
    assert parameters["source"] == f"postgresql://loader:{redact.MASK}@db.internal:5432/sales"
    assert parameters["plain"] == "visible-value"


def test_spark_conf_ddl_masks_secret_properties_and_says_so(project: Path) -> None:
    code, shown = _run("spark-conf", str(project), "--format", "ddl")
    assert code == 0, shown
    _assert_clean(shown, "spark-conf --format ddl")
    assert "'jdbc.password'='(sensitive)'" in shown
    assert "--show-secrets" in shown  # the warning, on stderr
    code, revealed = _run("spark-conf", str(project), "--format", "ddl", "--show-secrets")
    assert code == 0
    assert PLANTED["hive-parameter"] in revealed and PLANTED["hive-serde"] in revealed


@pytest.mark.parametrize("output_format", ["conf", "json", "pyspark", "emr", "glue-job", "trino"])
def test_spark_conf_masks_endpoint_passwords(project: Path, output_format: str) -> None:
    endpoint = "https://gluecat:PlantedEndpoint9@glue.internal:8443"
    code, shown = _run("spark-conf", str(project), "--format", output_format, "--endpoint", endpoint)
    assert code == 0, shown
    assert "PlantedEndpoint9" not in shown
    assert f"https://gluecat:{redact.MASK}@glue.internal:8443" in shown


def test_an_endpoint_password_stays_out_of_connection_errors(tmp_path: Path) -> None:
    endpoint = "http://gluecat:PlantedEndpoint9@127.0.0.1:9"  # nothing listens on the discard port
    root = write_project(tmp_path, endpoint, {"lake/database.yaml": "location: s3://lake/lake.db/\n"})
    code, shown = _run("plan", str(root))
    assert code == 1
    assert "PlantedEndpoint9" not in shown
    assert "127.0.0.1:9" in shown


def test_a_planted_placeholder_never_receives_an_environment_value(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Anyone with Glue write access can set a parameter to `(sensitive:NAME)`: a saved plan that
    carries it (an update keeps live parameters) writes it back as it was, never $NAME's value."""
    from tests.integration.helpers import gluecat, sales_project

    root = sales_project(tmp_path / "project", server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    live = raw_glue.get_table(DatabaseName="sales", Name="customers")["Table"]
    planted = {**live["Parameters"], "note": "(sensitive:GLUECAT_PLANTED_SECRET)"}
    keys = ("Name", "StorageDescriptor", "PartitionKeys", "TableType", "Description")
    raw_glue.update_table(
        DatabaseName="sales", TableInput={**{k: live[k] for k in keys if k in live}, "Parameters": planted}
    )
    (root / "sales" / "tables" / "customers.yaml").write_text("storage: csv\ndescription: changed\n")
    out = tmp_path / "plan.json"
    assert gluecat("plan", str(root), "--out", str(out)).exit_code == 0
    monkeypatch.setenv("GLUECAT_PLANTED_SECRET", "the-ci-job-secret-value")
    applied = gluecat("apply", str(out))
    assert applied.exit_code == 0, applied.output
    after = raw_glue.get_table(DatabaseName="sales", Name="customers")["Table"]
    assert after["Description"] == "changed"
    assert after["Parameters"]["note"] == "(sensitive:GLUECAT_PLANTED_SECRET)"
    assert "the-ci-job-secret-value" not in json.dumps(after, default=str)


def test_a_live_metadata_pointer_to_a_local_file_is_never_read(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    """A metadata_location anyone with Glue write access sets to file:///... (a credentials file)
    makes gluecat read nothing from this machine, and quote nothing of it."""
    from tests.integration.helpers import gluecat

    credentials = tmp_path / "credentials"
    credentials.write_text("[default]\naws_secret_access_key = LOCALFILE-SECRET-TAIL-1234567890\n")
    raw_glue.create_database(DatabaseInput={"Name": "lake"})
    raw_glue.create_table(
        DatabaseName="lake",
        TableInput={
            "Name": "events",
            "TableType": "EXTERNAL_TABLE",
            "Parameters": {"table_type": "ICEBERG", "metadata_location": credentials.as_uri()},
            "StorageDescriptor": {"Location": "s3://lake/events", "Columns": []},
        },
    )
    root = tmp_path / "project"
    root.mkdir()
    (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
    imported = gluecat("import", str(root), "--database", "lake")
    written = "".join(p.read_text() for p in root.rglob("*.yaml"))
    assert "LOCALFILE-SECRET" not in imported.output + written
    assert "gluecat reads Iceberg metadata only from s3://" in imported.output + written
    planned = gluecat("plan", str(root))
    assert "LOCALFILE-SECRET" not in planned.output
