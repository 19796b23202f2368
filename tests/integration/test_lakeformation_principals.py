"""Every kind of principal Lake Formation grants to imports, lints and re-plans clean."""

from __future__ import annotations

from pathlib import Path

import boto3
import pytest
import yaml

from gluecat.model.lakeformation import is_principal
from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

# The shapes of the API reference (DataLakePrincipal) and the Developer Guide's granting pages.
PRINCIPALS = [
    "arn:aws:identitystore:::user/90675a3a5c-1b2d3e4f-5a6b-7c8d-9e0f-123456789abc",
    "arn:aws:identitystore:::group/d-9067642ac7.3e9f1b2a-4c5d-6e7f-8a9b-0c1d2e3f4a5b",
    "123456789012:IAMPrincipals",
    "arn:aws:iam::123456789012:saml-provider/corp-idp:user/jane@example.com",
    "arn:aws:iam::123456789012:saml-provider/corp-idp:group/analysts",
    "210987654321",
    "arn:aws:organizations::123456789012:organization/o-abcdefghij",
    "arn:aws:organizations::123456789012:ou/o-abcdefghij/ou-ab12-cdef3456",
    "arn:aws:quicksight:us-east-1:123456789012:group/default/analysts",
    "arn:aws:iam::123456789012:role/etl",
    "IAM_ALLOWED_PRINCIPALS",
]


@pytest.mark.parametrize(
    "value",
    [
        "analyst-role",
        "arn:aws:identitystore:::role/x",
        "arn:aws:iam::123456789012:saml-provider/corp-idp",
        "12345678901:IAMPrincipals",
        "arn:aws:organizations::123456789012:team/o-abc",
    ],
)
def test_what_is_no_principal_is_refused(value: str) -> None:
    assert not is_principal(value)


def test_every_principal_kind_imports_lints_and_replans_clean(tmp_path: Path, server: LocalGlue) -> None:
    glue = boto3.client("glue", endpoint_url=server.endpoint_url, region_name="us-east-1")
    glue.create_database(DatabaseInput={"Name": "sales"})
    glue.create_table(
        DatabaseName="sales",
        TableInput={
            "Name": "customers",
            "TableType": "EXTERNAL_TABLE",
            "StorageDescriptor": {
                "Columns": [{"Name": "id", "Type": "bigint"}],
                "Location": "s3://lake/sales/customers/",
                "InputFormat": "org.apache.hadoop.mapred.TextInputFormat",
                "OutputFormat": "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat",
                "SerdeInfo": {"SerializationLibrary": "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe"},
            },
        },
    )
    lakeformation = boto3.client("lakeformation", endpoint_url=server.endpoint_url, region_name="us-east-1")
    table = {"Table": {"DatabaseName": "sales", "Name": "customers"}}
    for principal in PRINCIPALS:
        assert is_principal(principal), principal
        lakeformation.grant_permissions(
            Principal={"DataLakePrincipalIdentifier": principal}, Resource=table, Permissions=["DESCRIBE"]
        )
    root = write_project(tmp_path, server.endpoint_url, {})

    imported = gluecat("import", str(root))
    assert imported.exit_code == 0, imported.output
    written = yaml.safe_load((root / "sales/tables/customers.yaml").read_text())
    assert sorted(g["principal"] for g in written["grants"]) == sorted(PRINCIPALS)

    validated = gluecat("validate", str(root))
    assert validated.exit_code == 0, validated.output
    assert "grant-principal" not in validated.output
    planned = gluecat("plan", str(root), "--detailed-exitcode")
    assert planned.exit_code == 0, planned.output
