"""Views written as SQL: what Glue holds, SQL changes applied, views by other tools imported as SQL and planned clean."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

from gluecat.convert.presto_view import decode
from gluecat.sandbox.server import LocalGlue
from tests.corpus import load_corpus
from tests.integration.helpers import gluecat, write_project

SQL = 'SELECT id, amount, tags, address FROM "sales"."orders" WHERE amount > 0'
ATHENA_VIEW = f"""\
format: view
dialect: athena
sql: '{SQL}'
columns:
  - {{name: id, type: int}}
  - {{name: amount, type: "decimal(12,2)"}}
  - {{name: tags, type: "map<string,array<float>>"}}
  - {{name: address, type: "struct<city:string,zip:bigint>"}}
"""
SPARK_VIEW = """\
format: view
dialect: spark
sql: SELECT id FROM sales.orders
columns:
  - {name: id, type: bigint}
"""


def _project(root: Path, endpoint: str, **views: str) -> Path:
    files = {"sales/database.yaml": "location: s3://lake/sales/\n"}
    files.update({f"sales/tables/{name}.yaml": text for name, text in views.items()})
    return write_project(root, endpoint, files)


def test_athena_view_from_sql_is_what_athena_writes(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = _project(tmp_path, server.endpoint_url, totals=ATHENA_VIEW)
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    view = raw_glue.get_table(DatabaseName="sales", Name="totals")["Table"]
    assert view["TableType"] == "VIRTUAL_VIEW"
    assert view["Parameters"] == {"presto_view": "true", "comment": "Presto View"}
    assert view["ViewExpandedText"] == "/* Presto View */"
    assert [c["Type"] for c in view["StorageDescriptor"]["Columns"]] == [
        "int", "decimal(12,2)", "map<string,array<float>>", "struct<city:string,zip:bigint>"]  # fmt: skip
    decoded = decode(view["ViewOriginalText"])
    assert decoded == {
        "originalSql": SQL,
        "catalog": "awsdatacatalog",
        "schema": "sales",
        "columns": [
            {"name": "id", "type": "integer"},
            {"name": "amount", "type": "decimal(12,2)"},
            {"name": "tags", "type": "map(varchar,array(real))"},
            {"name": "address", "type": "row(city varchar,zip bigint)"},
        ],
        "runAsInvoker": True,  # Trino refuses a view with no run-as identity; Athena ignores it
    }
    assert view["StorageDescriptor"]["SerdeInfo"] == {}  # as Athena writes it; Trino needs it present
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_changing_the_sql_applies(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = _project(tmp_path, server.endpoint_url, totals=ATHENA_VIEW, ids=SPARK_VIEW)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    new_sql = SQL.replace("amount > 0", "amount > 10")
    (root / "sales/tables/totals.yaml").write_text(ATHENA_VIEW.replace(SQL, new_sql))
    (root / "sales/tables/ids.yaml").write_text(SPARK_VIEW.replace("sales.orders", "sales.orders WHERE id > 1"))
    planned = gluecat("plan", str(root))
    assert "sql: " in planned.stdout and "amount > 10" in planned.stdout, planned.stdout
    assert "Presto View:" not in planned.stdout  # never the base64 text
    assert "breaking view-sql: the view's definition changes (sql)" in planned.stdout, planned.stdout
    assert "readers see the same data" not in planned.stdout
    assert gluecat("plan", str(root), "--fail-on", "breaking").exit_code == 1
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    totals = raw_glue.get_table(DatabaseName="sales", Name="totals")["Table"]
    assert decode(totals["ViewOriginalText"])["originalSql"] == new_sql  # type: ignore[index]
    ids = raw_glue.get_table(DatabaseName="sales", Name="ids")["Table"]
    assert ids["ViewOriginalText"] == ids["ViewExpandedText"] == "SELECT id FROM sales.orders WHERE id > 1"
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def _terraform_view(database: str) -> dict[str, Any]:
    """An Athena view as Terraform's jsonencode writes it: keys sorted, compact, `<`/`>` escaped."""
    payload = {"catalog": "awsdatacatalog", "columns": [{"name": "id", "type": "bigint"}, {"name": "n", "type": "varchar"}],
               "originalSql": "SELECT id, n FROM t WHERE id > 1", "schema": database}  # fmt: skip
    text = json.dumps(payload, sort_keys=True, separators=(",", ":")).replace(">", "\\u003e")
    return {
        "Name": "tf_view", "TableType": "VIRTUAL_VIEW", "Parameters": {"presto_view": "true"},
        "ViewOriginalText": f"/* Presto View: {base64.b64encode(text.encode()).decode()} */",
        "StorageDescriptor": {"Columns": [{"Name": "id", "Type": "bigint"}, {"Name": "n", "Type": "string"}],
                              "SerdeInfo": {"Name": "-", "SerializationLibrary": "-"}},
    }  # fmt: skip


def test_views_written_by_other_tools_import_as_sql_and_plan_clean(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    raw_glue.create_database(DatabaseInput={"Name": "views", "LocationUri": "s3://lake/views/"})
    cdk = next(e for e in load_corpus() if e["file"] == "cdk_my_cloudfront_access_log_user_logs.json")
    trino = next(e for e in load_corpus() if e["file"] == "trino_mmc_hive_employees_by_department.json")
    raw_glue.create_table(DatabaseName="views", TableInput=_terraform_view("views"))
    cdk_database = cdk["database"].lower()  # the schema its JSON names
    raw_glue.create_database(DatabaseInput={"Name": cdk_database, "LocationUri": f"s3://lake/{cdk_database}/"})
    raw_glue.create_table(DatabaseName=cdk_database, TableInput=cdk["table_input"])
    raw_glue.create_table(DatabaseName="views", TableInput=trino["table_input"])
    raw_glue.create_table(DatabaseName="views", TableInput={
        "Name": "spark_view", "TableType": "VIRTUAL_VIEW", "ViewOriginalText": "SELECT 1 AS one",
        "ViewExpandedText": "SELECT 1 AS one", "Parameters": {"view.catalogAndNamespace.numParts": "2"},
        "StorageDescriptor": {"Columns": [{"Name": "one", "Type": "int"}]}})  # fmt: skip
    root = tmp_path / "imported"
    root.mkdir()
    (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
    imported = gluecat("import", str(root))
    assert imported.exit_code == 0, imported.output
    tables = root / "views" / "tables"
    terraform = (tables / "tf_view.yaml").read_text()
    assert "dialect: athena" in terraform and "sql: SELECT id, n FROM t WHERE id > 1" in terraform, terraform
    assert "Presto View" not in terraform
    assert "dialect: spark" in (tables / "spark_view.yaml").read_text()
    cdk_file = (root / cdk_database / "tables" / "user_logs.yaml").read_text()
    assert "dialect: athena" in cdk_file and "Googlebot" in cdk_file, cdk_file
    assert "view_original_text" in (tables / "employees_by_department.yaml").read_text()  # Trino: catalog hive
    planned = gluecat("plan", str(root), "--detailed-exitcode")
    assert planned.exit_code == 0, planned.output


def test_only_a_description_change_on_a_view_is_safe(tmp_path: Path, server: LocalGlue) -> None:
    root = _project(tmp_path, server.endpoint_url, ids=SPARK_VIEW)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "sales/tables/ids.yaml").write_text("description: the ids\n" + SPARK_VIEW)
    planned = gluecat("plan", str(root), "--fail-on", "breaking")
    assert planned.exit_code == 0, planned.stdout
    assert "safe metadata-only" in planned.stdout
