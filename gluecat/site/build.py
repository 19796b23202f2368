"""`gluecat docs`: the project (and with --live the live catalog) as a document, a site or JSON."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gluecat.lineage.graph import build_lineage, project_schema, project_views
from gluecat.project.load import Project, load_project
from gluecat.site.document import LiveFacts, build_document


def document_of(project: Project, live: LiveFacts | None = None, live_views: list[Any] | None = None) -> dict[str, Any]:
    """The document: the lineage is parsed over every declared table and view, and with the live
    catalog also over what it holds undeclared (whose views may read declared tables and the reverse)."""
    schema = project_schema(project)
    views = project_views(project)
    if live is not None:
        for address, page in live.unmanaged_tables.items():
            db, _, name = address.partition(".")
            schema.setdefault(db, {})[name] = tuple(c["name"] for c in (*page["columns"], *page["partition_keys"]))
        views += live_views or []
    return build_document(project, build_lineage(views, schema), live)


def load(root: Path, env: str | None) -> Project:
    """The project as the docs show it: `${env.NAME}` secrets need not be set (a docs build in CI
    has none), and their values never reach the site."""
    return load_project(root, env, secrets_required=False)


def project_document(root: Path, env: str | None, live: bool) -> dict[str, Any]:
    """The project's document; `live`: with what the live catalog knows (partition counts, versions,
    what it holds undeclared)."""
    project = load(root, env)
    facts, views = None, None
    if live:
        from gluecat.backends.connect import connect
        from gluecat.site.live import read_facts

        with connect(project) as connection:
            facts, views = read_facts(project, connection)
    return document_of(project, facts, views)
