"""What the move tests share: a table, the clients of both catalogs on the one local S3, the project's
two environments, and the plan-and-apply of a move."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import boto3
import pyarrow as pa
from pyiceberg.catalog import Catalog
from pyiceberg.catalog.glue import GlueCatalog
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.table import Table

from tests.integration.helpers import gluecat
from tests.metastores.fixtures import LocalS3
from tests.rest.rest_server import RestCatalogServer

EVENTS = """\
format: iceberg
description: Events
columns:
  - {name: event_id, type: bigint, required: true}
  - {name: kind, type: string}
  - {name: at, type: timestamp}
partition_spec:
  - {column: at, transform: day}
sort_order:
  - {column: event_id}
properties:
  write.format.default: parquet
"""


def s3_settings(s3: LocalS3) -> dict[str, str]:
    return {"s3.endpoint": s3.endpoint, "s3.access-key-id": s3.access_key,
            "s3.secret-access-key": s3.secret_key, "s3.region": "us-east-1"}  # fmt: skip


def rest_client(server: RestCatalogServer, s3: LocalS3) -> RestCatalog:
    return RestCatalog("moves", uri=server.uri, **s3_settings(s3))


def glue_client(s3: LocalS3) -> Any:
    return boto3.client(
        "glue", endpoint_url=s3.endpoint, region_name="us-east-1",
        aws_access_key_id=s3.access_key, aws_secret_access_key=s3.secret_key,
    )  # fmt: skip


def glue_catalog(s3: LocalS3) -> GlueCatalog:
    return GlueCatalog("moves", client=glue_client(s3), **s3_settings(s3))


def environments(server: RestCatalogServer, default: str) -> str:
    return textwrap.dedent(f"""\
        default_env: {default}
        environments:
          glue: {{backend: glue}}
          rest: {{backend: iceberg-rest, rest_uri: "{server.uri}"}}
    """)


def append(table: Table, rows: list[dict[str, Any]]) -> None:
    table.append(pa.Table.from_pylist(rows, schema=table.schema().as_arrow()))


def rows(catalog: Catalog, identifier: tuple[str, ...]) -> list[tuple[int, str]]:
    arrow = catalog.load_table(identifier).scan().to_arrow()
    return sorted((row["event_id"], row["kind"]) for row in arrow.to_pylist())


def rows_of(first: int, count: int) -> list[dict[str, Any]]:
    from datetime import datetime

    return [{"event_id": i, "kind": f"k{i}", "at": datetime(2026, 1, 1 + i % 28)} for i in range(first, first + count)]


def assert_clean(root: Path, env: str) -> None:
    replanned = gluecat("plan", str(root), "--env", env, "--detailed-exitcode")
    assert replanned.exit_code == 0 and "No changes" in replanned.output, replanned.output


def assert_moved(root: Path, env: str, table: str) -> None:
    """`plan` says the table is registered from its location; `apply` does it."""
    planned = gluecat("plan", str(root), "--env", env, "--detailed-exitcode")
    assert planned.exit_code == 2, planned.output
    assert "registers the Iceberg table its location holds" in planned.output, planned.output
    assert "0 to update, 0 to replace, 0 to delete" in planned.output, planned.output
    applied = gluecat("apply", str(root), "--env", env, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert table in applied.output
