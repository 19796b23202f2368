"""Carry out a plan's Lake Formation changes, after its databases and tables exist.

In order: new tag keys and values; tag assignments; grants (BatchGrantPermissions, 20 entries a
call); revocations (BatchRevokePermissions); tag values and keys removed. A plan that takes access
away is refused whole without --allow-revoke, as one that deletes is without --allow-destroy.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Literal

from gluecat.access.diff import admins_version, assignment_version
from gluecat.access.live import assigned_now
from gluecat.access.meaning import live_grants, resource_text, version_of
from gluecat.backends.lakeformation import LakeFormation
from gluecat.changes.impact import Impact
from gluecat.changes.model import Action, Change, Plan
from gluecat.changes.payloads import AdminsChange, GrantChanges, TagAssignment, TagKeyChange, as_payload
from gluecat.errors import GluecatError, PlanError

if TYPE_CHECKING:
    from gluecat.apply.run import ApplyResult, Progress

WRITE_WORKERS = 8
LABELS = {
    "lf_admins": "lists of data lake administrators",
    "lf_tag": "LF-tags",
    "tag_assignment": "LF-tag assignments",
    "grant": "grants",
}


def revocations(plan: Plan) -> list[Change]:
    """Every change that takes access away: Lake Formation's own, and a replace that drops grants."""
    return [c for c in plan.changes if any(f.impact is Impact.ACCESS for f in c.findings)]


def refuse_revocation(plan: Plan, allow_revoke: bool) -> None:
    """A plan that takes anyone's access away is refused whole, before any change."""
    revoked = revocations(plan)
    if revoked and not allow_revoke:
        shown = ", ".join(c.address for c in revoked[:10]) + ("…" if len(revoked) > 10 else "")
        raise PlanError(
            f"the plan revokes access ({shown}); nothing was changed. Review it, then apply with --allow-revoke"
        )


def stale_access(client: LakeFormation | None, changes: list[Change], creates: bool) -> list[str]:
    """What someone changed in Lake Formation since the plan read it: the plan is stale.

    Grants (one paged ListPermissions; `creates`: the grants it creates too, for a saved plan, else
    Lake Formation merges them), the administrator list (one GetDataLakeSettings: an administrator
    added since would be removed), and every tag assignment it writes, creates included
    (AddLFTagsToResource overwrites a value someone set since; one GetResourceLFTags per resource)."""
    if client is None:
        return []
    stale = []
    grants = [c for c in changes if c.kind == "grant" and (creates or c.action is not Action.CREATE)]
    if grants:
        now = {f"{resource_text(r)}#grant.{p}": state for (p, r), state in live_grants(client.permissions()).items()}
        stale += [c.address for c in grants if version_of(now.get(c.address)) != c.live_version]
    admins = [c for c in changes if c.kind == "lf_admins"]
    if admins:
        version = admins_version(client.admins())
        stale += [c.address for c in admins if c.live_version != version]
    return stale + _stale_assignments(client, [c for c in changes if c.kind == "tag_assignment"])


def _stale_assignments(client: LakeFormation, assignments: list[Change]) -> list[str]:
    resources = {json.dumps(as_payload(c.desired, TagAssignment)["resource"], sort_keys=True) for c in assignments}
    with ThreadPoolExecutor(max_workers=WRITE_WORKERS) as pool:
        now = dict(zip(resources, pool.map(lambda r: assigned_now(client, json.loads(r)), resources), strict=True))
    stale = []
    for change in assignments:
        desired = as_payload(change.desired, TagAssignment)
        held = now[json.dumps(desired["resource"], sort_keys=True)].get(desired["key"])
        if assignment_version(held) != change.live_version:
            stale.append(change.address)
    return stale


def apply_access(
    client: LakeFormation | None, changes: list[Change], result: ApplyResult, progress: Progress,
    stop: threading.Event,
) -> None:  # fmt: skip
    from gluecat.apply.run import Failure

    if not changes:
        return
    if client is None:
        result.failures.extend(Failure(c.address, "Lake Formation needs the Glue Data Catalog") for c in changes)
        return
    failed: dict[str, str] = {}

    def step(change: Change, call: Callable[[], None]) -> None:
        if stop.is_set() or change.address in failed:
            return
        try:
            call()
        except GluecatError as exc:
            failed[change.address] = str(exc)
            result.gave_up(exc, stop)

    for change in (c for c in changes if c.kind == "lf_admins"):  # first: an administrator may create tags
        step(change, lambda c=change: client.set_admins(as_payload(c.desired, AdminsChange)["admins"]))  # type: ignore[misc]
    tags = [c for c in changes if c.kind == "lf_tag"]
    assignments = [c for c in changes if c.kind == "tag_assignment"]
    grants = [c for c in changes if c.kind == "grant"]
    for change in tags:
        if change.action is not Action.DELETE and as_payload(change.desired, TagKeyChange).get("add"):
            step(change, lambda c=change: _add_values(client, c))  # type: ignore[misc]
    with ThreadPoolExecutor(max_workers=WRITE_WORKERS) as pool:  # one call per resource and key: in parallel
        list(pool.map(lambda c: step(c, lambda: _assign(client, c)), assignments))
    sides: tuple[Literal["grant", "revoke"], ...] = ("grant", "revoke")
    for kind in sides:
        refused = None if stop.is_set() else _batched(client, grants, kind, failed)
        if refused is not None:
            result.gave_up(refused, stop)
    for change in tags:
        step(change, lambda c=change: _remove_values(client, c))  # type: ignore[misc]
    for change in changes:
        progress.advance(1)
        if change.address in failed:
            result.failures.append(Failure(change.address, failed[change.address]))
        elif not stop.is_set():
            result.done[f"{LABELS[change.kind]} {change.action.past}"] += 1


def _add_values(client: LakeFormation, change: Change) -> None:
    desired = as_payload(change.desired, TagKeyChange)
    if change.action is Action.CREATE:
        client.create_tag(desired["key"], desired.get("add", []))
    else:
        client.update_tag(desired["key"], add=desired.get("add", []))


def _remove_values(client: LakeFormation, change: Change) -> None:
    desired = as_payload(change.desired, TagKeyChange)
    if desired.get("delete_key"):
        client.delete_tag(desired["key"])
    elif desired.get("delete"):
        client.update_tag(desired["key"], delete=desired.get("delete", []))


def _assign(client: LakeFormation, change: Change) -> None:
    """AddLFTagsToResource sets one key's value and leaves the resource's other tags as they are."""
    desired = as_payload(change.desired, TagAssignment)
    if desired["value"] is None:
        held = desired.get("held")
        assert held is not None, "a removal names the value it removes (the plan and its record check it)"
        client.remove_tags(desired["resource"], {desired["key"]: held})
    else:
        client.add_tags(desired["resource"], {desired["key"]: desired["value"]})


def _batched(
    client: LakeFormation, grants: list[Change], kind: Literal["grant", "revoke"], failed: dict[str, str]
) -> GluecatError | None:
    """Grant (or revoke) in batches; a call that failed whole is returned, after failing its changes."""
    entries: list[dict[str, Any]] = []
    owners: dict[str, str] = {}
    for change in grants:
        for entry in as_payload(change.desired, GrantChanges).get(kind) or []:
            entry_id = str(len(entries))
            owners[entry_id] = change.address
            entries.append({**entry, "Id": entry_id})
    if not entries:
        return None
    send = client.batch_grant if kind == "grant" else client.batch_revoke
    try:
        failures = send(entries)
    except GluecatError as exc:
        for address in set(owners.values()):
            failed.setdefault(address, str(exc))
        return exc
    for failure in failures:
        owner = owners.get(failure.id)
        if owner:
            failed.setdefault(owner, f"{kind} refused: {failure.code}: {failure.message}")
    return None
