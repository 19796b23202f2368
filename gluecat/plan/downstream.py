"""A breaking or destructive change to a table names the views that read it (from the lineage of the
declared views and of the views the live catalog holds undeclared), directly or through other views."""

from __future__ import annotations

from dataclasses import replace

from gluecat.changes.impact import ENGINES, Finding, Impact
from gluecat.changes.model import DOWNSTREAM_VIEWS, Change, PartitionChanges, Plan, views_reading
from gluecat.kinds.base import LiveCatalog
from gluecat.model.table import as_view
from gluecat.project.load import Project

RULE = DOWNSTREAM_VIEWS


def name_downstream_views(plan: Plan, project: Project, live: LiveCatalog) -> Plan:
    at_risk = [c for c in plan.changes if c.kind == "table" and c.impact in (Impact.BREAKING, Impact.DESTRUCTIVE)]
    groups = [p for p in plan.partitions if p.impact in (Impact.BREAKING, Impact.DESTRUCTIVE)]
    if not (at_risk or groups) or not _any_view(project, live):
        return plan  # before importing the SQL parser: most plans break nothing
    from gluecat.lineage.graph import build_lineage, project_schema, project_views, texts_sql

    schema = project_schema(project)
    views = project_views(project)
    declared = {(db, name) for db, tables in schema.items() for name in tables}
    for db, tables in live.tables.items():
        for name, shape in tables.items():
            if (db, name) in declared:
                continue
            columns = (shape.get("StorageDescriptor") or {}).get("Columns") or []
            keys = shape.get("PartitionKeys") or []
            schema.setdefault(db, {})[name] = tuple(str(c.get("Name", "")).lower() for c in (*columns, *keys))
            if shape.get("TableType") == "VIRTUAL_VIEW":
                found = texts_sql(f"{db}.{name}", db, shape.get("ViewOriginalText"), shape.get("ViewExpandedText"))
                views += [found] if found else []
    lineage = build_lineage(views, schema)
    changed = {id(c): _with_views(c, lineage.downstream_views(c.address)) for c in at_risk}
    moved = {id(p): _group_with_views(p, lineage.downstream_views(f"{p.database}.{p.table}")) for p in groups}
    return replace(
        plan,
        changes=tuple(changed.get(id(c), c) for c in plan.changes),
        partitions=tuple(moved.get(id(p), p) for p in plan.partitions),
    )


def _group_with_views(group: PartitionChanges, views: tuple[str, ...]) -> PartitionChanges:
    return replace(group, downstream_views=views) if views else group


def _any_view(project: Project, live: LiveCatalog) -> bool:
    declared = any(as_view(table.model) is not None for db in project.databases for table in db.tables)
    return declared or any(t.get("TableType") == "VIRTUAL_VIEW" for ts in live.tables.values() for t in ts.values())


def _with_views(change: Change, views: tuple[str, ...]) -> Change:
    if not views:
        return change
    engines = sorted({e for f in change.findings if f.impact is change.impact for e in f.engines}) or list(ENGINES)
    finding = Finding(RULE, change.impact, views_reading(views), tuple(engines))
    return replace(change, findings=(*change.findings, finding))
