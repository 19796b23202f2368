"""Grants by meaning: what a grant is about, whoever spelled it and however Lake Formation lists it.

Lake Formation lists a grant of ALL on a table expanded (ALL, ALTER, DELETE, DESCRIBE, DROP, INSERT on
the table, SELECT on a column wildcard), a table's SELECT as a column wildcard without exclusions, and
column names, tag keys and values in any order. Each grant here is keyed by principal and resource in
one canonical form, and permissions compare with ALL expanded, so none of these differences is a change.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from gluecat.backends import lakeformation as lf
from gluecat.changes.fingerprint import fingerprint
from gluecat.model.lakeformation import IMPLIED_BY_ALL, Grant, TagGrant, principal_text

Shape = dict[str, Any]
# ("database", db) | ("table", db, t) | ("columns", db, t, cols) | ("excluded", db, t, cols)
# | ("tag_policy", DATABASE|TABLE, ((key, values), ...))
Resource = tuple[Any, ...]
GrantKey = tuple[str, Resource]


@dataclass
class GrantState:
    """One principal's permissions on one resource; `raw`: the live entries they were listed as."""

    permissions: set[str] = field(default_factory=set)
    grantable: set[str] = field(default_factory=set)
    raw: list[Shape] = field(default_factory=list)
    predicted: bool = False  # a default grant Lake Formation will give an object this plan creates


def version_of(state: GrantState | None) -> str | None:
    """What a grant held when read, as its live entries say it (None: no grant), in any listing order."""
    if state is None or not state.raw:
        return None
    return fingerprint({"raw": sorted(state.raw, key=lambda entry: json.dumps(entry, sort_keys=True))})


def expand(permissions: Iterable[str], resource: Resource) -> frozenset[str]:
    """The permissions with what ALL holds on this kind of resource added."""
    held = frozenset(permissions)
    kind = _all_kind(resource)
    if "ALL" in held and kind:
        return held | IMPLIED_BY_ALL[kind]
    return held


def collapsed(permissions: set[str] | frozenset[str], resource: Resource) -> list[str] | None:
    """ALL alone when held, not its expansion: plans and imported files speak as the YAML does."""
    if not permissions:
        return None
    if "ALL" in permissions:
        return ["ALL", *sorted(permissions - expand({"ALL"}, resource))]
    return sorted(permissions)


def _all_kind(resource: Resource) -> str | None:
    if resource[0] in ("database", "table"):
        return str(resource[0])
    if resource[0] == "tag_policy":
        return "database" if resource[1] == "DATABASE" else "table"
    return None


def same(a: Iterable[str], b: Iterable[str], resource: Resource) -> bool:
    return expand(a, resource) == expand(b, resource)


def _columns(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted({n.lower() for n in names}))


def _expression(terms: Iterable[Shape]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple(sorted((t["TagKey"], tuple(sorted(set(t.get("TagValues") or [])))) for t in terms))


def live_resource(resource: Shape) -> Resource | None:
    """The canonical key of a resource as ListPermissions gives it; None for what gluecat does not manage
    (the catalog, data locations, table wildcards, LF-tags themselves, data cells filters)."""
    if "Database" in resource:
        return ("database", resource["Database"]["Name"])
    if "Table" in resource:
        table = resource["Table"]
        return ("table", table["DatabaseName"], table["Name"]) if table.get("Name") else None
    if "TableWithColumns" in resource:
        table = resource["TableWithColumns"]
        base = (table["DatabaseName"], table["Name"])
        if table.get("ColumnNames"):
            return ("columns", *base, _columns(table["ColumnNames"]))
        excluded = (table.get("ColumnWildcard") or {}).get("ExcludedColumnNames") or []
        return ("excluded", *base, _columns(excluded)) if excluded else ("table", *base)
    if "LFTagPolicy" in resource:
        policy = resource["LFTagPolicy"]
        return ("tag_policy", policy["ResourceType"], _expression(policy.get("Expression") or []))
    return None


def live_grants(entries: Iterable[Shape]) -> dict[GrantKey, GrantState]:
    """ListPermissions' entries folded by meaning: one state per principal and resource."""
    states: dict[GrantKey, GrantState] = {}
    for entry in entries:
        resource = live_resource(entry.get("Resource") or {})
        principal = (entry.get("Principal") or {}).get("DataLakePrincipalIdentifier")
        if resource is None or not principal:
            continue
        state = states.setdefault((principal_text(principal), resource), GrantState())
        state.permissions |= set(entry.get("Permissions") or [])
        state.grantable |= set(entry.get("PermissionsWithGrantOption") or [])
        state.raw.append(entry)
    return states


def grant_resource(database: str, table: str | None, grant: Grant) -> Resource:
    if table is None:
        return ("database", database)
    if grant.columns:
        return ("columns", database, table, _columns(grant.columns))
    if grant.excluded_columns:
        return ("excluded", database, table, _columns(grant.excluded_columns))
    return ("table", database, table)


def tag_grant_resource(grant: TagGrant) -> Resource:
    terms = [{"TagKey": k, "TagValues": v} for k, v in grant.expression.items()]
    return ("tag_policy", grant.resource.upper(), _expression(terms))


def api_resource(resource: Resource) -> Shape:
    """The resource to grant on, as the API takes it."""
    kind = resource[0]
    if kind == "database":
        return lf.database_resource(resource[1])
    if kind == "table":
        return lf.table_resource(resource[1], resource[2])
    if kind == "columns":
        return lf.columns_resource(resource[1], resource[2], resource[3])
    if kind == "excluded":
        return lf.excluded_resource(resource[1], resource[2], resource[3])
    return lf.tag_policy_resource(resource[1], {k: list(v) for k, v in resource[2]})


def resource_text(resource: Resource) -> str:
    """How a plan names the resource of a grant."""
    kind = resource[0]
    if kind == "database":
        return str(resource[1])
    if kind == "table":
        return f"{resource[1]}.{resource[2]}"
    if kind == "columns":
        return f"{resource[1]}.{resource[2]}[{','.join(resource[3])}]"
    if kind == "excluded":
        return f"{resource[1]}.{resource[2]}[all but {','.join(resource[3])}]"
    terms = ";".join(f"{k}={','.join(v)}" for k, v in resource[2])
    return f"{str(resource[1]).lower()}s tagged {terms}"
