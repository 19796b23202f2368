"""The access part of a plan: read only what the project owns, then diff it by meaning."""

from __future__ import annotations

from dataclasses import replace

from gluecat.access.desired import TagTarget, desired_access
from gluecat.access.diff import access_changes, revoking
from gluecat.access.live import read_access
from gluecat.access.meaning import collapsed, expand, live_grants, resource_text
from gluecat.backends.lakeformation import LakeFormation
from gluecat.changes.model import Action, Change
from gluecat.errors import AccessDeniedError, GluecatError
from gluecat.model.lakeformation import principal_text
from gluecat.project.load import Project
from gluecat.project.targets import Targets


def plan_access(
    project: Project, client: LakeFormation | None, targets: Targets, catalog_changes: tuple[Change, ...]
) -> list[Change]:
    """No call at all when the YAML declares nothing of Lake Formation. `catalog_changes`: the
    plan's database and table changes (what it creates, or deletes and creates, holds no tags yet,
    and only the grants Lake Formation gives a new object)."""
    wanted = desired_access(project, targets)
    if wanted.empty:
        return []
    if client is None:
        raise GluecatError(
            "lf_tags, grants and tag_grants need the Glue Data Catalog (Lake Formation),"
            f" not backend: {project.config.backend}"
        )
    created = {
        (c.kind, c.database, *((c.table,) if c.table else ()))
        for c in catalog_changes
        if c.action in (Action.CREATE, Action.REPLACE) and c.kind in ("database", "table")
    }

    def exists(target: TagTarget) -> bool:
        return target not in created and ("database", target[1]) not in created

    return access_changes(wanted, read_access(client, wanted, exists))


def replaced_grants(client: LakeFormation | None, catalog_changes: tuple[Change, ...], project: Project,
                    targets: Targets) -> tuple[tuple[Change, ...], list[str]]:  # fmt: skip
    """A replaced table is deleted and created again, and Lake Formation drops every grant it held:
    each replace that drops grants the plan does not give back (whether the YAML lists them or not)
    carries an `access` finding naming them, so it needs --allow-revoke as well as --allow-destroy.
    One ListPermissions, only when the plan replaces a table; credentials that may not read grants
    get a warning (the read is optional when the YAML declares no Lake Formation key)."""
    replaced = {(c.database, c.table) for c in catalog_changes if c.kind == "table" and c.action is Action.REPLACE}
    if client is None or not replaced:
        return catalog_changes, []
    wanted = desired_access(project, targets)
    try:
        held = live_grants(client.permissions())
        defaults = _table_defaults(client) if held else {}
    except AccessDeniedError as exc:
        shown = ", ".join(sorted(f"{d}.{t}" for d, t in replaced))
        return catalog_changes, [f"warning: the grants a replace drops are not known ({shown}): {exc}"]
    lost: dict[tuple[str, str | None], list[str]] = {}
    for (principal, resource), state in sorted(held.items(), key=lambda item: (resource_text(item[0][1]), item[0][0])):
        if resource[0] not in ("table", "columns", "excluded") or (resource[1], resource[2]) not in replaced:
            continue
        again = wanted.grants.get((principal, resource))
        default = defaults.get(principal, frozenset()) if resource[0] == "table" else frozenset()
        given = expand(again.permissions, resource) if again else default
        given_options = expand(again.grantable, resource) if again else frozenset()
        gone = expand(state.permissions, resource) - given
        gone_options = expand(state.grantable, resource) - given_options
        if gone or gone_options:
            what = collapsed(set(gone | gone_options), resource) or []
            lost.setdefault((resource[1], resource[2]), []).append(
                f"{principal} ({', '.join(what)} on {resource_text(resource)})"
            )
    return tuple(_with_lost(change, lost.get((change.database, change.table))) for change in catalog_changes), []


def _table_defaults(client: LakeFormation) -> dict[str, frozenset[str]]:
    """What Lake Formation grants every new table (the data lake settings): a replaced table gets it back."""
    found: dict[str, frozenset[str]] = {}
    for default in client.settings().get("CreateTableDefaultPermissions") or []:
        principal = principal_text((default.get("Principal") or {}).get("DataLakePrincipalIdentifier", ""))
        if principal:
            found[principal] = expand(set(default.get("Permissions") or []), ("table", "", ""))
    return found


def _with_lost(change: Change, lost: list[str] | None) -> Change:
    if not lost or change.kind != "table" or change.action is not Action.REPLACE:
        return change
    finding = revoking(
        f"replacing {change.database}.{change.table} drops its Lake Formation grants, and the plan does not"
        f" give these back: {'; '.join(lost)}"
    )
    return replace(change, findings=(*change.findings, finding))
