"""Desired against live Lake Formation, by meaning -> one change per tag key, tag assignment and grant.

A change's `desired` holds the calls apply makes: for a grant, the entries to grant and to revoke
(the live entries as listed, so an expanded ALL is revoked as it is held); for a tag key, the values
to add and delete; for an assignment, the resource and the value. Whatever takes access away (a
revocation, a tag value or key removed, a tag moved off a resource) carries an `access` finding.
"""

from __future__ import annotations

from gluecat.access.desired import DesiredAccess, TagTarget
from gluecat.access.live import LiveAccess
from gluecat.access.meaning import (
    GrantKey,
    GrantState,
    Resource,
    api_resource,
    collapsed,
    expand,
    resource_text,
    version_of,
)
from gluecat.backends import lakeformation as lf
from gluecat.changes.fingerprint import fingerprint
from gluecat.changes.impact import Finding, Impact
from gluecat.changes.model import Action, Change, FieldDiff
from gluecat.changes.payloads import AdminsChange, GrantChanges, TagAssignment, TagKeyChange
from gluecat.model.lakeformation import principal_text

Shape = dict[str, object]


def access_changes(wanted: DesiredAccess, live: LiveAccess) -> list[Change]:
    changes = _admins(wanted, live) + _tag_keys(wanted, live)
    for target in sorted(wanted.assignments):
        changes += _assignments(target, wanted.assignments[target], live.assignments.get(target, {}))
    keys = set(wanted.grants) | {key for key in live.grants if wanted.owns_grant(key[1])}
    for key in sorted(keys, key=lambda k: (resource_text(k[1]), k[0])):
        change = _grant(key, wanted.grants.get(key), live.grants.get(key))
        if change:
            changes.append(change)
    return changes


def revoking(message: str) -> Finding:
    return Finding("access-revoke", Impact.ACCESS, message)


def _admins(wanted: DesiredAccess, live: LiveAccess) -> list[Change]:
    if wanted.admins is None:
        return []
    have = {principal_text(p) for p in live.admins}
    want = set(wanted.admins)
    if have == want:
        return []
    gone = sorted(have - want)
    findings = (revoking(f"{', '.join(gone)} stop being data lake administrators"),) if gone else ()
    diff = FieldDiff("data_lake_admins", sorted(have) or None, sorted(want) or None)
    desired = AdminsChange(admins=sorted(want))
    return [Change("lake_formation.data_lake_admins", "lf_admins", Action.UPDATE, "", None, desired, (diff,),
                   live_version=admins_version(live.admins), findings=findings)]  # fmt: skip


def admins_version(admins: list[str]) -> str:
    """The administrator list as read, in any order: apply re-reads it and refuses a changed one."""
    return fingerprint({"admins": sorted({principal_text(p) for p in admins})})


def assignment_version(held: str | None) -> str:
    """A resource's value of one tag key as read (absent included): apply re-reads it."""
    return fingerprint({"held": held})


def _tag_keys(wanted: DesiredAccess, live: LiveAccess) -> list[Change]:
    if wanted.tag_keys is None:
        return []
    changes = []
    for key in sorted(set(wanted.tag_keys) | (set(live.tag_keys) if wanted.prune_tags else set())):
        want, have = wanted.tag_keys.get(key), live.tag_keys.get(key)
        address = f"lf_tag.{key}"
        if want is None and have is not None:
            finding = revoking(f"LF-tag {key} is deleted: every resource loses it, and every grant on it its reach")
            deleted = TagKeyChange(key=key, delete_key=True)
            changes.append(Change(address, "lf_tag", Action.DELETE, "", None, deleted, findings=(finding,),
                                  reason="not declared in catalog.yaml (prune: true)"))  # fmt: skip
        elif want is not None and have is None:
            changes.append(Change(address, "lf_tag", Action.CREATE, "", None, TagKeyChange(key=key, add=list(want)),
                                  (FieldDiff("values", None, list(want)),)))  # fmt: skip
        elif want is not None and have is not None:
            add = [v for v in want if v not in have]
            delete = sorted(v for v in have if v not in want)
            if not add and not delete:
                continue  # the same values in another order
            findings: tuple[Finding, ...] = ()
            if delete:
                gone = ", ".join(delete)
                findings = (revoking(f"values {gone} leave LF-tag {key}: resources tagged with them lose the tag"),)
            changes.append(Change(address, "lf_tag", Action.UPDATE, "", None,
                                  TagKeyChange(key=key, add=add, delete=delete),
                                  (FieldDiff("values", sorted(have), sorted(want)),), findings=findings))  # fmt: skip
    return changes


def target_text(target: TagTarget) -> str:
    return ".".join(target[1:])


def target_resource(target: TagTarget) -> dict[str, object]:
    if target[0] == "database":
        return lf.database_resource(target[1])
    if target[0] == "table":
        return lf.table_resource(target[1], target[2])
    return lf.columns_resource(target[1], target[2], [target[3]])


def _assignments(target: TagTarget, want: dict[str, str], have: dict[str, str]) -> list[Change]:
    changes = []
    database, table = target[1], (target[2] if len(target) > 2 else None)
    for key in sorted(set(want) | set(have)):
        value, held = want.get(key), have.get(key)
        if value == held:
            continue
        address = f"{target_text(target)}#lf_tag.{key}"
        desired = TagAssignment(resource=target_resource(target), key=key, value=value, held=held)
        diffs = (FieldDiff(f"lf_tags.{key}", held, value),)
        version = assignment_version(held)
        if held is None:
            changes.append(Change(address, "tag_assignment", Action.CREATE, database, table, desired, diffs,
                                  live_version=version))  # fmt: skip
            continue
        what = target_text(target)
        finding = revoking(f"{what} no longer carries {key}={held}: grants on that tag stop reaching it")
        action = Action.DELETE if value is None else Action.UPDATE
        changes.append(Change(address, "tag_assignment", action, database, table, desired, diffs,
                              live_version=version, findings=(finding,)))  # fmt: skip
    return changes


def _grant(key: GrantKey, want: GrantState | None, have: GrantState | None) -> Change | None:
    principal, resource = key
    want = want or GrantState()
    have = have or GrantState()
    if _same(want, have, resource):
        return None
    wanted_all, wanted_grantable = expand(want.permissions, resource), expand(want.grantable, resource)
    held_all, held_grantable = expand(have.permissions, resource), expand(have.grantable, resource)
    grant_options = sorted(p for p in want.grantable if p not in held_grantable)
    grant = sorted({p for p in want.permissions if p not in held_all} | set(grant_options))
    revokes = []
    for entry in have.raw:
        permissions = [p for p in entry.get("Permissions") or [] if p not in wanted_all]
        options = [p for p in entry.get("PermissionsWithGrantOption") or [] if p not in wanted_grantable]
        if permissions or options:
            revokes.append(_entry(principal, entry["Resource"], permissions, options))
    grants = [_entry(principal, api_resource(resource), grant, grant_options)] if grant else []
    action = Action.CREATE if not have.raw else Action.DELETE if not want.permissions else Action.UPDATE
    diffs = (
        FieldDiff("permissions", collapsed(have.permissions, resource), collapsed(want.permissions, resource)),
        FieldDiff("grantable", collapsed(have.grantable, resource), collapsed(want.grantable, resource)),
    )
    findings: tuple[Finding, ...] = ()
    if revokes and not have.predicted:  # a default grant on a new object: nobody held it before
        lost = [", ".join(collapsed(held_all - wanted_all, resource) or [])]
        lost_options = collapsed(held_grantable - wanted_grantable, resource)
        lost += [f"the grant option on {', '.join(lost_options)}"] if lost_options else []
        gone = " and ".join(part for part in lost if part)
        findings = (revoking(f"{principal} loses {gone} on {resource_text(resource)}"),)
    return Change(
        f"{resource_text(resource)}#grant.{principal}",
        "grant",
        action,
        str(resource[1]) if resource[0] != "tag_policy" else "",
        str(resource[2]) if resource[0] in ("table", "columns", "excluded") else None,
        GrantChanges(grant=grants, revoke=revokes),
        tuple(d for d in diffs if d.before != d.after),
        live_version=None if have.predicted else version_of(have),
        reason="the default grant Lake Formation gives a new object" if have.predicted and not want.permissions else "",
        findings=findings,
    )


def _same(want: GrantState, have: GrantState, resource: Resource) -> bool:
    return expand(want.permissions, resource) == expand(have.permissions, resource) and expand(
        want.grantable, resource
    ) == expand(have.grantable, resource)


def _entry(principal: str, resource: object, permissions: list[str], options: list[str]) -> Shape:
    return {
        "Principal": {"DataLakePrincipalIdentifier": principal},
        "Resource": resource,
        "Permissions": permissions,
        "PermissionsWithGrantOption": options,
    }
