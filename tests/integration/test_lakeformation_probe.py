"""Lake Formation mistakes a new user makes, each one line at its file:line from validate (offline)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

ANALYST = "arn:aws:iam::123456789012:role/analyst"
CATALOG = "lf_tags:\n  tier: [gold, silver, restricted]\n"
DATABASE = "location: s3://lake/sales/\n"


def _validate(root: Path, customers: str) -> tuple[int, str]:
    files = {"sales/database.yaml": DATABASE, "sales/tables/customers.yaml": customers}
    write_project(root, "http://127.0.0.1:9", files, CATALOG)
    result = gluecat("validate", str(root))
    return result.exit_code, result.output


def test_a_column_with_a_typo_key_does_not_make_grants_on_other_columns_errors(tmp_path: Path) -> None:
    # `nme:` is reported; the grant on `phone` (declared after it) and on `country` must not be.
    customers = f"""\
    storage: parquet
    columns:
      - {{name: customer_id, type: bigint}}
      - {{nme: country, type: string}}
      - {{name: phone, type: string}}
    grants:
      - {{principal: {ANALYST}, permissions: [SELECT], columns: [customer_id, country, phone]}}
    """
    code, output = _validate(tmp_path, customers)
    assert code == 1
    assert "unknown key 'nme'" in output
    assert "[grant-column]" not in output


def test_a_tag_error_after_a_refused_column_is_at_its_own_line(tmp_path: Path) -> None:
    customers = """\
    storage: parquet
    columns:
      - {name: customer_id, type: bigint}
      - {type: string}
      - {name: phone, type: string, lf_tags: {tier: platinum}}
    """
    code, output = _validate(tmp_path, customers)
    assert code == 1
    line = next(x for x in output.splitlines() if "'platinum' is not an allowed value" in x)
    assert "customers.yaml:5:" in line


def test_grant_option_with_excluded_columns_is_an_error(tmp_path: Path) -> None:
    customers = f"""\
    storage: parquet
    columns:
      - {{name: customer_id, type: bigint}}
      - {{name: email, type: string}}
    grants:
      - {{principal: {ANALYST}, permissions: [SELECT], grantable: [SELECT], excluded_columns: [email]}}
    """
    code, output = _validate(tmp_path, customers)
    assert code == 1
    line = next(x for x in output.splitlines() if "[grant-permission]" in x)
    assert "customers.yaml:6:" in line and "`columns:`" in line


def test_lf_tags_on_a_partition_key_are_an_error_not_silently_ignored(tmp_path: Path) -> None:
    customers = """\
    storage: parquet
    columns:
      - {name: customer_id, type: bigint}
    partition_keys:
      - {name: dt, type: string, lf_tags: {tier: gold}}
    """
    code, output = _validate(tmp_path, customers)
    assert code == 1
    line = next(x for x in output.splitlines() if "partition key 'dt'" in x)
    assert "customers.yaml:5:" in line and "[lf-tag-value]" in line


def test_a_data_lake_administrator_must_be_an_iam_user_or_role(tmp_path: Path) -> None:
    catalog = "data_lake_admins:\n  - arn:aws:iam::123456789012:role/lake-admin\n  - IAM_ALLOWED_PRINCIPALS\n  - '210987654321'\n"
    write_project(tmp_path, "http://127.0.0.1:9", {"sales/database.yaml": DATABASE}, catalog)
    result = gluecat("validate", str(tmp_path))
    assert result.exit_code == 1
    lines = [x for x in result.output.splitlines() if "cannot be a data lake administrator" in x]
    assert len(lines) == 2
    assert "catalog.yaml:5:" in lines[0] and "catalog.yaml:6:" in lines[1]


def test_a_refused_grant_moves_no_finding_of_a_later_grant_and_hides_none_of_its_own(tmp_path: Path) -> None:
    customers = f"""\
    storage: parquet
    columns:
      - {{name: customer_id, type: bigint}}
    grants:
      - {{principal: {ANALYST}, permissions: [CREATE_TABLE, DESCRIBE], grantable: [SELECT]}}
      - {{principal: {ANALYST}, permissions: [SELECT], columns: [customer_id]}}
      - {{principal: support, permissions: [SELECT]}}
    """
    code, output = _validate(tmp_path, customers)
    assert code == 1
    lines = output.splitlines()
    # the first grant is refused (grantable SELECT is not among its permissions); its CREATE_TABLE is
    # reported too, and the principal of the third grant at the third grant's line
    assert any("customers.yaml:5:" in x and "CREATE_TABLE is not granted on a table" in x for x in lines)
    assert any("customers.yaml:7:" in x and "'support' is not a principal" in x for x in lines)
    assert not any("customers.yaml:6:" in x and "[grant-principal]" in x for x in lines)


def test_the_local_lake_formation_refuses_the_grant_option_on_excluded_columns(
    server: LocalGlue, raw_glue: Any
) -> None:
    client = boto3.client("lakeformation", endpoint_url=server.endpoint_url, region_name="us-east-1")
    raw_glue.create_database(DatabaseInput={"Name": "sales"})
    columns = [{"Name": "id", "Type": "bigint"}, {"Name": "email", "Type": "string"}]
    raw_glue.create_table(DatabaseName="sales", TableInput={"Name": "t", "StorageDescriptor": {"Columns": columns}})
    inner = {"DatabaseName": "sales", "Name": "t"}
    principal = {"DataLakePrincipalIdentifier": ANALYST}
    excluded = {"TableWithColumns": {**inner, "ColumnWildcard": {"ExcludedColumnNames": ["email"]}}}
    with pytest.raises(ClientError, match="include list"):
        client.grant_permissions(
            Principal=principal, Resource=excluded, Permissions=["SELECT"], PermissionsWithGrantOption=["SELECT"]
        )
    included = {"TableWithColumns": {**inner, "ColumnNames": ["id"]}}
    client.grant_permissions(
        Principal=principal, Resource=included, Permissions=["SELECT"], PermissionsWithGrantOption=["SELECT"]
    )
    client.grant_permissions(Principal=principal, Resource=excluded, Permissions=["SELECT"])
