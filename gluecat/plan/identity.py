"""Which catalog a connection reaches: what a saved plan is bound to (the backend says how)."""

from __future__ import annotations

from gluecat.backends.connect import Connection
from gluecat.backends.identity import catalog_identity
from gluecat.plan.saved import Binding
from gluecat.project.load import Project


def catalog_binding(project: Project, connection: Connection) -> Binding:
    catalog, region, endpoint = catalog_identity(project.config, connection)
    return Binding(root=str(project.root.resolve()), catalog=catalog, region=region, endpoint=endpoint)
