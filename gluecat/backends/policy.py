"""`gluecat iam-policy`: the IAM policy a project's commands need, scoped to what the project uses
(its databases, tables, lake locations and the features that decide which calls are made)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from gluecat.backends.permissions import COMMANDS, ProjectScope, policy_text
from gluecat.backends.permissions import Command as Command  # the commands a policy is for
from gluecat.project.load import Project, load_project
from gluecat.project.root import project_root

LAKE_FORMATS = ("iceberg", "delta")


def project_policy(root: Path, commands: Iterable[Command], env: str | None) -> str:
    """The policy (JSON) for `commands` (every command when none), for the project at or above `root`."""
    project = load_project(project_root(root), env, secrets_required=False)
    return policy_text(project_scope(project), tuple(commands) or COMMANDS)


def project_scope(project: Project) -> ProjectScope:
    config = project.config
    features: set[str] = set()
    tables: list[tuple[str, str]] = []
    lake: list[str] = []
    if config.data_lake_admins is not None:
        features.add("lf_admins")
    if config.lf_tags is not None:
        features.add("lf_tags")
    if config.tag_grants is not None:
        features.add("lf_grants")
    for database in project.databases:
        features |= {"lf_assignments"} if database.model.lf_tags is not None else set()
        features |= {"lf_grants"} if database.model.grants is not None else set()
        for table in database.tables:
            model = table.model
            tables.append((database.name, table.name))
            features |= _table_features(model)
            if getattr(model, "format", "hive") in LAKE_FORMATS:
                where = getattr(model, "location", None) or database.model.location or config.warehouse
                lake += [where] if where else []
    return ProjectScope(
        region=config.region or "*",
        account=config.connection.account or "*",
        databases=tuple(database.name for database in project.databases),
        tables=tuple(tables),
        lake_locations=tuple(sorted(set(lake))),
        features=frozenset(features),
        every_table=config.prune,
    )


def _table_features(model: object) -> set[str]:
    features = set()
    if getattr(model, "format", "hive") in LAKE_FORMATS:
        features.add("lake_files")
    if getattr(model, "partition_keys", None):
        features.add("partitions")
    if getattr(model, "partition_indexes", None):
        features.add("indexes")
    if getattr(model, "optimizers", None) is not None:
        features.add("optimizers")
    if getattr(model, "grants", None) is not None:
        features.add("lf_grants")
    columns = getattr(model, "columns", None) or []
    if getattr(model, "lf_tags", None) is not None or any(getattr(c, "lf_tags", None) for c in columns):
        features.add("lf_assignments")
    return features
