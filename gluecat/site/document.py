"""The catalog as one JSON-able document: what the site shows and `docs --format json` prints.

Built from the loaded project (every declared database, table and view, with the file it comes
from), the lineage of its views, and optionally what the live catalog adds (`LiveFacts`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gluecat.lineage.graph import Lineage
from gluecat.model.partitions import PartitionEntry
from gluecat.model.table import Column, as_view, columns_of, declared_location
from gluecat.project.load import LoadedDatabase, LoadedTable, Project
from gluecat.secrets.redact import mask_any
from gluecat.site.access import Held, add_live_grants, database_grants, declared_grants, effective_tags, readers
from gluecat.site.settings import optimizers_of, owner_of

FORMAT_VERSION = 1
# Shown in their own sections (or not at all), not among a table's other settings.
_OWN_SECTIONS = {"name", "description", "format", "columns", "partition_keys", "partitions", "location", "sql"}
_OWN_SECTIONS |= {"grants", "optimizers"}


@dataclass(frozen=True)
class LiveFacts:
    """What only the live catalog knows, by address (db or db.table), and what it holds undeclared."""

    objects: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    unmanaged_databases: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    unmanaged_tables: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # address -> page
    grants: list[dict[str, Any]] | None = None  # Lake Formation's ListPermissions entries (None: no Lake Formation)


def build_document(project: Project, lineage: Lineage, live: LiveFacts | None = None) -> dict[str, Any]:
    facts = live or LiveFacts()
    held = declared_grants(project)
    add_live_grants(held, facts.grants or [])
    databases = [_database(project, db, lineage, facts, held) for db in project.databases]
    declared = {db.name for db in project.databases}
    for name, shape in sorted(facts.unmanaged_databases.items()):
        if name not in declared:
            access = database_grants(held, name, {})
            databases.append({"name": name, "unmanaged": True, **shape, "access": access, "tables": []})
    by_name = {db["name"]: db for db in databases}
    for address, page in sorted(facts.unmanaged_tables.items()):
        db_name = address.partition(".")[0]
        if db_name in by_name:
            names = [c["name"] for c in page["columns"]]
            access = readers(held, db_name, page["name"], names, {}, {})
            by_name[db_name]["tables"].append({**page, "access": access, "lineage": _lineage(address, lineage)})
    config = project.config
    return {
        "format_version": FORMAT_VERSION,
        "catalog": mask_any(
            {
                "name": project.root.name,
                "backend": config.backend,
                "region": config.region,
                "catalog_id": config.connection.account,
                "environment": project.env,
                "file": "catalog.yaml",
                "lf_tags": config.lf_tags,
                "tag_grants": [g.model_dump(mode="json", exclude_none=True) for g in config.tag_grants or []],
                "live": live is not None,
                "live_grants": facts.grants is not None,
            }
        ),
        "databases": databases,
        "lineage": lineage.as_json(),
    }


def _relative(project: Project, path: Path) -> str:
    try:
        return path.relative_to(project.root).as_posix()
    except ValueError:
        return path.as_posix()


def _database(project: Project, db: LoadedDatabase, lineage: Lineage, facts: LiveFacts, held: Held) -> dict[str, Any]:
    model = db.model
    return {
        "name": db.name,
        "description": model.description,
        "owner": owner_of(model.model_dump(mode="json")),
        "location": model.location,
        "file": _relative(project, db.source.path),
        "details": mask_any(
            model.model_dump(mode="json", exclude_none=True, exclude={"name", "description", "grants"})
        ),
        "access": database_grants(held, db.name, model.lf_tags or {}),
        "live": facts.objects.get(db.name),
        "tables": [_table(project, db, table, lineage, facts, held) for table in db.tables],
    }


def _table(
    project: Project, db: LoadedDatabase, table: LoadedTable, lineage: Lineage, facts: LiveFacts, held: Held
) -> dict[str, Any]:
    model = table.model
    address = f"{db.name}.{table.name}"
    columns = [*columns_of(model), *getattr(model, "partition_keys", [])]
    tags = effective_tags(db.model.lf_tags, model.lf_tags)
    column_tags = {c.name: c.lf_tags for c in columns if c.lf_tags}
    dumped = model.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
    page: dict[str, Any] = {
        "id": address,
        "database": db.name,
        "name": table.name,
        "kind": model.format,
        "description": model.description,
        "file": _relative(project, table.source.path),
        "location": declared_location(model),
        "columns": [_column(c) for c in columns_of(model)],
        "partition_keys": [_column(c) for c in getattr(model, "partition_keys", [])],
        "partitions": _partitions(model),
        "owner": owner_of(dumped),
        "optimizers": optimizers_of(model),
        "access": readers(held, db.name, table.name, [c.name for c in columns], tags, column_tags),
        "details": mask_any({k: v for k, v in dumped.items() if k not in _OWN_SECTIONS}),
        "live": facts.objects.get(address),
        "lineage": _lineage(address, lineage),
    }
    view = as_view(model)
    if view is not None:
        page["sql"] = view.sql or view.view_original_text
        page["dialect"] = view.dialect
    return page


def _column(column: Column) -> dict[str, Any]:
    shown: dict[str, Any] = {"name": column.name, "type": column.type}
    if column.comment:
        shown["comment"] = column.comment
    if column.lf_tags:
        shown["lf_tags"] = column.lf_tags
    if getattr(column, "required", False):
        shown["required"] = True
    return shown


def _partitions(model: object) -> dict[str, Any] | None:
    """Declared partitions: how many, and each key's smallest and largest value (without expanding
    the generators' cross products); Athena projection rules when the table has them."""
    items = getattr(model, "partitions", None)
    projection = getattr(model, "projection", None)
    if items is None and projection is None:
        return None
    shown: dict[str, Any] = {}
    if projection is not None:
        shown["projection"] = projection.model_dump(mode="json", exclude_none=True)
    if items is not None:
        keys = [k.name for k in getattr(model, "partition_keys", [])]
        seen: dict[str, list[str]] = {key: [] for key in keys}
        count = 0
        for item in items:
            if isinstance(item, PartitionEntry):
                count += 1
                for key in keys:
                    seen[key].append(item.values[key])
            else:
                count += item.count()
                for key in keys:
                    axis = item.expand[key]
                    seen[key] += axis if isinstance(axis, list) else axis.bounds()
        shown["count"] = count
        shown["ranges"] = {key: _range(values) for key, values in seen.items() if values}
    return shown


def _range(values: list[str]) -> list[str]:
    numeric = all(v.lstrip("-").isdigit() for v in values)
    ordered = sorted(values, key=int) if numeric else sorted(values)
    return [ordered[0], ordered[-1]]


def _lineage(address: str, lineage: Lineage) -> dict[str, Any]:
    """What feeds the object and what it feeds; for a view, what each column reads; for anything
    a view reads, which view columns each of its columns feeds."""
    reads = lineage.views.get(address)
    downstream = lineage.downstream.get(address, ())
    feeds: dict[str, list[str]] = {}
    for view in downstream:
        for column, refs in lineage.views[view].columns.items():
            for ref in refs:
                if ref.table == address:
                    feeds.setdefault(ref.column, []).append(f"{view}.{column}")
    return {
        "upstream": list(lineage.upstream.get(address, ())),
        "downstream": list(downstream),
        "reads": reads.as_json() if reads else None,
        "feeds": feeds,
    }
