"""Who can read what: each table's Lake Formation grants as the site lists them.

A table's readers are its own grants (on the table, on some columns, on all columns but some), and the
tag-based grants whose expression its LF-tags match: a table's tags are its own over its database's,
a column's its own over its table's (Lake Formation's inheritance), so an expression matching the table
covers every column, and one matching only some columns covers those. From the YAML, and with `--live`
from Lake Formation's ListPermissions (one paged call); a tag-based grant is resolved against the
declared LF-tags."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gluecat.access.meaning import Resource, collapsed, grant_resource, live_grants, tag_grant_resource
from gluecat.model.lakeformation import IMPLIED_BY_ALL, Grant
from gluecat.project.load import Project

Tags = Mapping[str, str]
Expression = tuple[tuple[str, tuple[str, ...]], ...]
# (principal, resource) -> (permissions, grantable, source)
Held = dict[tuple[str, Resource], tuple[set[str], set[str], set[str]]]


def _hold(
    held: Held, principal: str, resource: Resource, permissions: Iterable[str], grantable: Iterable[str], source: str
) -> None:
    have, can_grant, sources = held.setdefault((principal, resource), (set(), set(), set()))
    have |= set(permissions)
    can_grant |= set(grantable)
    sources.add(source)


def declared_grants(project: Project) -> Held:
    held: Held = {}
    for grant in project.config.tag_grants or []:
        _hold(held, grant.principal, tag_grant_resource(grant), grant.permissions, grant.grantable, "declared")
    for db in project.databases:
        for found in db.model.grants or []:
            resource = grant_resource(db.name, None, found)
            _hold(held, found.principal, resource, found.permissions, found.grantable, "declared")
        for table in db.tables:
            for found in getattr(table.model, "grants", None) or []:
                assert isinstance(found, Grant)
                resource = grant_resource(db.name, table.name, found)
                _hold(held, found.principal, resource, found.permissions, found.grantable, "declared")
    return held


def add_live_grants(held: Held, entries: Iterable[dict[str, Any]]) -> None:
    """Lake Formation's ListPermissions entries, folded by meaning, beside the declared grants."""
    for (principal, resource), state in live_grants(entries).items():
        if resource[0] in ("database", "table", "columns", "excluded", "tag_policy"):
            _hold(held, principal, resource, state.permissions, state.grantable, "live")


def _matches(expression: Expression, tags: Tags) -> bool:
    return all(tags.get(key) in values for key, values in expression)


def readers(
    held: Held, database: str, table: str, columns: list[str], tags: Tags, column_tags: Mapping[str, Tags]
) -> list[dict[str, Any]]:
    """The table's grants, one entry per principal and way in: what they hold, on which columns, how."""
    found: list[dict[str, Any]] = []
    for (principal, resource), (permissions, grantable, sources) in sorted(held.items(), key=lambda i: repr(i[0])):
        entry: dict[str, Any] = {"principal": principal}
        if resource[0] in ("table", "columns", "excluded"):
            if (resource[1], resource[2]) != (database, table):
                continue
            entry["through"] = "grant"
            if resource[0] == "columns":
                entry["columns"] = list(resource[3])
            elif resource[0] == "excluded":
                entry["excluded_columns"] = list(resource[3])
        elif resource[0] == "tag_policy" and resource[1] == "TABLE":
            expression: Expression = resource[2]
            covered = [c for c in columns if _matches(expression, {**tags, **column_tags.get(c, {})})]
            if not covered and not _matches(expression, tags):
                continue
            if len(covered) < len(columns):
                entry["columns"] = covered
            entry["through"] = "LF-tags " + "; ".join(f"{k}={','.join(v)}" for k, v in expression)
        else:
            continue
        shown = set(permissions)
        if "ALL" in shown:
            shown |= IMPLIED_BY_ALL["table"]
        entry["permissions"] = collapsed(shown, ("table",)) or []
        entry["grantable"] = sorted(grantable)
        entry["reads"] = "SELECT" in shown
        entry["source"] = sorted(sources)
        found.append(entry)
    return found


def effective_tags(database_tags: Tags | None, table_tags: Tags | None) -> dict[str, str]:
    return {**(database_tags or {}), **(table_tags or {})}


def database_grants(held: Held, database: str, tags: Tags) -> list[dict[str, Any]]:
    """What each principal holds on the database itself (DESCRIBE, CREATE_TABLE ...: none of it reads
    a table), by its own grant or a tag-based grant on databases its LF-tags match."""
    found: list[dict[str, Any]] = []
    for (principal, resource), (permissions, grantable, sources) in sorted(held.items(), key=lambda i: repr(i[0])):
        if resource == ("database", database):
            through = "grant"
        elif resource[0] == "tag_policy" and resource[1] == "DATABASE" and _matches(resource[2], tags):
            through = "LF-tags " + "; ".join(f"{k}={','.join(v)}" for k, v in resource[2])
        else:
            continue
        shown = set(permissions) | (IMPLIED_BY_ALL["database"] if "ALL" in permissions else set())
        found.append({"principal": principal, "permissions": collapsed(shown, ("database",)) or [],
                      "grantable": sorted(grantable), "through": through, "source": sorted(sources)})  # fmt: skip
    return found
