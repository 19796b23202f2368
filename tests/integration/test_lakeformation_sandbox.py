"""The local Lake Formation holds the API reference's contract where moto's does not: grant options
survive a batch grant, tag assignments merge key by key and check the value, ListPermissions pages and
filters by table (with its column grants) and by tag policy, batches hold at most 20 entries, grants
and tags name what exists, and a sandbox project keeps them between commands."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

ROLE = "arn:aws:iam::123456789012:role/r{}"


GOVERNED = {"DataLakeAdmins": [], "CreateDatabaseDefaultPermissions": [], "CreateTableDefaultPermissions": []}
COLUMNS = [{"Name": "id", "Type": "bigint"}, {"Name": "email", "Type": "string"}]


@pytest.fixture
def lakeformation(server: LocalGlue, raw_glue: Any) -> Any:
    """A catalog governed by Lake Formation alone: new objects get no default grant."""
    client = boto3.client("lakeformation", endpoint_url=server.endpoint_url, region_name="us-east-1")
    client.put_data_lake_settings(DataLakeSettings=GOVERNED)
    raw_glue.create_database(DatabaseInput={"Name": "sales"})
    raw_glue.create_table(
        DatabaseName="sales", TableInput={"Name": "orders", "StorageDescriptor": {"Columns": COLUMNS}}
    )
    return client


def test_a_new_table_gets_the_default_grant_and_a_deleted_one_loses_its_grants_and_tags(
    server: LocalGlue, raw_glue: Any
) -> None:
    client = boto3.client("lakeformation", endpoint_url=server.endpoint_url, region_name="us-east-1")
    raw_glue.create_database(DatabaseInput={"Name": "sales"})
    raw_glue.create_table(
        DatabaseName="sales", TableInput={"Name": "orders", "StorageDescriptor": {"Columns": COLUMNS}}
    )
    on_table = client.list_permissions(Resource=_table())["PrincipalResourcePermissions"]
    assert {g["Principal"]["DataLakePrincipalIdentifier"] for g in on_table} == {"IAM_ALLOWED_PRINCIPALS"}
    assert {p for g in on_table for p in g["Permissions"]} >= {"ALL", "SELECT"}
    client.create_lf_tag(TagKey="tier", TagValues=["gold"])
    client.add_lf_tags_to_resource(Resource=_table(), LFTags=[{"TagKey": "tier", "TagValues": ["gold"]}])

    raw_glue.delete_table(DatabaseName="sales", Name="orders")
    assert client.list_permissions(Resource=_table())["PrincipalResourcePermissions"] == []
    raw_glue.create_table(
        DatabaseName="sales", TableInput={"Name": "orders", "StorageDescriptor": {"Columns": COLUMNS}}
    )
    tags = client.get_resource_lf_tags(Resource=_table(), ShowAssignedLFTags=True)
    assert tags.get("LFTagsOnTable", []) == []


def _table(name: str = "orders") -> dict[str, Any]:
    return {"Table": {"DatabaseName": "sales", "Name": name}}


def _entry(i: int, resource: dict[str, Any], permissions: list[str], options: list[str]) -> dict[str, Any]:
    return {
        "Id": str(i),
        "Principal": {"DataLakePrincipalIdentifier": ROLE.format(i)},
        "Resource": resource,
        "Permissions": permissions,
        "PermissionsWithGrantOption": options,
    }


def test_a_batch_grant_keeps_its_grant_options(lakeformation: Any) -> None:
    answer = lakeformation.batch_grant_permissions(
        Entries=[_entry(1, {"Database": {"Name": "sales"}}, ["DESCRIBE", "ALTER"], ["DESCRIBE"])]
    )
    assert answer["Failures"] == []
    (held,) = lakeformation.list_permissions()["PrincipalResourcePermissions"]
    assert held["Permissions"] == ["ALTER", "DESCRIBE"]
    assert held["PermissionsWithGrantOption"] == ["DESCRIBE"]


def test_all_on_a_table_is_listed_expanded_and_select_on_a_column_wildcard(lakeformation: Any) -> None:
    lakeformation.grant_permissions(
        Principal={"DataLakePrincipalIdentifier": ROLE.format(1)}, Resource=_table(), Permissions=["ALL"]
    )
    held = {next(iter(g["Resource"])): g for g in lakeformation.list_permissions()["PrincipalResourcePermissions"]}
    assert held["Table"]["Permissions"] == ["ALL", "ALTER", "DELETE", "DESCRIBE", "DROP", "INSERT"]
    assert held["TableWithColumns"]["Permissions"] == ["SELECT"]
    assert held["TableWithColumns"]["Resource"]["TableWithColumns"]["ColumnWildcard"] == {}


def test_a_batch_holds_at_most_20_entries_and_each_failure_is_its_own(lakeformation: Any) -> None:
    with pytest.raises(ClientError, match="InvalidInputException"):
        lakeformation.batch_grant_permissions(Entries=[_entry(i, _table(), ["SELECT"], []) for i in range(21)])
    entries = [_entry(1, _table(), ["SELECT"], []), _entry(2, _table("missing"), ["SELECT"], [])]
    entries.append(
        _entry(
            3, {"TableWithColumns": {"DatabaseName": "sales", "Name": "orders", "ColumnNames": ["ssn"]}}, ["SELECT"], []
        )
    )
    failures = lakeformation.batch_grant_permissions(Entries=entries)["Failures"]
    assert {(f["RequestEntry"]["Id"], f["Error"]["ErrorCode"]) for f in failures} == {
        ("2", "EntityNotFoundException"),
        ("3", "InvalidInputException"),
    }
    assert len(lakeformation.list_permissions()["PrincipalResourcePermissions"]) == 1


def test_list_permissions_pages_and_filters_by_table_and_tag_policy(lakeformation: Any) -> None:
    lakeformation.create_lf_tag(TagKey="tier", TagValues=["gold"])
    for i in range(30):
        lakeformation.grant_permissions(
            Principal={"DataLakePrincipalIdentifier": ROLE.format(i)}, Resource=_table(), Permissions=["DESCRIBE"]
        )
    columns = {"TableWithColumns": {"DatabaseName": "sales", "Name": "orders", "ColumnNames": ["email"]}}
    lakeformation.grant_permissions(
        Principal={"DataLakePrincipalIdentifier": ROLE.format(99)}, Resource=columns, Permissions=["SELECT"]
    )
    policy = {"LFTagPolicy": {"ResourceType": "TABLE", "Expression": [{"TagKey": "tier", "TagValues": ["gold"]}]}}
    lakeformation.grant_permissions(
        Principal={"DataLakePrincipalIdentifier": ROLE.format(98)}, Resource=policy, Permissions=["SELECT"]
    )

    first = lakeformation.list_permissions()
    assert len(first["PrincipalResourcePermissions"]) == 25 and first["NextToken"]
    pages, token, seen = 0, None, []
    while True:
        page = lakeformation.list_permissions(MaxResults=10, **({"NextToken": token} if token else {}))
        pages, seen = pages + 1, seen + page["PrincipalResourcePermissions"]
        token = page.get("NextToken")
        if not token:
            break
    assert (pages, len(seen)) == (4, 32)
    on_table = lakeformation.list_permissions(Resource=_table(), MaxResults=100)["PrincipalResourcePermissions"]
    assert len(on_table) == 31  # the column grant with the table's
    tagged = lakeformation.list_permissions(ResourceType="LF_TAG_POLICY_TABLE")["PrincipalResourcePermissions"]
    assert [g["Principal"]["DataLakePrincipalIdentifier"] for g in tagged] == [ROLE.format(98)]


def test_tag_assignments_merge_key_by_key_and_check_the_value(lakeformation: Any) -> None:
    lakeformation.create_lf_tag(TagKey="domain", TagValues=["sales", "web"])
    lakeformation.create_lf_tag(TagKey="tier", TagValues=["gold"])
    lakeformation.add_lf_tags_to_resource(Resource=_table(), LFTags=[{"TagKey": "domain", "TagValues": ["sales"]}])
    lakeformation.add_lf_tags_to_resource(Resource=_table(), LFTags=[{"TagKey": "tier", "TagValues": ["gold"]}])
    refused = lakeformation.add_lf_tags_to_resource(
        Resource=_table(), LFTags=[{"TagKey": "tier", "TagValues": ["platinum"]}]
    )
    assert refused["Failures"][0]["Error"]["ErrorCode"] == "EntityNotFoundException"
    lakeformation.add_lf_tags_to_resource(Resource=_table(), LFTags=[{"TagKey": "domain", "TagValues": ["web"]}])

    held = lakeformation.get_resource_lf_tags(Resource=_table(), ShowAssignedLFTags=True)["LFTagsOnTable"]
    assert {t["TagKey"]: t["TagValues"] for t in held} == {"domain": ["web"], "tier": ["gold"]}
    with pytest.raises(ClientError, match="EntityNotFoundException"):
        lakeformation.add_lf_tags_to_resource(
            Resource=_table("missing"), LFTags=[{"TagKey": "tier", "TagValues": ["gold"]}]
        )


def test_apply_sends_grants_20_to_a_call(tmp_path: Path, server: LocalGlue) -> None:
    grants = "".join(f"  - {{principal: '{ROLE.format(i)}', permissions: [SELECT]}}\n" for i in range(45))
    table = f"storage: csv\ncolumns:\n  - {{name: id, type: bigint}}\ngrants:\n{grants}"
    root = write_project(
        tmp_path,
        server.endpoint_url,
        {"sales/database.yaml": "location: s3://lake/sales/\n", "sales/tables/orders.yaml": table},
    )
    server.reset_counts()
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    assert server.lakeformation_calls()["BatchGrantPermissions"] == 3
    server.reset_counts()
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0
    calls = server.lakeformation_calls()
    assert calls["ListPermissions"] == 1  # 45 grants: one page of up to 1,000
    assert calls["GetResourceLFTags"] == 0  # no lf_tags declared: none read
    server.configure(page_size=10)  # Lake Formation may answer fewer than asked: every page is read
    server.reset_counts()
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0
    assert server.lakeformation_calls()["ListPermissions"] == 5


def test_a_sandbox_project_keeps_its_grants_and_tags_between_commands(tmp_path: Path) -> None:
    files = {
        "sales/database.yaml": "location: s3://lake/sales/\nlf_tags: {domain: sales}\n",
        "sales/tables/orders.yaml": f"storage: csv\ncolumns:\n  - {{name: id, type: bigint}}\ngrants:\n  - {{principal: '{ROLE.format(1)}', permissions: [ALL], grantable: [SELECT]}}\n",
    }
    root = tmp_path / "project"
    for relative, text in {
        "catalog.yaml": "sandbox: true\nregion: us-east-1\nlf_tags: {domain: [sales]}\n",
        **files,
    }.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "gluecat", *args], cwd=root, capture_output=True, text=True, timeout=300, check=False
        )

    applied = run("apply", ".", "--auto-approve")
    assert applied.returncode == 0, applied.stdout + applied.stderr
    assert (root / ".gluecat" / "sandbox" / "lakeformation.json").is_file()
    again = run("plan", ".", "--detailed-exitcode")
    assert again.returncode == 0, again.stdout + again.stderr
