"""What `docs --live` adds from the live catalog, through the backend's paged reads (GetDatabases,
GetTables per database, and GetPartitions without column lists for partitioned tables), the tables'
history (gluecat.site.history) and Lake Formation's grants (ListPermissions)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from gluecat.backends.base import Shape
from gluecat.backends.connect import Connection
from gluecat.lineage.graph import ViewSql, texts_sql
from gluecat.project.load import Project
from gluecat.secrets.redact import mask_any
from gluecat.site.document import LiveFacts
from gluecat.site.history import keeps_versions, metadata_location, snapshots, versions

READ_WORKERS = 8
_WHEN = ("CreateTime", "UpdateTime")


def read_facts(project: Project, connection: Connection) -> tuple[LiveFacts, list[ViewSql]]:
    catalog = connection.catalog
    databases = {db["Name"]: db for db in catalog.databases()}
    declared = {db.name: {t.name for t in db.tables} for db in project.databases}
    names = sorted(databases)
    with ThreadPoolExecutor(max_workers=READ_WORKERS) as pool:
        tables = dict(zip(names, pool.map(catalog.tables, names), strict=True))
        partitioned = [(db, t) for db in names for t in tables[db] if t.get("PartitionKeys")]
        counts = dict(zip(
            [(db, t["Name"]) for db, t in partitioned],
            pool.map(lambda pair: _count_partitions(connection, pair[0], pair[1]["Name"]), partitioned),
            strict=True,
        ))  # fmt: skip
        every = [(db, t["Name"]) for db in names for t in tables[db]]
        kept = pool.map(lambda pair: versions(connection, *pair), every) if keeps_versions(connection) else None
        history = dict(zip(every, kept, strict=True)) if kept is not None else {}
        iceberg = [((db, t["Name"]), metadata_location(t)) for db in names for t in tables[db]]
        iceberg = [(key, location) for key, location in iceberg if location]
        read = pool.map(lambda item: snapshots(connection, item[1]), iceberg)
        snapshotted = dict(zip([key for key, _ in iceberg], read, strict=True))
    objects: dict[str, dict[str, Any]] = {}
    unmanaged_databases: dict[str, dict[str, Any]] = {}
    unmanaged_tables: dict[str, dict[str, Any]] = {}
    views: list[ViewSql] = []
    for name in names:
        shape = databases[name]
        if name in declared:
            objects[name] = _facts(shape)
        else:
            unmanaged_databases[name] = {"description": shape.get("Description"), "location": shape.get("LocationUri")}
        for table in tables[name]:
            address = f"{name}.{table['Name']}"
            key = (name, table["Name"])
            facts = _facts(table, counts.get(key))
            if key in history:
                facts["Versions"] = history[key]
            if key in snapshotted:
                facts["Snapshots"] = snapshotted[key]
            if table["Name"] in declared.get(name, ()):
                objects[address] = facts
                continue
            unmanaged_tables[address] = _unmanaged_page(name, table, facts)
            if table.get("TableType") == "VIRTUAL_VIEW":
                found = texts_sql(address, name, table.get("ViewOriginalText"), table.get("ViewExpandedText"))
                views += [found] if found else []
    lakeformation = connection.lakeformation
    grants = lakeformation.permissions() if lakeformation is not None else None
    return LiveFacts(objects, unmanaged_databases, unmanaged_tables, grants), views


def _count_partitions(connection: Connection, database: str, table: str) -> int:
    seen = [0]

    def count(page: list[Shape]) -> None:
        seen[0] += len(page)

    connection.catalog.each_partition_page(database, table, 0, count, columns=False)
    return seen[0]


def _facts(shape: Shape, partitions: int | None = None) -> dict[str, Any]:
    facts: dict[str, Any] = {key: str(shape[key]) for key in _WHEN if shape.get(key) is not None}
    for key in ("VersionId", "Owner", "LastAccessTime", "CreatedBy"):
        if shape.get(key) is not None:
            facts[key] = str(shape[key])
    if partitions is not None:
        facts["Partitions"] = partitions
    return facts


def _unmanaged_page(database: str, table: Shape, facts: dict[str, Any]) -> dict[str, Any]:
    storage = table.get("StorageDescriptor") or {}
    parameters = table.get("Parameters") or {}
    view = table.get("TableType") == "VIRTUAL_VIEW"
    kind = "view" if view else str(parameters.get("table_type") or "hive").lower()
    page: dict[str, Any] = {
        "id": f"{database}.{table['Name']}",
        "database": database,
        "name": table["Name"],
        "kind": kind,
        "unmanaged": True,
        "description": table.get("Description"),
        "file": None,
        "location": storage.get("Location"),
        "columns": [_column(c) for c in storage.get("Columns") or []],
        "partition_keys": [_column(c) for c in table.get("PartitionKeys") or []],
        "partitions": None,
        "details": mask_any({"parameters": parameters} if parameters else {}),
        "live": facts,
    }
    if view:
        found = texts_sql(page["id"], database, table.get("ViewOriginalText"), table.get("ViewExpandedText"))
        page["sql"], page["dialect"] = (found.sql, found.dialect) if found else (None, None)
    return page


def _column(column: Shape) -> dict[str, Any]:
    shown = {"name": str(column.get("Name", "")).lower(), "type": column.get("Type"), "comment": column.get("Comment")}
    return {key: value for key, value in shown.items() if value}
