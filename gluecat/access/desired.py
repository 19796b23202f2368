"""What the YAML declares of Lake Formation, and which part of it the project owns.

A key that is present owns its part: `grants:` on a database or table owns that object's grants
(an empty list revokes them all), `lf_tags:` on a database, table or column owns its assigned
LF-tags, `tag_grants:` in catalog.yaml owns every tag-based grant, `lf_tags:` there defines keys
(a live key it leaves out is deleted only with `prune: true`). An absent key leaves Lake Formation
alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gluecat.access.meaning import GrantKey, GrantState, Resource, grant_resource, tag_grant_resource
from gluecat.model.lakeformation import Grant, TagGrant
from gluecat.project.load import Project
from gluecat.project.targets import Targets

# ("database", db) | ("table", db, t) | ("column", db, t, column)
TagTarget = tuple[str, ...]


@dataclass
class DesiredAccess:
    tag_keys: dict[str, list[str]] | None = None
    admins: list[str] | None = None
    assignments: dict[TagTarget, dict[str, str]] = field(default_factory=dict)
    grants: dict[GrantKey, GrantState] = field(default_factory=dict)
    owned_grants: set[Resource] = field(default_factory=set)  # databases and tables whose grants are owned
    owns_tag_grants: bool = False
    prune_tags: bool = False

    @property
    def empty(self) -> bool:
        return (
            self.tag_keys is None
            and self.admins is None
            and not self.assignments
            and not self.owned_grants
            and not self.owns_tag_grants
        )

    def owns_grant(self, resource: Resource) -> bool:
        if resource[0] == "tag_policy":
            return self.owns_tag_grants
        base = ("database", resource[1]) if resource[0] == "database" else ("table", resource[1], resource[2])
        return base in self.owned_grants


def desired_access(project: Project, targets: Targets) -> DesiredAccess:
    config = project.config
    catalog_wide = targets.everything
    wanted = DesiredAccess(
        tag_keys=dict(config.lf_tags) if config.lf_tags is not None and catalog_wide else None,
        owns_tag_grants=config.tag_grants is not None and catalog_wide,
        prune_tags=config.prune,
        admins=list(config.data_lake_admins) if config.data_lake_admins is not None and catalog_wide else None,
    )
    if wanted.owns_tag_grants:
        for tag_grant in config.tag_grants or []:
            _add(wanted, tag_grant.principal, tag_grant_resource(tag_grant), tag_grant)
    for database in project.databases:
        if not targets.touches(database.name):
            continue
        model = database.model
        if targets.database(database.name):
            if model.lf_tags is not None:
                wanted.assignments[("database", database.name)] = dict(model.lf_tags)
            if model.grants is not None:
                wanted.owned_grants.add(("database", database.name))
                for grant in model.grants:
                    _add(wanted, grant.principal, grant_resource(database.name, None, grant), grant)
        for table in database.tables:
            if not targets.table(database.name, table.name):
                continue
            _table(wanted, database.name, table.name, table.model)
    return wanted


def _table(wanted: DesiredAccess, database: str, name: str, model: object) -> None:
    lf_tags = getattr(model, "lf_tags", None)
    if lf_tags is not None:
        wanted.assignments[("table", database, name)] = dict(lf_tags)
    for column in getattr(model, "columns", None) or []:
        if column.lf_tags is not None:
            wanted.assignments[("column", database, name, column.name.lower())] = dict(column.lf_tags)
    grants: list[Grant] | None = getattr(model, "grants", None)
    if grants is not None:
        wanted.owned_grants.add(("table", database, name))
        for grant in grants:
            _add(wanted, grant.principal, grant_resource(database, name, grant), grant)


def _add(wanted: DesiredAccess, principal: str, resource: Resource, grant: Grant | TagGrant) -> None:
    """Two grants of one principal on one resource are one grant of both's permissions."""
    state = wanted.grants.setdefault((principal, resource), GrantState())
    state.permissions |= set(grant.permissions)
    state.grantable |= set(grant.grantable)
