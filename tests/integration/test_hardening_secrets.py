"""Secrets in the spellings a text search misses: `${env.X}` inside an Athena view's SQL (base64 in
the view payload) and `${env.X}` as a partition value (%-escaped in its location) appear in no
plan format and no plan file, and a saved plan applies them exactly; import writes references for
secret-looking storage and partition parameters (Azure account keys among them)."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from gluecat.convert import locations
from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

SECRET = "Ru5ty:Gate/42#x"
ESCAPED = locations.escape_path_name(SECRET)
VIEW = """\
format: view
dialect: athena
sql: "SELECT id FROM sales.orders WHERE token = '${env.VIEW_TOKEN}'"
columns:
  - {name: id, type: bigint}
"""
ORDERS = """\
storage: parquet
columns:
  - {name: id, type: bigint}
partition_keys:
  - {name: tenant, type: string}
partitions:
  - values: {tenant: "${env.TENANT_KEY}"}
"""


def _every_spelling(text: str) -> list[str]:
    """The secret as itself, escaped, and base64 at each of the three alignments it can take."""
    found = [form for form in (SECRET, ESCAPED) if form in text]
    for shift in range(3):
        encoded = base64.b64encode(("x" * shift + SECRET).encode()).decode()[4:-4]
        if encoded in text:
            found.append(f"base64 {encoded}")
    return found


@pytest.fixture
def project(tmp_path: Path, server: LocalGlue, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("VIEW_TOKEN", SECRET)
    monkeypatch.setenv("TENANT_KEY", SECRET)
    files = {
        "sales/database.yaml": "location: s3://lake/sales/\n",
        "sales/tables/orders.yaml": ORDERS,
        "sales/tables/secret_view.yaml": VIEW,
    }
    return write_project(tmp_path / "project", server.endpoint_url, files)


def test_view_sql_and_partition_value_secrets_appear_in_no_output_and_apply_exactly(
    project: Path, tmp_path: Path, raw_glue: Any
) -> None:
    outputs = {}
    for output_format in ("human", "json", "markdown"):
        result = gluecat("plan", str(project), "--format", output_format)
        assert result.exit_code == 0, result.output
        outputs[output_format] = result.output
    saved = tmp_path / "plan.json"
    result = gluecat("plan", str(project), "--out", str(saved))
    outputs["--out"] = result.output
    outputs["plan file"] = saved.read_text()
    for where, text in outputs.items():
        assert _every_spelling(text) == [], f"{where} holds the secret"
    assert "(sensitive:TENANT_KEY@path)" in outputs["plan file"]

    applied = gluecat("apply", str(saved))
    assert applied.exit_code == 0, applied.output
    assert _every_spelling(applied.output) == []
    view = raw_glue.get_table(DatabaseName="sales", Name="secret_view")["Table"]
    payload = json.loads(base64.b64decode(view["ViewOriginalText"].split(": ", 1)[1].rsplit(" ", 1)[0]))
    assert payload["originalSql"] == f"SELECT id FROM sales.orders WHERE token = '{SECRET}'"
    (partition,) = raw_glue.get_partitions(DatabaseName="sales", TableName="orders")["Partitions"]
    assert partition["Values"] == [SECRET]
    assert partition["StorageDescriptor"]["Location"] == f"s3://lake/sales/orders/tenant={ESCAPED}/"

    again = gluecat("plan", str(project), "--detailed-exitcode")
    assert again.exit_code == 0, again.output


def test_import_writes_references_for_secret_storage_and_partition_parameters(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    root = write_project(
        tmp_path / "applied",
        server.endpoint_url,
        {
            "sales/database.yaml": "location: s3://lake/sales/\n",
            "sales/tables/t.yaml": ORDERS.replace("${env.TENANT_KEY}", "a"),
        },
    )
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    table = raw_glue.get_table(DatabaseName="sales", Name="t")["Table"]
    table_input = {k: table[k] for k in ("Name", "StorageDescriptor", "PartitionKeys", "TableType", "Parameters")}
    table_input["StorageDescriptor"]["Parameters"] = {"fs.azure.account.key.acct.dfs.core.windows.net": "AzureKey77"}
    raw_glue.update_table(DatabaseName="sales", TableInput=table_input)
    (partition,) = raw_glue.get_partitions(DatabaseName="sales", TableName="t")["Partitions"]
    descriptor = {**partition["StorageDescriptor"], "Parameters": {"sas.token": "PartSas55"}}
    raw_glue.update_partition(DatabaseName="sales", TableName="t", PartitionValueList=["a"],
                              PartitionInput={"Values": ["a"], "StorageDescriptor": descriptor,
                                              "Parameters": {"db.password": "PartLive66"}})  # fmt: skip

    imported = tmp_path / "imported"
    imported.mkdir()
    (imported / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
    result = gluecat("import", str(imported), "--partitions")
    assert result.exit_code == 0, result.output
    text = "".join(p.read_text() for p in sorted(imported.rglob("*.yaml")))
    for planted in ("AzureKey77", "PartSas55", "PartLive66"):
        assert planted not in text and planted not in result.output
    for variable in (
        "SALES_T_FS_AZURE_ACCOUNT_KEY_ACCT_DFS_CORE_WINDOWS_NET",
        "SALES_T_SAS_TOKEN",
        "SALES_T_DB_PASSWORD",
    ):
        assert f"${{env.{variable}}}" in text and variable in result.output


def test_a_saved_plan_holds_back_live_secrets_the_yaml_does_not_declare_and_apply_keeps_them(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    files = {
        "sales/database.yaml": "location: s3://lake/sales/\n",
        "sales/tables/t.yaml": "storage: csv\ncolumns:\n  - {name: id, type: bigint}\nparameters:\n  db.password: OldDeclared1\n",
    }
    root = write_project(tmp_path / "project", server.endpoint_url, files)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    table = raw_glue.get_table(DatabaseName="sales", Name="t")["Table"]
    table_input = {k: table[k] for k in ("Name", "TableType", "StorageDescriptor", "PartitionKeys")}
    table_input["Parameters"] = {**table["Parameters"], "jdbc.password": "LiveUndeclared99"}
    table_input["StorageDescriptor"]["Parameters"] = {"fs.azure.account.key.a.dfs.core.windows.net": "AzureKey77"}
    raw_glue.update_table(DatabaseName="sales", TableInput=table_input)
    (root / "sales/tables/t.yaml").write_text(
        files["sales/tables/t.yaml"].replace("OldDeclared1", "NewDeclared2") + "description: now described\n"
    )

    saved = tmp_path / "plan.json"
    assert gluecat("plan", str(root), "--out", str(saved)).exit_code == 0
    text = saved.read_text()
    assert "LiveUndeclared99" not in text and "AzureKey77" not in text
    assert "NewDeclared2" in text, "what the plan writes is the file's own, and stays"

    applied = gluecat("apply", str(saved))
    assert applied.exit_code == 0, applied.output
    after = raw_glue.get_table(DatabaseName="sales", Name="t")["Table"]
    assert after["Description"] == "now described"
    assert after["Parameters"]["jdbc.password"] == "LiveUndeclared99"
    assert after["Parameters"]["db.password"] == "NewDeclared2"
    assert after["StorageDescriptor"]["Parameters"] == {"fs.azure.account.key.a.dfs.core.windows.net": "AzureKey77"}


def test_a_saved_plan_that_moves_a_partition_holds_back_its_live_secrets(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    table = "storage: csv\ncolumns:\n  - {name: id, type: bigint}\npartition_keys:\n  - {name: dt, type: string}\n"
    files = {
        "sales/database.yaml": "location: s3://lake/sales/\n",
        "sales/tables/t.yaml": table + "partitions:\n  - values: {dt: a}\n",
    }
    root = write_project(tmp_path / "project", server.endpoint_url, files)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (partition,) = raw_glue.get_partitions(DatabaseName="sales", TableName="t")["Partitions"]
    raw_glue.update_partition(DatabaseName="sales", TableName="t", PartitionValueList=["a"],
                              PartitionInput={"Values": ["a"], "StorageDescriptor": partition["StorageDescriptor"],
                                              "Parameters": {"db.password": "PartLive66", "kept": "yes"}})  # fmt: skip
    (root / "sales/tables/t.yaml").write_text(
        table + "partitions:\n  - values: {dt: a}\n    location: s3://lake/moved/dt=a/\n"
    )

    saved = tmp_path / "plan.json"
    assert gluecat("plan", str(root), "--out", str(saved)).exit_code == 0
    assert "PartLive66" not in saved.read_text()
    assert "s3://lake/moved/dt=a/" in saved.read_text()

    applied = gluecat("apply", str(saved))
    assert applied.exit_code == 0, applied.output
    (moved,) = raw_glue.get_partitions(DatabaseName="sales", TableName="t")["Partitions"]
    assert moved["StorageDescriptor"]["Location"] == "s3://lake/moved/dt=a/"
    assert moved["Parameters"] == {"db.password": "PartLive66", "kept": "yes"}
