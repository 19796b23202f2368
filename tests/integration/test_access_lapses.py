"""Access never lapses unseen: an administrator added or a tag assignment changed after the plan makes
the apply stale (saved plans and fresh applies alike), and a replace that drops grants needs
--allow-revoke."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import boto3
import pytest

from gluecat.cli import planning
from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, sales_project, write_project

ADMIN = "arn:aws:iam::123456789012:role/lake-admin"
LATER = "arn:aws:iam::123456789012:role/added-after-the-plan"
READER = "arn:aws:iam::123456789012:role/reader"
CATALOG = f"data_lake_admins: [{ADMIN}]\nlf_tags:\n  tier: [gold, silver]\n"
DATABASE = "location: s3://lake/sales/\n"
CUSTOMERS = """\
storage: csv
lf_tags: {tier: gold}
columns:
  - {name: customer_id, type: bigint}
"""
VIEW = """\
format: view
dialect: athena
sql: SELECT 1 AS one
columns:
  - {name: one, type: int}
"""
TABLE = {"Table": {"DatabaseName": "sales", "Name": "customers"}}


@pytest.fixture
def lakeformation(server: LocalGlue) -> Any:
    return boto3.client("lakeformation", endpoint_url=server.endpoint_url, region_name="us-east-1")


def _project(root: Path, server: LocalGlue, catalog: str = CATALOG, customers: str = CUSTOMERS) -> Path:
    files = {"sales/database.yaml": DATABASE, "sales/tables/customers.yaml": customers}
    return write_project(root, server.endpoint_url, files, catalog)


def _admins(lakeformation: Any) -> list[str]:
    settings = lakeformation.get_data_lake_settings()["DataLakeSettings"]
    return sorted(a["DataLakePrincipalIdentifier"] for a in settings.get("DataLakeAdmins") or [])


def _add_admin(lakeformation: Any, principal: str) -> None:
    settings = lakeformation.get_data_lake_settings()["DataLakeSettings"]
    settings["DataLakeAdmins"] = [*settings.get("DataLakeAdmins", []), {"DataLakePrincipalIdentifier": principal}]
    lakeformation.put_data_lake_settings(DataLakeSettings=settings)


def _tier(lakeformation: Any) -> list[str]:
    tags = lakeformation.get_resource_lf_tags(Resource=TABLE, ShowAssignedLFTags=True).get("LFTagsOnTable") or []
    return [v for t in tags if t["TagKey"] == "tier" for v in t["TagValues"]]


def _answering_yes(monkeypatch: pytest.MonkeyPatch, meanwhile: Callable[[], None]) -> None:
    """apply without --auto-approve, as at a terminal: `meanwhile` runs while it waits for the "yes"."""

    def confirmed() -> bool:
        meanwhile()
        return True

    monkeypatch.setattr(planning, "_require_terminal", lambda: None)
    monkeypatch.setattr(planning, "_confirmed", confirmed)


def _stale(result: Any, address: str) -> None:
    assert result.exit_code == 1, result.output
    assert "the plan is stale" in result.output and address in result.output, result.output
    assert "Traceback" not in result.output


def test_a_saved_plan_never_removes_an_administrator_added_after_it(
    tmp_path: Path, server: LocalGlue, lakeformation: Any
) -> None:
    root = _project(tmp_path / "p", server)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _project(root, server, CATALOG.replace(f"[{ADMIN}]", f"[{ADMIN}, {READER}]"))
    saved = tmp_path / "plan.json"
    assert gluecat("plan", str(root), "--out", str(saved)).exit_code == 0
    _add_admin(lakeformation, LATER)

    _stale(gluecat("apply", str(saved), "--allow-revoke"), "lake_formation.data_lake_admins")
    assert _admins(lakeformation) == sorted([ADMIN, LATER])


def test_a_fresh_apply_never_removes_an_administrator_added_while_it_waited(
    tmp_path: Path, server: LocalGlue, lakeformation: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path, server)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _project(root, server, CATALOG.replace(f"[{ADMIN}]", f"[{ADMIN}, {READER}]"))
    _answering_yes(monkeypatch, lambda: _add_admin(lakeformation, LATER))

    _stale(gluecat("apply", str(root)), "lake_formation.data_lake_admins")
    assert _admins(lakeformation) == sorted([ADMIN, LATER])


def test_a_saved_plan_never_overwrites_a_tag_assignment_changed_after_it(
    tmp_path: Path, server: LocalGlue, lakeformation: Any
) -> None:
    root = _project(tmp_path / "p", server)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _project(root, server, customers=CUSTOMERS.replace("tier: gold", "tier: silver"))
    saved = tmp_path / "plan.json"
    assert gluecat("plan", str(root), "--out", str(saved)).exit_code == 0
    lakeformation.remove_lf_tags_from_resource(Resource=TABLE, LFTags=[{"TagKey": "tier", "TagValues": ["gold"]}])

    _stale(gluecat("apply", str(saved), "--allow-revoke"), "sales.customers#lf_tag.tier")
    assert _tier(lakeformation) == []
    # the plan read "gold": planned again, it sees what Lake Formation holds now
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    assert _tier(lakeformation) == ["silver"]


def test_a_fresh_apply_never_overwrites_a_tag_assigned_while_it_waited(
    tmp_path: Path, server: LocalGlue, lakeformation: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _project(tmp_path, server, customers=CUSTOMERS.replace("lf_tags: {tier: gold}\n", ""))
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _project(root, server)  # the plan assigns tier=gold where nothing is assigned

    def someone_tags() -> None:
        lakeformation.add_lf_tags_to_resource(Resource=TABLE, LFTags=[{"TagKey": "tier", "TagValues": ["silver"]}])

    _answering_yes(monkeypatch, someone_tags)
    _stale(gluecat("apply", str(root)), "sales.customers#lf_tag.tier")
    assert _tier(lakeformation) == ["silver"]


def test_a_replace_that_drops_grants_the_yaml_does_not_list_needs_allow_revoke(
    tmp_path: Path, server: LocalGlue, lakeformation: Any
) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    principal = {"DataLakePrincipalIdentifier": READER}
    table = {"Table": {"DatabaseName": "sales", "Name": "orders"}}
    lakeformation.grant_permissions(Principal=principal, Resource=table, Permissions=["SELECT", "DESCRIBE"])
    (root / "sales/tables/orders.yaml").write_text(VIEW)  # a table becoming a view: a replace

    planned = gluecat("plan", str(root), "--format", "json")
    assert planned.exit_code == 0, planned.output
    assert "drops its Lake Formation grants" in planned.stdout and READER in planned.stdout
    assert '"access"' in planned.stdout

    refused = gluecat("apply", str(root), "--auto-approve", "--allow-destroy")
    assert refused.exit_code == 1 and "--allow-revoke" in refused.output and "sales.orders" in refused.output
    assert any(p["Principal"] == principal for p in lakeformation.list_permissions()["PrincipalResourcePermissions"])

    applied = gluecat("apply", str(root), "--auto-approve", "--allow-destroy", "--allow-revoke")
    assert applied.exit_code == 0, applied.output
    held = lakeformation.list_permissions()["PrincipalResourcePermissions"]
    assert not any(p["Principal"] == principal for p in held)


def test_a_replace_whose_grants_the_plan_gives_back_needs_no_allow_revoke(
    tmp_path: Path, server: LocalGlue, lakeformation: Any
) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "sales/tables/orders.yaml").write_text(VIEW)  # only the default grant is held: it comes back
    applied = gluecat("apply", str(root), "--auto-approve", "--allow-destroy")
    assert applied.exit_code == 0, applied.output
