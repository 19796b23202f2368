"""`gluecat docs`: who can read what, per table, from the YAML and with --live from Lake Formation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import boto3
import pytest

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat
from tests.integration.test_lakeformation import ANALYST, ETL, _project

AUDITOR = "arn:aws:iam::123456789012:role/auditor"


@pytest.fixture
def lakeformation(server: LocalGlue) -> Any:
    return boto3.client("lakeformation", endpoint_url=server.endpoint_url, region_name="us-east-1")


def _access(document: dict[str, Any], address: str) -> list[dict[str, Any]]:
    pages = {t["id"]: t for db in document["databases"] for t in db["tables"]}
    return list(pages[address]["access"])


def test_each_table_lists_its_readers_with_tag_grants_resolved(tmp_path: Path, server: LocalGlue) -> None:
    root = _project(tmp_path, server)
    result = gluecat("docs", str(root), "--format", "json")
    assert result.exit_code == 0, result.output
    access = {(a["principal"], a["through"]): a for a in _access(json.loads(result.stdout), "sales.customers")}
    etl = access[(ETL, "grant")]
    assert etl["reads"] and "columns" not in etl and etl["permissions"][0] == "ALL" and etl["source"] == ["declared"]
    assert access[(ANALYST, "grant")]["columns"] == ["customer_id"]
    # tier=gold on the table, domain=sales from its database: the expression covers the table, but
    # not the email column, whose own tier is restricted.
    tagged = access[(ANALYST, "LF-tags domain=sales,web; tier=gold")]
    assert tagged["reads"] and tagged["columns"] == ["customer_id"] and tagged["grantable"] == ["SELECT"]
    assert tagged["permissions"] == ["DESCRIBE", "SELECT"]
    (sales,) = json.loads(result.stdout)["databases"]
    assert sales["access"] == [
        {"principal": ETL, "permissions": ["CREATE_TABLE", "DESCRIBE"], "grantable": ["DESCRIBE"],
         "through": "grant", "source": ["declared"]},
    ]  # fmt: skip
    assert "grants" not in sales["details"]


def test_live_reads_the_grants_lake_formation_holds(tmp_path: Path, server: LocalGlue, lakeformation: Any) -> None:
    root = _project(tmp_path, server)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    lakeformation.grant_permissions(
        Principal={"DataLakePrincipalIdentifier": AUDITOR},
        Resource={"TableWithColumns": {"DatabaseName": "sales", "Name": "customers", "ColumnWildcard": {
            "ExcludedColumnNames": ["email"]}}},
        Permissions=["SELECT"],
    )  # fmt: skip
    result = gluecat("docs", str(root), "--live", "--format", "json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["catalog"]["live_grants"] is True
    access = {(a["principal"], a["through"]): a for a in _access(document, "sales.customers")}
    assert access[(AUDITOR, "grant")]["excluded_columns"] == ["email"]
    assert access[(AUDITOR, "grant")]["source"] == ["live"]
    assert access[(ETL, "grant")]["source"] == ["declared", "live"]
    assert access[(ANALYST, "grant")]["source"] == ["declared", "live"]
    (sales,) = document["databases"]
    assert [(g["principal"], g["source"]) for g in sales["access"]] == [(ETL, ["declared", "live"])]
