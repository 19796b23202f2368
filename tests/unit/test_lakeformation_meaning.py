"""Grants and tags compare by meaning: what Lake Formation lists differently is not a change."""

from __future__ import annotations

from typing import Any

import pytest

from gluecat.access.desired import DesiredAccess
from gluecat.access.diff import access_changes
from gluecat.access.live import LiveAccess
from gluecat.access.meaning import GrantState, live_grants
from gluecat.changes.impact import Impact
from gluecat.changes.model import Action
from gluecat.model.lakeformation import Grant, principal_text

ROLE = "arn:aws:iam::123456789012:role/etl"
TABLE = {"Table": {"CatalogId": "123456789012", "DatabaseName": "sales", "Name": "orders"}}
WILDCARD = {
    "TableWithColumns": {"CatalogId": "123456789012", "DatabaseName": "sales", "Name": "orders", "ColumnWildcard": {}}
}


def _listed(resource: dict[str, Any], permissions: list[str], options: list[str] = ()) -> dict[str, Any]:  # type: ignore[assignment]
    return {"Principal": {"DataLakePrincipalIdentifier": ROLE}, "Resource": resource,
            "Permissions": permissions, "PermissionsWithGrantOption": list(options)}  # fmt: skip


def _plan(want: dict[str, list[str]], listed: list[dict[str, Any]]) -> list[Any]:
    wanted = DesiredAccess(owned_grants={("table", "sales", "orders")})
    wanted.grants[(ROLE, ("table", "sales", "orders"))] = GrantState(
        set(want["permissions"]), set(want.get("grantable", []))
    )
    return access_changes(wanted, LiveAccess(grants=live_grants(listed)))


EXPANDED_ALL = [
    _listed(
        TABLE,
        ["ALL", "ALTER", "DELETE", "DESCRIBE", "DROP", "INSERT"],
        ["ALL", "ALTER", "DELETE", "DESCRIBE", "DROP", "INSERT"],
    ),
    _listed(WILDCARD, ["SELECT"], ["SELECT"]),
]


def test_all_against_its_expansion_is_no_change() -> None:
    assert _plan({"permissions": ["ALL"], "grantable": ["ALL"]}, EXPANDED_ALL) == []


def test_a_table_select_against_its_column_wildcard_form_is_no_change() -> None:
    assert _plan({"permissions": ["SELECT"]}, [_listed(WILDCARD, ["SELECT"])]) == []


def test_narrowing_all_to_select_revokes_the_rest_as_held_and_is_an_access_change() -> None:
    (change,) = _plan({"permissions": ["SELECT"]}, EXPANDED_ALL)
    assert change.action is Action.UPDATE and change.impact is Impact.ACCESS
    assert change.desired is not None and change.desired["grant"] == []
    revokes = {
        next(iter(e["Resource"])): (e["Permissions"], e["PermissionsWithGrantOption"]) for e in change.desired["revoke"]
    }
    assert revokes["Table"] == (
        ["ALL", "ALTER", "DELETE", "DESCRIBE", "DROP", "INSERT"],
        ["ALL", "ALTER", "DELETE", "DESCRIBE", "DROP", "INSERT"],
    )
    assert revokes["TableWithColumns"] == ([], ["SELECT"])  # SELECT stays; its grant option goes


def test_a_grant_option_added_is_granted_with_its_permission_and_is_safe() -> None:
    (change,) = _plan({"permissions": ["SELECT"], "grantable": ["SELECT"]}, [_listed(WILDCARD, ["SELECT"])])
    assert change.impact is Impact.SAFE
    assert change.desired is not None
    (entry,) = change.desired["grant"]
    assert (entry["Permissions"], entry["PermissionsWithGrantOption"]) == (["SELECT"], ["SELECT"])


def test_column_names_and_tag_values_in_another_order_are_the_same_resource() -> None:
    a = {"TableWithColumns": {"DatabaseName": "sales", "Name": "orders", "ColumnNames": ["b", "A"]}}
    b = {"TableWithColumns": {"DatabaseName": "sales", "Name": "orders", "ColumnNames": ["a", "b"]}}
    assert len(live_grants([_listed(a, ["SELECT"]), _listed(b, ["SELECT"])])) == 1
    policy = [{"TagKey": "tier", "TagValues": ["gold", "silver"]}, {"TagKey": "domain", "TagValues": ["web"]}]
    other = [{"TagKey": "domain", "TagValues": ["web"]}, {"TagKey": "tier", "TagValues": ["silver", "gold"]}]
    folded = live_grants([
        _listed({"LFTagPolicy": {"ResourceType": "TABLE", "Expression": policy}}, ["SELECT"]),
        _listed({"LFTagPolicy": {"ResourceType": "TABLE", "Expression": other}}, ["DESCRIBE"]),
    ])  # fmt: skip
    (state,) = folded.values()
    assert state.permissions == {"SELECT", "DESCRIBE"}


def test_tag_values_in_another_order_are_no_change_and_a_removed_value_revokes() -> None:
    wanted = DesiredAccess(tag_keys={"tier": ["gold", "silver"]})
    assert access_changes(wanted, LiveAccess(tag_keys={"tier": ["silver", "gold"]})) == []
    (change,) = access_changes(wanted, LiveAccess(tag_keys={"tier": ["silver", "gold", "bronze"]}))
    assert change.impact is Impact.ACCESS and change.desired == {"key": "tier", "add": [], "delete": ["bronze"]}


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("iam_allowed_principals", "IAM_ALLOWED_PRINCIPALS"),
        (123456789012, "123456789012"),
        (" arn:aws:iam::123456789012:role/etl ", ROLE),
        ("ARN:AWS:IAM::123456789012:role/etl", ROLE),
    ],
)
def test_principals_spelled_differently_are_one_principal(written: Any, meant: str) -> None:
    assert principal_text(written) == meant
    assert Grant(principal=written, permissions=["SELECT"]).principal == meant
