"""The access part of a plan: read only what the project owns, then diff it by meaning."""

from __future__ import annotations

from gluecat.access.desired import TagTarget, desired_access
from gluecat.access.diff import access_changes
from gluecat.access.live import read_access
from gluecat.backends.lakeformation import LakeFormation
from gluecat.changes.model import Action, Change
from gluecat.errors import GluecatError
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
            "lf_tags, grants and tag_grants need the Glue Data Catalog (Lake Formation), not backend: hive"
        )
    created = {
        (c.kind, c.database, *((c.table,) if c.table else ()))
        for c in catalog_changes
        if c.action in (Action.CREATE, Action.REPLACE) and c.kind in ("database", "table")
    }

    def exists(target: TagTarget) -> bool:
        return target not in created and ("database", target[1]) not in created

    return access_changes(wanted, read_access(client, wanted, exists))
