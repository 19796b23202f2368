"""Lake Formation as code against the local Lake Formation: tags and grants apply, re-plan clean,
revocations need --allow-revoke, grant options survive a batch grant."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import boto3
import pytest
import yaml

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

ETL = "arn:aws:iam::123456789012:role/etl"
ANALYST = "arn:aws:iam::123456789012:role/analyst"
ADMIN = "arn:aws:iam::123456789012:role/lake-admin"
CATALOG = f"""\
data_lake_admins: [{ADMIN}]
lf_tags:
  domain: [sales, web]
  tier: [gold, silver, restricted]
tag_grants:
  - principal: {ANALYST}
    permissions: [SELECT, DESCRIBE]
    grantable: [SELECT]
    resource: table
    expression: {{tier: [gold], domain: [web, sales]}}
"""
DATABASE = f"""\
location: s3://lake/sales/
lf_tags: {{domain: sales}}
grants:
  - {{principal: {ETL}, permissions: [CREATE_TABLE, DESCRIBE], grantable: [DESCRIBE]}}
"""
CUSTOMERS = f"""\
storage: csv
lf_tags: {{tier: gold}}
columns:
  - {{name: customer_id, type: bigint}}
  - {{name: email, type: string, lf_tags: {{tier: restricted}}}}
grants:
  - {{principal: {ETL}, permissions: [ALL], grantable: [ALL]}}
  - {{principal: {ANALYST}, permissions: [SELECT], columns: [customer_id]}}
"""


@pytest.fixture
def lakeformation(server: LocalGlue) -> Any:
    return boto3.client("lakeformation", endpoint_url=server.endpoint_url, region_name="us-east-1")


def _project(root: Path, server: LocalGlue, customers: str = CUSTOMERS) -> Path:
    files = {"sales/database.yaml": DATABASE, "sales/tables/customers.yaml": customers}
    return write_project(root, server.endpoint_url, files, CATALOG)


def _grants(lakeformation: Any) -> list[dict[str, Any]]:
    found, token = [], None
    while True:
        page = lakeformation.list_permissions(**({"NextToken": token} if token else {}))
        found += page["PrincipalResourcePermissions"]
        token = page.get("NextToken")
        if not token:
            return found


def test_tags_and_grants_apply_and_the_next_plan_is_clean(
    tmp_path: Path, server: LocalGlue, lakeformation: Any
) -> None:
    root = _project(tmp_path, server)
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert "grants created" in applied.stdout and "LF-tags created" in applied.stdout

    assert {t["TagKey"]: sorted(t["TagValues"]) for t in lakeformation.list_lf_tags()["LFTags"]} == {
        "domain": ["sales", "web"],
        "tier": ["gold", "restricted", "silver"],
    }
    on_columns = lakeformation.get_resource_lf_tags(
        Resource={"TableWithColumns": {"DatabaseName": "sales", "Name": "customers", "ColumnNames": ["email"]}},
        ShowAssignedLFTags=True,
    )
    assert on_columns["LFTagsOnTable"][0]["TagValues"] == ["gold"]
    assert on_columns["LFTagsOnColumns"][0]["LFTags"][0]["TagValues"] == ["restricted"]
    # ALL is held as Lake Formation lists it: expanded, SELECT on a column wildcard.
    etl_table = [
        g for g in _grants(lakeformation)
        if g["Principal"]["DataLakePrincipalIdentifier"] == ETL and "Database" not in g["Resource"]
    ]  # fmt: skip
    assert {tuple(g["Resource"]) for g in etl_table} == {("Table",), ("TableWithColumns",)}

    again = gluecat("plan", str(root), "--detailed-exitcode")
    assert again.exit_code == 0, again.output
    assert "No changes" in again.stdout


def test_grant_options_survive_the_batch_grant_and_a_replan(
    tmp_path: Path, server: LocalGlue, lakeformation: Any
) -> None:
    root = _project(tmp_path, server)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    held = {
        (g["Principal"]["DataLakePrincipalIdentifier"], next(iter(g["Resource"]))): g
        for g in _grants(lakeformation)
    }  # fmt: skip
    assert held[(ETL, "Database")]["PermissionsWithGrantOption"] == ["DESCRIBE"]
    assert "ALL" in held[(ETL, "Table")]["PermissionsWithGrantOption"]
    assert held[(ETL, "TableWithColumns")]["PermissionsWithGrantOption"] == ["SELECT"]
    assert held[(ANALYST, "LFTagPolicy")]["PermissionsWithGrantOption"] == ["SELECT"]
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_removing_a_grant_plans_a_revocation_that_needs_allow_revoke(
    tmp_path: Path, server: LocalGlue, lakeformation: Any
) -> None:
    root = _project(tmp_path, server)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    fewer = CUSTOMERS.replace(f"  - {{principal: {ANALYST}, permissions: [SELECT], columns: [customer_id]}}\n", "")
    _project(root, server, fewer)

    planned = gluecat("plan", str(root))
    assert planned.exit_code == 0, planned.output
    assert "Access" in planned.stdout and "access-revoke" in planned.stdout
    assert f"sales.customers[customer_id]#grant.{ANALYST}" in planned.stdout

    refused = gluecat("apply", str(root), "--auto-approve")
    assert refused.exit_code == 1
    assert "--allow-revoke" in refused.output
    analyst = [g for g in _grants(lakeformation) if g["Principal"]["DataLakePrincipalIdentifier"] == ANALYST]
    assert any("TableWithColumns" in g["Resource"] for g in analyst)  # nothing was revoked

    revoked = gluecat("apply", str(root), "--auto-approve", "--allow-revoke")
    assert revoked.exit_code == 0, revoked.output
    analyst = [g for g in _grants(lakeformation) if g["Principal"]["DataLakePrincipalIdentifier"] == ANALYST]
    assert not any("TableWithColumns" in g["Resource"] for g in analyst)
    assert any("LFTagPolicy" in g["Resource"] for g in analyst)  # the tag grant stays
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_import_writes_the_same_tags_and_grants_and_its_plan_is_clean(tmp_path: Path, server: LocalGlue) -> None:
    source = _project(tmp_path / "source", server)
    assert gluecat("apply", str(source), "--auto-approve").exit_code == 0
    root = write_project(tmp_path / "imported", server.endpoint_url, {})

    imported = gluecat("import", str(root))
    assert imported.exit_code == 0, imported.output
    catalog = yaml.safe_load((root / "catalog.yaml").read_text())
    assert catalog["data_lake_admins"] == [ADMIN]
    assert catalog["lf_tags"] == {"domain": ["sales", "web"], "tier": ["gold", "silver", "restricted"]}
    assert catalog["tag_grants"] == [
        {
            "principal": ANALYST,
            "permissions": ["DESCRIBE", "SELECT"],
            "grantable": ["SELECT"],
            "resource": "table",
            "expression": {"domain": ["sales", "web"], "tier": ["gold"]},
        }
    ]
    database = yaml.safe_load((root / "sales" / "database.yaml").read_text())
    assert database["lf_tags"] == {"domain": "sales"}
    assert database["grants"] == [
        {"principal": ETL, "permissions": ["CREATE_TABLE", "DESCRIBE"], "grantable": ["DESCRIBE"]}
    ]
    table = yaml.safe_load((root / "sales" / "tables" / "customers.yaml").read_text())
    assert table["lf_tags"] == {"tier": "gold"}
    assert [c.get("lf_tags") for c in table["columns"]] == [None, {"tier": "restricted"}]
    assert sorted(table["grants"], key=str) == sorted(
        [
            {"principal": ETL, "permissions": ["ALL"], "grantable": ["ALL"]},  # not its expansion
            {"principal": ANALYST, "permissions": ["SELECT"], "columns": ["customer_id"]},
        ],
        key=str,
    )

    planned = gluecat("plan", str(root), "--detailed-exitcode")
    assert planned.exit_code == 0, planned.output


def test_a_saved_plan_revokes_only_with_allow_revoke_and_refuses_a_grant_changed_since(
    tmp_path: Path, server: LocalGlue, lakeformation: Any
) -> None:
    root = _project(tmp_path / "project", server)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _project(root, server, CUSTOMERS.replace("permissions: [ALL], grantable: [ALL]", "permissions: [SELECT]"))
    saved = tmp_path / "revoke.json"
    assert gluecat("plan", str(root), "--out", str(saved)).exit_code == 0

    refused = gluecat("apply", str(saved))
    assert refused.exit_code == 1 and "--allow-revoke" in refused.output
    principal = {"DataLakePrincipalIdentifier": ETL}
    lakeformation.grant_permissions(
        Principal=principal, Resource={"Table": {"DatabaseName": "sales", "Name": "customers"}}, Permissions=["ALL"]
    )  # the same grant again: nothing changes, the plan still holds
    applied = gluecat("apply", str(saved), "--allow-revoke")
    assert applied.exit_code == 0, applied.output

    _project(root, server, CUSTOMERS.replace("permissions: [ALL], grantable: [ALL]", "permissions: [DESCRIBE]"))
    assert gluecat("plan", str(root), "--out", str(saved)).exit_code == 0
    lakeformation.grant_permissions(
        Principal=principal, Resource={"Table": {"DatabaseName": "sales", "Name": "customers"}}, Permissions=["INSERT"]
    )  # someone grants more meanwhile
    stale = gluecat("apply", str(saved), "--allow-revoke")
    assert stale.exit_code == 1
    assert f"sales.customers#grant.{ETL}" in stale.output and "stale" in stale.output


def test_json_and_markdown_show_a_revocation_as_its_own_impact(tmp_path: Path, server: LocalGlue) -> None:
    root = _project(tmp_path, server)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _project(
        root,
        server,
        CUSTOMERS.replace(
            f"{{principal: {ETL}, permissions: [ALL], grantable: [ALL]}}", f"{{principal: {ETL}, permissions: [ALL]}}"
        ),
    )

    shown = gluecat("plan", str(root), "--format", "json")
    assert shown.exit_code == 0, shown.output
    plan = json.loads(shown.stdout)
    assert plan["impact"] == "access" and plan["destructive"] is False
    (change,) = plan["changes"]
    assert (change["kind"], change["action"], change["impact"]) == ("grant", "update", "access")
    assert "loses the grant option on ALL" in change["findings"][0]["message"]
    markdown = gluecat("plan", str(root), "--format", "markdown")
    assert ":lock:" in markdown.stdout and f"sales.customers#grant.{ETL}" in markdown.stdout
    gated = gluecat("plan", str(root), "--fail-on", "breaking")
    assert gated.exit_code == 1  # losing access reaches past breaking
    assert "access change takes access away" in gated.stderr and "allow_breaking" not in gated.stderr, gated.stderr


def test_a_new_column_with_tags_is_added_then_tagged_and_replans_clean(tmp_path: Path, server: LocalGlue) -> None:
    root = _project(tmp_path, server)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    wider = CUSTOMERS.replace("grants:", "  - {name: phone, type: string, lf_tags: {tier: silver}}\ngrants:")
    _project(root, server, wider)

    planned = gluecat("plan", str(root))
    assert planned.exit_code == 0, planned.output
    assert "~ sales.customers " in planned.stdout and "+ sales.customers.phone#lf_tag.tier" in planned.stdout
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    again = gluecat("plan", str(root), "--detailed-exitcode")
    assert again.exit_code == 0, again.output


def test_data_lake_admins_are_set_alone_and_removing_one_revokes(
    tmp_path: Path, server: LocalGlue, lakeformation: Any
) -> None:
    root = _project(tmp_path, server)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    settings = lakeformation.get_data_lake_settings()["DataLakeSettings"]
    assert [a["DataLakePrincipalIdentifier"] for a in settings["DataLakeAdmins"]] == [ADMIN]
    assert settings["CreateTableDefaultPermissions"]  # the other settings as they were

    (root / "catalog.yaml").write_text((root / "catalog.yaml").read_text().replace(f"[{ADMIN}]", "[]"))
    planned = gluecat("plan", str(root))
    assert (
        "lake_formation.data_lake_admins" in planned.stdout and "stop being data lake administrators" in planned.stdout
    )
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 1
    revoked = gluecat("apply", str(root), "--auto-approve", "--allow-revoke")
    assert revoked.exit_code == 0 and "1 list of data lake administrators updated" in revoked.stdout, revoked.stdout
    assert lakeformation.get_data_lake_settings()["DataLakeSettings"]["DataLakeAdmins"] == []
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_a_targeted_plan_holds_only_the_targeted_objects_access(tmp_path: Path, server: LocalGlue) -> None:
    root = _project(tmp_path, server)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _project(root, server, CUSTOMERS.replace("permissions: [ALL], grantable: [ALL]", "permissions: [ALL]"))
    (root / "catalog.yaml").write_text(
        (root / "catalog.yaml").read_text().replace("tier: [gold,", "tier: [bronze, gold,")
    )

    targeted = gluecat("plan", str(root), "--target", "sales.customers", "--format", "json")
    assert targeted.exit_code == 0, targeted.output
    assert [c["address"] for c in json.loads(targeted.stdout)["changes"]] == [f"sales.customers#grant.{ETL}"]
    whole = gluecat("plan", str(root), "--format", "json")
    assert {c["address"] for c in json.loads(whole.stdout)["changes"]} == {
        "lf_tag.tier",
        f"sales.customers#grant.{ETL}",
    }


def test_import_over_files_whose_grants_are_in_another_order_leaves_them_unchanged(
    tmp_path: Path, server: LocalGlue
) -> None:
    reordered = CUSTOMERS.replace(
        f"  - {{principal: {ETL}, permissions: [ALL], grantable: [ALL]}}\n"
        f"  - {{principal: {ANALYST}, permissions: [SELECT], columns: [customer_id]}}\n",
        f"  - {{principal: {ANALYST}, permissions: [SELECT], columns: [CUSTOMER_ID]}}\n"
        f"  - {{principal: {ETL}, permissions: [ALL], grantable: [ALL]}}\n",
    )
    assert reordered != CUSTOMERS
    root = _project(tmp_path, server, reordered)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "sales" / "database.yaml").write_text(
        DATABASE.replace("permissions: [CREATE_TABLE, DESCRIBE]", "permissions: [DESCRIBE, CREATE_TABLE]")
    )
    before = (root / "sales" / "tables" / "customers.yaml").read_text()

    imported = gluecat("import", str(root))
    assert imported.exit_code == 0, imported.output
    assert "0 differ" in imported.stdout
    assert (root / "sales" / "tables" / "customers.yaml").read_text() == before
