"""What Lake Formation does when Glue creates or deletes a database or table.

A new database or table gets the data lake settings' default permissions (CreateDatabaseDefault-
Permissions, CreateTableDefaultPermissions: IAM_ALLOWED_PRINCIPALS holding ALL in a new account), as
Lake Formation grants them; a deleted one takes its grants and LF-tags with it.
"""

from __future__ import annotations

from typing import Any

from gluecat.sandbox.lakeformation_store import Store

Shape = dict[str, Any]


def glue_changed(store: Store, catalog: str, operation: str, body: Shape) -> None:
    if operation == "CreateDatabase":
        name = str((body.get("DatabaseInput") or {}).get("Name", "")).lower()
        _defaults(store, catalog, "CreateDatabaseDefaultPermissions", {"Database": {"Name": name}})
    elif operation == "CreateTable":
        database, name = str(body.get("DatabaseName", "")).lower(), str((body.get("TableInput") or {}).get("Name", ""))
        _defaults(
            store, catalog, "CreateTableDefaultPermissions", {"Table": {"DatabaseName": database, "Name": name.lower()}}
        )
    elif operation == "DeleteTable":
        _forget(store, catalog, str(body.get("DatabaseName", "")).lower(), str(body.get("Name", "")).lower())
    elif operation == "DeleteDatabase":
        _forget(store, catalog, str(body.get("Name", "")).lower(), None)


def _defaults(store: Store, catalog: str, setting: str, resource: Shape) -> None:
    for default in store.data_lake_settings(catalog).get(setting) or []:
        permissions = list(default.get("Permissions") or [])
        if permissions and (default.get("Principal") or {}).get("DataLakePrincipalIdentifier"):
            entry = {"Principal": default["Principal"], "Resource": resource, "Permissions": permissions}
            store.grant(catalog, {**entry, "PermissionsWithGrantOption": []})


def _forget(store: Store, catalog: str, database: str, table: str | None) -> None:
    """Every grant and tag on the table (its columns too), or on the database and all its tables."""

    def within(resource: Shape) -> bool:
        inner = next(iter(resource.values()))
        if not isinstance(inner, dict):
            return False
        held_database = str(inner.get("DatabaseName", inner.get("Name") if "Database" in resource else "")).lower()
        if held_database != database:
            return False
        return table is None or ("Database" not in resource and str(inner.get("Name", "")).lower() == table)

    held = store.grants.get(catalog, {})
    for key in [k for k, grant in held.items() if within(grant.resource)]:
        del held[key]
    tagged = store.assigned.get(catalog, {})
    for target in [t for t in tagged if t[1] == database and (table is None or (len(t) > 2 and t[2] == table))]:
        del tagged[target]
