"""import adopts Lake Formation: the LF-tags and grants of the databases and tables it writes, and the
tag keys and tag-based grants for catalog.yaml, in the form a plan reads back without a change.

Reads: ListLFTags and ListPermissions once each (paged), and, when any tag key is defined,
GetResourceLFTags once per database and once per table (its columns with it). An object whose only
grant is IAM_ALLOWED_PRINCIPALS' (Lake Formation's default, IAM decides) is written without
`grants:`, so gluecat leaves its grants alone. A catalog where Lake Formation cannot be read (no permission to
it) is imported without, and says so.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from gluecat.access.meaning import GrantState, collapsed, live_grants
from gluecat.backends import lakeformation as lf
from gluecat.errors import GluecatError
from gluecat.model.lakeformation import IAM_ALLOWED_PRINCIPALS

Shape = dict[str, Any]


@dataclass
class AdoptedAccess:
    tag_keys: dict[str, list[str]] = field(default_factory=dict)
    admins: list[str] = field(default_factory=list)
    tag_grants: list[Shape] = field(default_factory=list)
    databases: dict[str, Shape] = field(default_factory=dict)
    tables: dict[tuple[str, str], Shape] = field(default_factory=dict)
    read: bool = False  # Lake Formation was read (a catalog with none, or unreadable: False)

    def catalog_keys(self) -> Shape:
        """What catalog.yaml holds of Lake Formation (nothing when it has none)."""
        keys: Shape = {"data_lake_admins": self.admins} if self.admins else {}
        if self.tag_keys:
            keys["lf_tags"] = self.tag_keys
        if self.tag_grants:
            keys["tag_grants"] = self.tag_grants
        return keys

    def onto_database(self, name: str, data: Shape) -> None:
        data.update(self.databases.get(name, {}))

    def onto_table(self, database: str, name: str, data: Shape) -> None:
        found = dict(self.tables.get((database, name), {}))
        columns = found.pop("columns", {})
        data.update(found)
        for column in data.get("columns") or []:
            tags = columns.get(str(column.get("name", "")).lower())
            if tags:
                column["lf_tags"] = tags


def adopt_access(
    client: lf.LakeFormation | None, tables: Iterable[tuple[str, Shape]], databases: Iterable[str],
    note: Callable[[str], None],
) -> AdoptedAccess:  # fmt: skip
    """`tables`: (database, live table) of every table import writes."""
    adopted = AdoptedAccess()
    if client is None:
        return adopted
    try:
        _read(client, list(tables), list(databases), adopted)
    except GluecatError as exc:
        note(f"Lake Formation was not imported (its tags and grants are left out): {exc}")
        return AdoptedAccess()
    adopted.read = True
    return adopted


def _read(client: lf.LakeFormation, tables: list[tuple[str, Shape]], databases: list[str], out: AdoptedAccess) -> None:
    out.admins = client.admins()
    out.tag_keys = {key: values for key, values in sorted(client.tags().items())}
    wanted_databases = set(databases)
    wanted_tables = {(db, t["Name"]) for db, t in tables}
    for (principal, resource), state in sorted(live_grants(client.permissions()).items(), key=str):
        grant = _grant(principal, resource, state)
        if resource[0] == "tag_policy":
            out.tag_grants.append(grant)
        elif resource[0] == "database" and resource[1] in wanted_databases:
            out.databases.setdefault(resource[1], {}).setdefault("grants", []).append(grant)
        elif resource[0] != "database" and (resource[1], resource[2]) in wanted_tables:
            out.tables.setdefault((resource[1], resource[2]), {}).setdefault("grants", []).append(grant)
    for found in [*out.databases.values(), *out.tables.values()]:
        if all(g["principal"] == IAM_ALLOWED_PRINCIPALS for g in found.get("grants", [])):
            found.pop("grants", None)  # Lake Formation's default (IAM decides): left alone, not owned
    if not out.tag_keys:
        return  # no key defined: no resource holds a tag (no call per table)
    for name in databases:
        tags = _pairs(client.resource_tags(lf.database_resource(name)).get("LFTagOnDatabase"))
        if tags:
            out.databases.setdefault(name, {})["lf_tags"] = tags
    for database, table in tables:
        columns = [c["Name"] for c in (table.get("StorageDescriptor") or {}).get("Columns") or []]
        asked = lf.columns_resource(database, table["Name"], columns) if columns else None
        answer = client.resource_tags(asked or lf.table_resource(database, table["Name"]))
        if "LFTagsOnTable" not in answer:  # a columns' answer without the table's own
            answer["LFTagsOnTable"] = client.resource_tags(lf.table_resource(database, table["Name"])).get(
                "LFTagsOnTable"
            )
        found = out.tables.setdefault((database, table["Name"]), {})
        tags = _pairs(answer.get("LFTagsOnTable"))
        if tags:
            found["lf_tags"] = tags
        by_column = {str(c["Name"]).lower(): _pairs(c.get("LFTags")) for c in answer.get("LFTagsOnColumns") or []}
        found["columns"] = {name: tags for name, tags in by_column.items() if tags}


def _grant(principal: str, resource: tuple[Any, ...], state: GrantState) -> Shape:
    grant: Shape = {"principal": principal, "permissions": collapsed(state.permissions, resource)}
    grantable = collapsed(state.grantable, resource)
    if grantable:
        grant["grantable"] = grantable
    if resource[0] == "columns":
        grant["columns"] = list(resource[3])
    elif resource[0] == "excluded":
        grant["excluded_columns"] = list(resource[3])
    elif resource[0] == "tag_policy":
        grant["resource"] = str(resource[1]).lower()
        grant["expression"] = {key: list(values) for key, values in resource[2]}
    return grant


def _pairs(pairs: Any) -> dict[str, str]:
    return {str(p["TagKey"]): str(p["TagValues"][0]) for p in pairs or [] if p.get("TagValues")}


def grants_by_meaning(data: Shape) -> Shape:
    """A file's grants as they mean: in any order, each one's permissions and columns in any order."""
    grants = data.get("grants")
    if not isinstance(grants, list):
        return data
    canonical = []
    for grant in grants:
        grant = dict(grant)
        for key in ("permissions", "grantable", "columns", "excluded_columns"):
            if isinstance(grant.get(key), list):
                grant[key] = sorted({str(v).lower() if "columns" in key else str(v) for v in grant[key]})
        canonical.append(grant)
    return {**data, "grants": sorted(canonical, key=lambda g: json.dumps(g, sort_keys=True, default=str))}
