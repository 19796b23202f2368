"""Read what Lake Formation holds of what the project owns: few calls, every list paged."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from gluecat.access.desired import DesiredAccess, TagTarget
from gluecat.access.meaning import GrantKey, GrantState, Resource, api_resource, expand, live_grants
from gluecat.backends import lakeformation as lf
from gluecat.errors import LiveStateError
from gluecat.model.lakeformation import principal_text

Shape = dict[str, object]
READ_WORKERS = 8


@dataclass
class LiveAccess:
    tag_keys: dict[str, list[str]] = field(default_factory=dict)
    admins: list[str] = field(default_factory=list)
    assignments: dict[TagTarget, dict[str, str]] = field(default_factory=dict)
    grants: dict[GrantKey, GrantState] = field(default_factory=dict)


def read_access(client: lf.LakeFormation, wanted: DesiredAccess, exists: Callable[[TagTarget], bool]) -> LiveAccess:
    """`exists`: whether a database or table is in the live catalog (one the plan creates is not,
    and holds nothing yet)."""
    live = LiveAccess()
    if wanted.tag_keys is not None:
        live.tag_keys = client.tags()
    if wanted.admins is not None:
        live.admins = client.admins()
    if wanted.owned_grants or wanted.owns_tag_grants:
        live.grants = live_grants(client.permissions())
        fresh = [resource for resource in wanted.owned_grants if not exists(resource)]
        if fresh:
            _predict_defaults(client, live, fresh)
    tables: dict[tuple[str, str], list[str]] = {}
    objects = []
    for target in wanted.assignments:
        if target[0] == "column":
            tables.setdefault((target[1], target[2]), []).append(target[3])
        elif exists(target):
            objects.append(target)
    columned = [key for key in tables if exists(("table", *key))]
    with ThreadPoolExecutor(max_workers=READ_WORKERS) as pool:  # one call per object, READ_WORKERS at once
        for target, tags in zip(objects, pool.map(partial(_object_tags, client), objects), strict=True):
            live.assignments[target] = tags
        asked = [(database, table, sorted(tables[(database, table)])) for database, table in columned]
        for (database, table, _), found in zip(asked, pool.map(lambda a: _column_tags(client, *a), asked), strict=True):
            for column in found:
                name = str(column["Name"]).lower()
                live.assignments[("column", database, table, name)] = _pairs(column.get("LFTags"))
    return live


def _predict_defaults(client: lf.LakeFormation, live: LiveAccess, fresh: list[Resource]) -> None:
    """A database or table this plan creates (or replaces) will hold what the data lake settings grant
    every new one (IAM_ALLOWED_PRINCIPALS' ALL, unless the settings were changed), and nothing else."""
    settings = client.settings()
    for key in [k for k in live.grants if _base(k[1]) in fresh]:
        del live.grants[key]
    for resource in fresh:
        setting = "CreateDatabaseDefaultPermissions" if resource[0] == "database" else "CreateTableDefaultPermissions"
        for default in settings.get(setting) or []:
            principal = principal_text((default.get("Principal") or {}).get("DataLakePrincipalIdentifier", ""))
            permissions = set(default.get("Permissions") or [])
            if principal and permissions:
                listed = sorted(expand(permissions, resource))  # revoked as Lake Formation lists it
                raw = {"Principal": {"DataLakePrincipalIdentifier": principal}, "Resource": api_resource(resource),
                       "Permissions": listed, "PermissionsWithGrantOption": []}  # fmt: skip
                live.grants[(principal, resource)] = GrantState(permissions, set(), [raw], predicted=True)


def _base(resource: Resource) -> Resource:
    if resource[0] == "database":
        return resource
    return ("table", resource[1], resource[2]) if resource[0] != "tag_policy" else resource


def _object_tags(client: lf.LakeFormation, target: TagTarget) -> dict[str, str]:
    resource = lf.database_resource(target[1]) if target[0] == "database" else lf.table_resource(*target[1:])
    answer = _tags_of(client, resource)
    return _pairs(answer.get("LFTagOnDatabase") if target[0] == "database" else answer.get("LFTagsOnTable"))


def _column_tags(client: lf.LakeFormation, database: str, table: str, columns: list[str]) -> list[Any]:
    """The columns' tags in one call; a column the live table lacks yet (this plan adds it) fails that
    call, and then each column is asked alone, the new ones holding nothing."""
    try:
        return list(_tags_of(client, lf.columns_resource(database, table, columns)).get("LFTagsOnColumns") or [])
    except LiveStateError as exc:
        if "InvalidInputException" not in str(exc) or len(columns) == 1:
            if "InvalidInputException" in str(exc):
                return []
            raise
    return [found for column in columns for found in _column_tags(client, database, table, [column])]


def assigned_now(client: lf.LakeFormation, resource: Shape) -> dict[str, str]:
    """The tags assigned to one database, table or single column (its API resource shape) now;
    {} when it is not in the catalog (yet), or the column not in the table."""
    try:
        answer = _tags_of(client, resource)
    except LiveStateError as exc:
        if "InvalidInputException" in str(exc) and "TableWithColumns" in resource:
            return {}
        raise
    if "Database" in resource:
        return _pairs(answer.get("LFTagOnDatabase"))
    if "Table" in resource:
        return _pairs(answer.get("LFTagsOnTable"))
    columns = answer.get("LFTagsOnColumns") or []
    return _pairs(columns[0].get("LFTags")) if columns else {}


def _tags_of(client: lf.LakeFormation, resource: dict[str, object]) -> dict[str, list[dict[str, object]]]:
    try:
        return client.resource_tags(resource)
    except LiveStateError as exc:
        if "EntityNotFoundException" in str(exc):  # not in the catalog yet: nothing assigned
            return {}
        raise


def _pairs(pairs: object) -> dict[str, str]:
    found: dict[str, str] = {}
    for pair in pairs if isinstance(pairs, list) else []:
        values = pair.get("TagValues") or []
        if values:
            found[str(pair["TagKey"])] = str(values[0])
    return found
