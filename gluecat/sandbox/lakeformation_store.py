"""What the local Lake Formation holds: grants, LF-tag keys and the tags on databases, tables, columns.

Checked as Lake Formation checks them (API reference): a grant names a principal and a resource
that exists in the catalog (its columns too); grant options are a subset of the permissions; column
grants hold SELECT only; a tag key and value must be defined before they are assigned; a resource has
at most one value per key, and assigning a key sets that key's value alone.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

DEFAULT_ACCOUNT_ID = "123456789012"  # moto's, spelled here: a command importing this loads no moto


Shape = dict[str, Any]
_SCOPE = re.compile(r"Credential=([^/,\s]+)/[^/]+/([^/]+)/([^/]+)/")
TABLE_ALL = ("ALTER", "DELETE", "DESCRIBE", "DROP", "INSERT")
ON_DATABASE = {"ALL", "ALTER", "CREATE_TABLE", "DESCRIBE", "DROP"}
ON_TABLE = {"ALL", "ALTER", "DELETE", "DESCRIBE", "DROP", "INSERT", "SELECT"}
ON_POLICY = ON_DATABASE | ON_TABLE


class Fault(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def service(environ: dict[str, Any]) -> str:
    match = _SCOPE.search(str(environ.get("HTTP_AUTHORIZATION", "")))
    return match.group(3) if match else ""


def account_region(environ: dict[str, Any]) -> tuple[str, str]:
    match = _SCOPE.search(str(environ.get("HTTP_AUTHORIZATION", "")))
    return DEFAULT_ACCOUNT_ID, (match.group(2) if match else "us-east-1")


def _canonical(catalog: str, resource: Shape) -> Shape:
    """The resource as listed: the catalog id filled in, names and tag values in one order."""
    kind, inner = next(iter(resource.items()))
    inner = {**inner, "CatalogId": inner.get("CatalogId") or catalog} if isinstance(inner, dict) else inner
    if kind == "TableWithColumns":
        if inner.get("ColumnNames"):
            inner["ColumnNames"] = sorted({c.lower() for c in inner["ColumnNames"]})
        wildcard = inner.get("ColumnWildcard")
        if wildcard is not None:
            excluded = sorted({c.lower() for c in wildcard.get("ExcludedColumnNames") or []})
            inner["ColumnWildcard"] = {"ExcludedColumnNames": excluded} if excluded else {}
    if kind == "LFTagPolicy":
        terms = inner.get("Expression") or []
        inner["Expression"] = sorted(
            ({"TagKey": t["TagKey"], "TagValues": sorted(set(t["TagValues"]))} for t in terms),
            key=lambda t: str(t["TagKey"]),
        )
    return {kind: inner}


@dataclass
class _Held:
    resource: Shape
    permissions: set[str] = field(default_factory=set)
    grantable: set[str] = field(default_factory=set)


@dataclass
class Store:
    grants: dict[str, dict[tuple[str, str], _Held]] = field(default_factory=dict)
    tags: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    assigned: dict[str, dict[tuple[str, ...], dict[str, str]]] = field(default_factory=dict)
    settings: dict[str, Shape] = field(default_factory=dict)

    def clear(self) -> None:
        self.settings.clear()
        self.grants.clear()
        self.tags.clear()
        self.assigned.clear()

    # persistence

    def export(self) -> Shape:
        grants = {
            catalog: [
                {"principal": p, "resource": h.resource, "permissions": sorted(h.permissions),
                 "grantable": sorted(h.grantable)}
                for (p, _), h in held.items()
            ]
            for catalog, held in self.grants.items()
        }  # fmt: skip
        assigned = {c: [[list(t), v] for t, v in a.items()] for c, a in self.assigned.items()}
        return {"grants": grants, "tags": self.tags, "assigned": assigned, "settings": self.settings}

    def load(self, data: Shape) -> None:
        self.clear()
        for catalog, entries in (data.get("grants") or {}).items():
            for e in entries:
                key = (e["principal"], json.dumps(e["resource"], sort_keys=True))
                held = _Held(e["resource"], set(e["permissions"]), set(e["grantable"]))
                self.grants.setdefault(catalog, {})[key] = held
        self.tags = {c: dict(t) for c, t in (data.get("tags") or {}).items()}
        self.settings = dict(data.get("settings") or {})
        self.assigned = {c: {tuple(t): dict(v) for t, v in a} for c, a in (data.get("assigned") or {}).items()}

    # settings

    def data_lake_settings(self, catalog: str) -> Shape:
        """As a new account's: no administrators, and IAM_ALLOWED_PRINCIPALS holding ALL on what is created."""
        everyone = [{"Principal": {"DataLakePrincipalIdentifier": "IAM_ALLOWED_PRINCIPALS"}, "Permissions": ["ALL"]}]
        default = {"DataLakeAdmins": [], "CreateDatabaseDefaultPermissions": everyone,
                   "CreateTableDefaultPermissions": everyone, "TrustedResourceOwners": []}  # fmt: skip
        return self.settings.get(catalog) or default

    def put_data_lake_settings(self, catalog: str, settings: Shape) -> None:
        admins = settings.get("DataLakeAdmins") or []
        if len(admins) > 30 or any(not (a or {}).get("DataLakePrincipalIdentifier") for a in admins):
            raise Fault("InvalidInputException", "DataLakeAdmins holds 0 to 30 principals, each with an identifier")
        self.settings[catalog] = settings

    # grants

    def check_grant(self, catalog: str, region: str, entry: Shape) -> None:
        principal = (entry.get("Principal") or {}).get("DataLakePrincipalIdentifier")
        if not principal:
            raise Fault("InvalidInputException", "Principal.DataLakePrincipalIdentifier is required")
        resource = entry.get("Resource") or {}
        if len(resource) != 1:
            raise Fault("InvalidInputException", "Resource must name exactly one resource")
        permissions = set(entry.get("Permissions") or [])
        options = set(entry.get("PermissionsWithGrantOption") or [])
        if not permissions and not options:
            raise Fault("InvalidInputException", "Permissions must not be empty")
        kind, inner = next(iter(resource.items()))
        allowed = {"Database": ON_DATABASE, "Table": ON_TABLE, "TableWithColumns": {"SELECT"}}.get(kind, ON_POLICY)
        if (permissions | options) - allowed:
            raise Fault("InvalidInputException", f"Permissions modification is invalid: {kind} takes {sorted(allowed)}")
        if kind == "TableWithColumns" and options and (inner.get("ColumnWildcard") or {}).get("ExcludedColumnNames"):
            # Developer Guide, column-level filtering: the grant option needs an include list
            raise Fault("InvalidInputException", "Grant option with column filtering requires an include list")
        if kind == "Database":
            _glue_table(region, inner.get("Name", ""), None)
        elif kind in ("Table", "TableWithColumns") and inner.get("Name"):
            columns = _glue_table(region, inner.get("DatabaseName", ""), inner["Name"])
            named = inner.get("ColumnNames") or (inner.get("ColumnWildcard") or {}).get("ExcludedColumnNames") or []
            missing = [c for c in named if c.lower() not in columns]
            if missing:
                raise Fault("InvalidInputException", f"Column {missing[0]} not found in table {inner['Name']}")
        elif kind == "LFTagPolicy":
            for term in inner.get("Expression") or []:
                self._defined(catalog, term.get("TagKey", ""), term.get("TagValues") or [])

    def grant(self, catalog: str, entry: Shape) -> None:
        """Grant options are read from PermissionsWithGrantOption (the API's name), and kept."""
        for resource, permissions, options in _expanded(entry):
            if not permissions and not options:
                continue
            held = self._held(catalog, entry, resource, create=True)
            assert held is not None
            held.permissions |= permissions | options
            held.grantable |= options

    def revoke(self, catalog: str, entry: Shape) -> None:
        touched = False
        for resource, permissions, options in _split_select(entry):
            held = self._held(catalog, entry, resource, create=False)
            if held is None or not (held.permissions & permissions or held.grantable & options):
                continue
            touched = True
            held.permissions -= permissions
            held.grantable -= options | permissions
            if not held.permissions and not held.grantable:
                principal = entry["Principal"]["DataLakePrincipalIdentifier"]
                del self.grants[catalog][(principal, json.dumps(held.resource, sort_keys=True))]
        if not touched:
            raise Fault("InvalidInputException", "Grantee has no permissions and no grantable permissions on resource")

    def _held(self, catalog: str, entry: Shape, resource: Shape, create: bool) -> _Held | None:
        listed = _canonical(catalog, resource)
        key = (entry["Principal"]["DataLakePrincipalIdentifier"], json.dumps(listed, sort_keys=True))
        held = self.grants.setdefault(catalog, {})
        if key not in held and create:
            held[key] = _Held(listed)
        return held.get(key)

    def list_permissions(self, catalog: str, body: Shape) -> list[Shape]:
        principal = (body.get("Principal") or {}).get("DataLakePrincipalIdentifier")
        resource_type = body.get("ResourceType")
        wanted = _canonical(catalog, body["Resource"]) if body.get("Resource") else None
        found = []
        for (who, _), held in sorted(self.grants.get(catalog, {}).items()):
            if principal and who != principal:
                continue
            if resource_type and not _of_type(held.resource, resource_type):
                continue
            if wanted is not None and not _matches(held.resource, wanted):
                continue
            found.append({
                "Principal": {"DataLakePrincipalIdentifier": who},
                "Resource": held.resource,
                "Permissions": sorted(held.permissions),
                "PermissionsWithGrantOption": sorted(held.grantable),
            })  # fmt: skip
        return found

    # LF-tag keys

    def tags_of(self, catalog: str) -> dict[str, list[str]]:
        return self.tags.get(catalog, {})

    def tag_values(self, catalog: str, key: str) -> list[str]:
        if key not in self.tags_of(catalog):
            raise Fault("EntityNotFoundException", f"Tag key {key} does not exist")
        return self.tags[catalog][key]

    def create_tag(self, catalog: str, key: str, values: list[str]) -> None:
        _values_per_call(values)
        if key in self.tags_of(catalog):
            raise Fault("AlreadyExistsException", f"Tag key {key} already exists")
        self.tags.setdefault(catalog, {})[key] = list(dict.fromkeys(values))

    def update_tag(self, catalog: str, key: str, add: list[str], delete: list[str]) -> None:
        if not add and not delete:
            raise Fault("InvalidInputException", "TagValuesToAdd or TagValuesToDelete is required")
        for values in (add, delete):
            if values:
                _values_per_call(values)
        held = self.tag_values(catalog, key)
        absent = [v for v in delete if v not in held]
        if absent:
            raise Fault("EntityNotFoundException", f"Tag value {absent[0]} does not exist for key {key}")
        kept = [v for v in held if v not in delete] + [v for v in add if v not in held]
        if not kept:
            raise Fault("InvalidInputException", f"Tag key {key} must keep at least one value")
        if len(kept) > 1000:
            raise Fault("InvalidInputException", "An LF-tag holds at most 1000 values")
        self.tags[catalog][key] = list(dict.fromkeys(kept))
        for tags in self.assigned.get(catalog, {}).values():
            if tags.get(key) in delete:
                del tags[key]

    def delete_tag(self, catalog: str, key: str) -> None:
        self.tag_values(catalog, key)
        del self.tags[catalog][key]
        for tags in self.assigned.get(catalog, {}).values():
            tags.pop(key, None)

    def _defined(self, catalog: str, key: str, values: list[str]) -> None:
        held = self.tag_values(catalog, key)
        unknown = [v for v in values if v not in held and v != "*"]
        if unknown:
            raise Fault("EntityNotFoundException", f"Tag value {unknown[0]} does not exist for key {key}")

    # LF-tags on resources

    def add_resource_tags(self, catalog: str, region: str, resource: Shape, tags: list[Shape]) -> list[Shape]:
        targets = _targets(region, resource)
        if not 1 <= len(tags) <= 50:
            raise Fault("InvalidInputException", "LFTags must hold between 1 and 50 tags")
        failures = []
        for tag in tags:
            values = tag.get("TagValues") or []
            try:
                if len(values) != 1:
                    raise Fault("InvalidInputException", "A resource takes exactly one value of a tag key")
                self._defined(catalog, tag.get("TagKey", ""), values)
            except Fault as fault:
                failures.append({"LFTag": tag, "Error": {"ErrorCode": fault.code, "ErrorMessage": fault.message}})
                continue
            for target in targets:
                self.assigned.setdefault(catalog, {}).setdefault(target, {})[tag["TagKey"]] = values[0]
        return failures

    def remove_resource_tags(self, catalog: str, region: str, resource: Shape, tags: list[Shape]) -> list[Shape]:
        failures = []
        for target in _targets(region, resource):
            held = self.assigned.get(catalog, {}).get(target, {})
            for tag in tags:
                if held.get(tag.get("TagKey", "")) in (tag.get("TagValues") or []):
                    del held[tag["TagKey"]]
                else:
                    error = {"ErrorCode": "EntityNotFoundException", "ErrorMessage": "The tag is not on the resource"}
                    failures.append({"LFTag": tag, "Error": error})
        return failures

    def resource_tags(self, catalog: str, region: str, resource: Shape, assigned_only: bool) -> Shape:
        """Assigned tags, or (ShowAssignedLFTags false) with what each inherits from its database and table."""
        mine = self.assigned.get(catalog, {})

        def pairs(*levels: tuple[str, ...]) -> list[Shape]:
            merged: dict[str, str] = {}
            for level in levels if not assigned_only else levels[-1:]:
                merged.update(mine.get(level, {}))
            return [{"CatalogId": catalog, "TagKey": k, "TagValues": [v]} for k, v in sorted(merged.items())]

        targets = _targets(region, resource)
        first = targets[0]
        database, table = ("db", first[1]), (("table", first[1], first[2]) if len(first) > 2 else None)
        if first[0] == "db":
            return {"LFTagOnDatabase": pairs(database)}
        assert table is not None
        answer: Shape = {"LFTagOnDatabase": pairs(database), "LFTagsOnTable": pairs(database, table)}
        if first[0] == "column":
            answer["LFTagsOnColumns"] = [{"Name": t[3], "LFTags": pairs(database, table, t)} for t in targets]
        return answer


def _expanded(entry: Shape) -> list[tuple[Shape, set[str], set[str]]]:
    """A grant as Lake Formation keeps it: ALL on a table also lists what ALL holds, and SELECT on a
    table is kept on a column wildcard."""
    permissions = set(entry.get("Permissions") or [])
    options = set(entry.get("PermissionsWithGrantOption") or [])
    table = (entry.get("Resource") or {}).get("Table")
    if not table or not table.get("Name"):
        return [(entry["Resource"], permissions, options)]
    for held in (permissions, options):
        if "ALL" in held:
            held |= {*TABLE_ALL, "SELECT"}
    return _split_select({**entry, "Permissions": sorted(permissions), "PermissionsWithGrantOption": sorted(options)})


def _split_select(entry: Shape) -> list[tuple[Shape, set[str], set[str]]]:
    permissions = set(entry.get("Permissions") or [])
    options = set(entry.get("PermissionsWithGrantOption") or [])
    table = (entry.get("Resource") or {}).get("Table")
    if not table or not table.get("Name"):
        return [(entry["Resource"], permissions, options)]
    wildcard = {"TableWithColumns": {**table, "ColumnWildcard": {}}}
    select = {"SELECT"}
    return [
        (entry["Resource"], permissions - select, options - select),
        (wildcard, permissions & select, options & select),
    ]


def _of_type(resource: Shape, resource_type: str) -> bool:
    kind = next(iter(resource))
    if resource_type == "TABLE":
        return kind in ("Table", "TableWithColumns")
    if resource_type.startswith("LF_TAG_POLICY"):
        wanted = resource_type.removeprefix("LF_TAG_POLICY").strip("_")
        return kind == "LFTagPolicy" and (not wanted or resource["LFTagPolicy"]["ResourceType"] == wanted)
    names = {"DATABASE": "Database", "CATALOG": "Catalog", "DATA_LOCATION": "DataLocation", "LF_TAG": "LFTag"}
    return kind == names.get(resource_type)


def _matches(held: Shape, wanted: Shape) -> bool:
    """ListPermissions' Resource filter: a table's filter also finds its column grants."""
    kind, inner = next(iter(wanted.items()))
    mine_kind, mine = next(iter(held.items()))
    if kind == "Table" and mine_kind in ("Table", "TableWithColumns"):
        same = mine.get("DatabaseName") == inner.get("DatabaseName")
        return same and (inner.get("TableWildcard") is not None or mine.get("Name") == inner.get("Name"))
    return held == wanted


def _values_per_call(values: list[str]) -> None:
    if not 1 <= len(values) <= 50:
        raise Fault("InvalidInputException", "TagValues must hold between 1 and 50 values a call")


def _glue_table(region: str, database: str, table: str | None) -> set[str]:
    """The table's column names (partition keys too); EntityNotFoundException when it is not there."""
    from moto.glue.models import glue_backends

    found = glue_backends[DEFAULT_ACCOUNT_ID][region].databases.get(database.lower())
    if found is None:
        raise Fault("EntityNotFoundException", f"Database {database} not found")
    if table is None:
        return set()
    held = found.tables.get(table.lower())
    if held is None:
        raise Fault("EntityNotFoundException", f"Table {table} not found")
    shape = held.versions[str(held._current_version)]
    columns = (shape.get("StorageDescriptor") or {}).get("Columns") or []
    return {c["Name"].lower() for c in [*columns, *(shape.get("PartitionKeys") or [])]}


def _targets(region: str, resource: Shape) -> list[tuple[str, ...]]:
    if "Database" in resource:
        name = resource["Database"].get("Name", "")
        _glue_table(region, name, None)
        return [("db", name)]
    inner = resource.get("Table") or resource.get("TableWithColumns")
    if not inner or not inner.get("Name"):
        raise Fault("InvalidInputException", "Resource must be a database, a table or a table's columns")
    columns = _glue_table(region, inner.get("DatabaseName", ""), inner["Name"])
    if "Table" in resource:
        return [("table", inner["DatabaseName"], inner["Name"])]
    names = [c.lower() for c in inner.get("ColumnNames") or []]
    missing = [c for c in names if c not in columns]
    if missing or not names:
        raise Fault(
            "InvalidInputException", f"Column {missing[0] if missing else ''} not found in table {inner['Name']}"
        )
    return [("column", inner["DatabaseName"], inner["Name"], c) for c in names]
