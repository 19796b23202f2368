"""Lint rules for Lake Formation: tag values the key does not allow, grants on columns the table lacks,
principals that are not principals. Each is an error at the file and line that says it."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, get_args

from gluecat.model.lakeformation import Permission, is_principal, principal_text
from gluecat.model.suggest import closest, either
from gluecat.project.load import Project
from gluecat.project.rule_ids import declare
from gluecat.project.source import SourceFile
from gluecat.project.yamlparse import Loc

if TYPE_CHECKING:
    from gluecat.lint.rules import Finding

TAG_RULE = declare("lf-tag-value", "a Lake Formation tag value its key does not allow")
COLUMN_RULE = declare("grant-column", "a grant on a column the table does not have")
PRINCIPAL_RULE = declare(
    "grant-principal", "a grantee or data lake administrator that is no principal Lake Formation takes"
)
PERMISSION_RULE = declare("grant-permission", "a permission Lake Formation does not grant on that resource")
# What Lake Formation grants on each resource (Developer Guide: Lake Formation permissions reference).
# Data lake administrators are IAM users or roles (API reference: DataLakeSettings.DataLakeAdmins).
IAM_USER_OR_ROLE = re.compile(r"^arn:aws[a-z-]*:iam::[0-9]{12}:(role|user)/.+")
PERMISSIONS = frozenset(get_args(Permission))
ON_DATABASE = frozenset({"ALL", "ALTER", "CREATE_TABLE", "DESCRIBE", "DROP"})
ON_TABLE = frozenset({"ALL", "ALTER", "DELETE", "DESCRIBE", "DROP", "INSERT", "SELECT"})


def access_findings(project: Project) -> Iterator[Finding]:
    from gluecat.lint.rules import Finding

    allowed = project.config.lf_tags
    config = project.source
    for i, admin in enumerate(project.config.data_lake_admins or []):
        if is_principal(admin) and not IAM_USER_OR_ROLE.match(admin):
            message = (
                f"'{admin}' cannot be a data lake administrator: Lake Formation takes IAM role or user ARNs"
                " only (arn:aws:iam::ACCOUNT:role/NAME or :user/NAME)"
            )
            yield Finding(config.position(("data_lake_admins", i)), "error", PRINCIPAL_RULE, message, "catalog")
        yield from _principal(config, ("data_lake_admins", i), admin, "catalog", ())
    for i, tag_grant in enumerate(project.config.tag_grants or []):
        yield from _principal(config, ("tag_grants", i), tag_grant.principal, "catalog")
        on = ON_DATABASE if tag_grant.resource == "database" else ON_TABLE
        yield from _permissions(
            config, ("tag_grants", i), tag_grant.permissions, on, f"{tag_grant.resource}s", "catalog"
        )
        for key, values in tag_grant.expression.items():
            for problem in _tag_problems(allowed, key, values):
                loc = ("tag_grants", i, "expression", key)
                yield Finding(config.position(loc), "error", TAG_RULE, problem, "catalog")
    for database in project.databases:
        model, source = database.model, database.source
        yield from _tags(allowed, source, (), model.lf_tags, database.name)
        yield from _refused_grants(source, model.grants or [], ON_DATABASE, "a database", database.name)
        for i, grant in _placed(source, model.grants or []):
            yield from _principal(source, ("grants", i), grant.principal, database.name)
            yield from _permissions(source, ("grants", i), grant.permissions, ON_DATABASE, "a database", database.name)
            if grant.columns or grant.excluded_columns:
                message = "a database grant names no columns (columns belong to table grants)"
                yield Finding(source.position(("grants", i)), "error", COLUMN_RULE, message, database.name)
        for table in database.tables:
            yield from _table(allowed, table.source, table.model, f"{database.name}.{table.name}")


def _table(allowed: Mapping[str, list[str]] | None, source: SourceFile, model: Any, address: str) -> Iterator[Finding]:
    from gluecat.lint.rules import Finding

    yield from _tags(allowed, source, (), getattr(model, "lf_tags", None), address)
    columns = list(getattr(model, "columns", None) or [])
    written = _written_columns(source, "columns")
    for i, column in enumerate(columns):
        at = written.get(column.name.lower(), i)  # validate leaves out a column it refused: find this one's place
        yield from _tags(allowed, source, ("columns", at), column.lf_tags, address)
    keys = list(getattr(model, "partition_keys", None) or [])
    for i, key in enumerate(keys):
        if getattr(key, "lf_tags", None):
            at = _written_columns(source, "partition_keys").get(key.name.lower(), i)
            message = (
                f"LF-tags on partition key '{key.name}' are not managed (gluecat tags tables and their columns);"
                " tag the table instead"
            )
            yield Finding(
                source.position(("partition_keys", at, "lf_tags"), at_key=True), "error", TAG_RULE, message, address
            )
    names = {c.name.lower() for c in [*columns, *keys]} | set(written)
    names |= {n.lower() for n in getattr(model, "partition_columns", None) or []}
    # A column entry without a readable name (a typo'd `nme:` already reported) leaves the names unknown.
    complete = all(isinstance(c, dict) and isinstance(c.get("name"), str) for c in _written(source, "columns"))
    grants = list(getattr(model, "grants", None) or [])
    yield from _refused_grants(source, grants, ON_TABLE, "a table", address)
    for i, grant in _placed(source, grants):
        yield from _principal(source, ("grants", i), grant.principal, address)
        yield from _permissions(source, ("grants", i), grant.permissions, ON_TABLE, "a table", address)
        if grant.excluded_columns and {"SELECT", "ALL"} & set(grant.grantable):
            message = (
                "Lake Formation grants SELECT with the grant option on an include list only: name the"
                " columns with `columns:` instead of `excluded_columns:`, or drop SELECT from grantable"
            )
            yield Finding(source.position(("grants", i, "grantable")), "error", PERMISSION_RULE, message, address)
        field = "columns" if grant.columns else "excluded_columns"
        for j, name in enumerate(grant.columns or grant.excluded_columns or []):
            if names and complete and name.lower() not in names:
                close = closest(name.lower(), sorted(names))
                hint = f" — did you mean {either(close)}?" if close else ""
                message = f"the grant names column '{name}', which {address} does not have{hint}"
                yield Finding(source.position(("grants", i, field, j)), "error", COLUMN_RULE, message, address)


def _placed(source: SourceFile, grants: Sequence[Any]) -> list[tuple[int, Any]]:
    """Each grant validate kept, with its place in the file: validate leaves out a grant it refused
    (and the rest keep their order), so a later grant's finding must not land on the line before."""
    written = _written(source, "grants")
    placed: list[tuple[int, Any]] = []
    start = 0
    for i, grant in enumerate(grants):
        ahead = range(start, len(written))
        exact = [j for j in ahead if _same(written[j], grant, permissions=True)]
        loose = [j for j in ahead if _same(written[j], grant, permissions=False)]
        at = (exact or loose or [i])[0]
        placed.append((at, grant))
        start = max(start, at + 1)
    return placed


def _same(entry: Any, grant: Any, permissions: bool) -> bool:
    if not isinstance(entry, dict) or principal_text(entry.get("principal")) != grant.principal:
        return False
    held = entry.get("permissions")
    return not permissions or (isinstance(held, list) and sorted(map(str, held)) == sorted(grant.permissions))


def _refused_grants(
    source: SourceFile, grants: Sequence[Any], allowed: frozenset[str], what: str, address: str
) -> Iterator[Finding]:
    """A grant validate refused (grantable beyond its permissions, say) is still checked for what the
    rules say of its principal and permissions, so fixing one message reveals no other."""
    kept = {at for at, _ in _placed(source, grants)}
    for i, entry in enumerate(_written(source, "grants")):
        if i in kept or not isinstance(entry, dict):
            continue
        principal = principal_text(entry.get("principal"))
        if isinstance(principal, str) and principal:
            yield from _principal(source, ("grants", i), principal, address)
        held = entry.get("permissions")
        named = [p for p in held if isinstance(p, str) and p in PERMISSIONS] if isinstance(held, list) else []
        for j, permission in enumerate(named):
            if permission not in allowed:
                from gluecat.lint.rules import Finding

                message = f"{permission} is not granted on {what} (it takes {', '.join(sorted(allowed))})"
                at = held.index(permission) if isinstance(held, list) else j
                yield Finding(
                    source.position(("grants", i, "permissions", at)), "error", PERMISSION_RULE, message, address
                )


def _written(source: SourceFile, field: str) -> list[Any]:
    entries = source.data.get(field) if isinstance(source.data, dict) else None
    return entries if isinstance(entries, list) else []


def _written_columns(source: SourceFile, field: str) -> dict[str, int]:
    """Each column's place in the file by its lowercased name, as written (not as validate kept it)."""
    places: dict[str, int] = {}
    for i, entry in enumerate(_written(source, field)):
        if isinstance(entry, dict) and isinstance(entry.get("name"), str):
            places.setdefault(entry["name"].lower(), i)
    return places


def _tags(
    allowed: Mapping[str, list[str]] | None, source: SourceFile, where: Loc, tags: Mapping[str, str] | None,
    address: str,
) -> Iterator[Finding]:  # fmt: skip
    from gluecat.lint.rules import Finding

    for key, value in (tags or {}).items():
        for problem in _tag_problems(allowed, key, [value]):
            yield Finding(source.position((*where, "lf_tags", key)), "error", TAG_RULE, problem, address)


def _tag_problems(allowed: Mapping[str, list[str]] | None, key: str, values: list[str]) -> Iterator[str]:
    """Only against the keys catalog.yaml defines (tags defined elsewhere are not checked offline)."""
    if allowed is None:
        return
    if key not in allowed:
        known = ", ".join(sorted(allowed)) or "none"
        close = closest(key, sorted(allowed))
        hint = f"did you mean {either(close)}? " if close else ""
        yield f"LF-tag key '{key}' is not defined in catalog.yaml's lf_tags ({hint}defined: {known})"
        return
    for value in values:
        if value not in allowed[key]:
            close = closest(value, allowed[key])
            hint = f"did you mean {either(close)}? " if close else ""
            yield f"'{value}' is not an allowed value of LF-tag '{key}' ({hint}allowed: {', '.join(allowed[key])})"


def _principal(
    source: SourceFile, where: Loc, principal: str, address: str, field: Loc = ("principal",)
) -> Iterator[Finding]:
    from gluecat.lint.rules import Finding

    if not is_principal(principal):
        message = (
            f"'{principal}' is not a principal Lake Formation grants to: an IAM role or user ARN, a SAML"
            " user or group (arn:aws:iam::ACCOUNT:saml-provider/NAME:group/GROUP), an IAM Identity Center"
            " user or group (arn:aws:identitystore:::group/ID), an account id, ACCOUNT:IAMPrincipals, an"
            " organization or OU ARN, or IAM_ALLOWED_PRINCIPALS"
        )
        yield Finding(source.position((*where, *field)), "error", PRINCIPAL_RULE, message, address)


def _permissions(
    source: SourceFile, where: Loc, permissions: Sequence[str], allowed: frozenset[str], what: str, address: str
) -> Iterator[Finding]:
    from gluecat.lint.rules import Finding

    for j, permission in enumerate(permissions):
        if permission not in allowed:
            message = f"{permission} is not granted on {what} (it takes {', '.join(sorted(allowed))})"
            yield Finding(source.position((*where, "permissions", j)), "error", PERMISSION_RULE, message, address)
