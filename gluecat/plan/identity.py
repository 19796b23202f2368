"""Which catalog a connection reaches: what a saved plan is bound to (the backend says how)."""

from __future__ import annotations

from pathlib import Path

from gluecat.backends.connect import Connection
from gluecat.backends.identity import catalog_identity
from gluecat.changes.model import Plan
from gluecat.plan import saved, serialize
from gluecat.plan.saved import Binding
from gluecat.project.load import Project


def catalog_binding(project: Project, connection: Connection) -> Binding:
    catalog, region, endpoint = catalog_identity(project.config, connection)
    return Binding(root=str(project.root.resolve()), catalog=catalog, region=region, endpoint=endpoint)


def save_plan(out: Path, plan: Plan, project: Project, connection: Connection) -> None:
    """`plan --out FILE` (and `rollback --out FILE`): the plan saved for `gluecat apply FILE`, the
    environment's secrets held back, bound to the project and the catalog it was made against."""
    saved.write(out, serialize.without_env_secrets(plan), catalog_binding(project, connection))
