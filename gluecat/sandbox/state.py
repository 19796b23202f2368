"""The sandbox's state on disk under `.gluecat/sandbox/`: Glue objects as JSON, S3 objects as files.

Each gluecat command starts the local Glue + S3, restores this state, works, and
saves it again, so `apply` followed by `plan` sees what apply made.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import boto3

from gluecat.convert.shapes import PARTITION_INPUT_KEYS, TABLE_INPUT_KEYS
from gluecat.sandbox.server import LocalGlue

STATE_DIR = Path(".gluecat") / "sandbox"
REGION = "us-east-1"
ACCESS_KEY = SECRET_KEY = "sandbox"  # moto accepts any; real AWS is never reached


def sandbox_session(region: str | None) -> boto3.Session:
    return boto3.Session(aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY, region_name=region or REGION)


@contextmanager
def running_sandbox(project_root: Path, region: str | None, port: int = 0) -> Iterator[LocalGlue]:
    """Start the local Glue + S3 with the project's saved state; save it again on the way out."""
    state = project_root / STATE_DIR
    with LocalGlue(port=port) as server:
        session = sandbox_session(region)
        restore(session, server.endpoint_url, state)
        try:
            yield server
        finally:
            save(session, server.endpoint_url, state)


def ensure_buckets(session: boto3.Session, endpoint: str, uris: list[str]) -> None:
    """The sandbox's S3 has the buckets a project's locations name (real S3 is never touched)."""
    s3 = session.client("s3", endpoint_url=endpoint)
    existing = {b["Name"] for b in s3.list_buckets().get("Buckets", [])}
    for uri in uris:
        scheme, _, rest = uri.partition("://")
        bucket = rest.split("/", 1)[0]
        if scheme in ("s3", "s3a") and bucket and bucket not in existing:
            s3.create_bucket(Bucket=bucket)
            existing.add(bucket)


def _clients(session: boto3.Session, endpoint: str) -> tuple[Any, Any]:
    return session.client("glue", endpoint_url=endpoint), session.client("s3", endpoint_url=endpoint)


def save(session: boto3.Session, endpoint: str, state: Path) -> None:
    glue, s3 = _clients(session, endpoint)
    catalog: dict[str, Any] = {"databases": [], "tables": []}
    for page in glue.get_paginator("get_databases").paginate():
        for database in page["DatabaseList"]:
            keep = ("Name", "Description", "LocationUri", "Parameters")
            catalog["databases"].append({k: database[k] for k in keep if k in database})
            catalog["tables"].extend(_tables(glue, database["Name"]))
    tmp = state.with_name(state.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    (tmp / "glue.json").write_text(json.dumps(catalog, indent=1, default=str), encoding="utf-8")
    for bucket in s3.list_buckets().get("Buckets", []):
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket["Name"]):
            for item in page.get("Contents", []):
                target = tmp / "s3" / bucket["Name"] / item["Key"]
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(s3.get_object(Bucket=bucket["Name"], Key=item["Key"])["Body"].read())
        (tmp / "s3" / bucket["Name"]).mkdir(parents=True, exist_ok=True)
    shutil.rmtree(state, ignore_errors=True)
    tmp.rename(state)


def _tables(glue: Any, database: str) -> list[dict[str, Any]]:
    tables = []
    for page in glue.get_paginator("get_tables").paginate(DatabaseName=database):
        for table in page["TableList"]:
            partitions = [
                {k: p[k] for k in PARTITION_INPUT_KEYS if k in p}
                for part_page in glue.get_paginator("get_partitions").paginate(
                    DatabaseName=database, TableName=table["Name"]
                )
                for p in part_page["Partitions"]
            ]
            tables.append(
                {
                    "database": database,
                    "version": int(table.get("VersionId") or 1),
                    "input": {k: table[k] for k in TABLE_INPUT_KEYS if k in table},
                    "partitions": partitions,
                    "indexes": _indexes(glue, database, table) if table.get("PartitionKeys") else [],
                }
            )
    return tables


def _indexes(glue: Any, database: str, table: dict[str, Any]) -> list[dict[str, Any]]:
    listed = glue.get_partition_indexes(DatabaseName=database, TableName=table["Name"])["PartitionIndexDescriptorList"]
    return [
        {"IndexName": d["IndexName"], "Keys": [k["Name"] for k in d["Keys"]]}
        for d in listed
        if d["IndexStatus"] != "DELETING"
    ]


def restore(session: boto3.Session, endpoint: str, state: Path) -> None:
    glue, s3 = _clients(session, endpoint)
    catalog_file = state / "glue.json"
    if catalog_file.is_file():
        catalog = json.loads(catalog_file.read_text(encoding="utf-8"))
        for database in catalog["databases"]:
            glue.create_database(DatabaseInput=database)
        for table in catalog["tables"]:
            _restore_table(glue, table)
    buckets = state / "s3"
    if buckets.is_dir():
        for bucket in sorted(p for p in buckets.iterdir() if p.is_dir()):
            s3.create_bucket(Bucket=bucket.name)
            for path in sorted(p for p in bucket.rglob("*") if p.is_file()):
                s3.put_object(Bucket=bucket.name, Key=path.relative_to(bucket).as_posix(), Body=path.read_bytes())


def _restore_table(glue: Any, table: dict[str, Any]) -> None:
    database, table_input = table["database"], table["input"]
    indexes = {"PartitionIndexes": table["indexes"]} if table.get("indexes") else {}
    glue.create_table(DatabaseName=database, TableInput=table_input, **indexes)
    # Replay versions so a saved plan's VersionId still matches after a restart.
    for version in range(1, table["version"]):
        glue.update_table(DatabaseName=database, TableInput=table_input, VersionId=str(version))
    partitions = table["partitions"]
    for start in range(0, len(partitions), 100):
        glue.batch_create_partition(
            DatabaseName=database, TableName=table_input["Name"], PartitionInputList=partitions[start : start + 100]
        )
