"""What a new user runs into with history, rollback and prune-versions: a typo in a table name gets a
did-you-mean, a command that asks names itself and reports a missing project before a missing
terminal, --write-yaml keeps the file's schema comment, a one-row snapshot says "1 row", and Ctrl-C
while pruning reports what was deleted."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import boto3
import pyarrow as pa
from pyiceberg.catalog.glue import GlueCatalog
from pyiceberg.schema import Schema
from pyiceberg.types import LongType, NestedField

from gluecat.backends.glue import Glue
from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

SCHEMA_COMMENT = "# yaml-language-server: $schema=../../.schemas/table.schema.json\n"
ORDERS = """\
storage: csv
columns:
  - {name: order_id, type: bigint}
"""


def _applied(tmp_path: Path, server: LocalGlue, orders: str = ORDERS) -> Path:
    files = {"sales/database.yaml": "location: s3://lake/sales/\n", "sales/tables/orders.yaml": orders}
    root = write_project(tmp_path / "project", server.endpoint_url, files)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    return root


def test_a_misspelt_table_gets_a_did_you_mean(tmp_path: Path, server: LocalGlue) -> None:
    root = _applied(tmp_path, server)
    for command in (
        ("history", str(root), "sales.ordrs"),
        ("history", str(root), "sale.orders"),
        ("rollback", str(root), "sales.ordrs", "--to-version", "1", "--auto-approve"),
        ("rollback", str(root), "sale.orders", "--to-version", "1", "--auto-approve"),
    ):
        result = gluecat(*command)
        assert result.exit_code == 1
        assert "did you mean 'sales.orders'?" in result.output or "did you mean 'sales'?" in result.output, (
            result.output
        )
        assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output


def test_prompting_commands_name_themselves_and_check_the_project_first(tmp_path: Path, server: LocalGlue) -> None:
    root = _applied(tmp_path, server)
    (root / "sales/tables/orders.yaml").write_text(ORDERS.replace("csv", "parquet"))
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    prune = gluecat("prune-versions", str(root), "--keep", "1")  # no terminal to ask on
    assert prune.exit_code == 1 and "prune-versions asks for confirmation" in prune.output
    assert "pass --auto-approve" in prune.output
    rollback = gluecat("rollback", str(root), "sales.orders", "--to-version", "1")
    assert rollback.exit_code == 1 and "rollback asks for confirmation" in rollback.output
    missing = tmp_path / "projetc"
    for command in (("prune-versions", str(missing), "--keep", "1"), ("rollback", str(missing), "sales.orders")):
        result = gluecat(*command, "--to-version", "1") if command[0] == "rollback" else gluecat(*command)
        assert result.exit_code == 1 and "no such directory" in result.output, result.output


def test_write_yaml_keeps_the_files_schema_comment(tmp_path: Path, server: LocalGlue) -> None:
    root = _applied(tmp_path, server, SCHEMA_COMMENT + ORDERS)
    (root / "sales/tables/orders.yaml").write_text(SCHEMA_COMMENT + ORDERS.replace("csv", "parquet"))
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    result = gluecat("rollback", str(root), "sales.orders", "--to-version", "1", "--auto-approve", "--write-yaml")
    assert result.exit_code == 0, result.output
    text = (root / "sales/tables/orders.yaml").read_text()
    assert text.startswith(SCHEMA_COMMENT) and "storage: csv" in text
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_a_one_row_snapshot_says_1_row(tmp_path: Path, server: LocalGlue, lake_bucket: str) -> None:
    client = boto3.client("glue", endpoint_url=server.endpoint_url, region_name="us-east-1")
    properties = {"s3.endpoint": server.endpoint_url, "s3.access-key-id": "testing"}
    properties.update({"s3.secret-access-key": "testing", "s3.region": "us-east-1"})
    catalog = GlueCatalog("test", client=client, **properties)
    catalog.create_namespace("lake")
    schema = Schema(NestedField(1, "n", LongType(), required=False))
    table = catalog.create_table("lake.events", schema, location="s3://lake/lake/events")
    table.append(pa.Table.from_pylist([{"n": 1}], schema=table.schema().as_arrow()))
    root = write_project(
        tmp_path / "project", server.endpoint_url, {"lake/database.yaml": "location: s3://lake/lake/\n"}
    )
    human = gluecat("history", str(root), "lake.events").output
    assert "append, 1 row added" in human and "1 rows" not in human


def test_ctrl_c_while_pruning_finishes_the_call_in_flight_and_says_what_was_deleted(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, monkeypatch: Any
) -> None:
    root = _updated_then_ctrl_c_while_deleting(tmp_path, server, raw_glue, monkeypatch, updates=250)
    result = gluecat("prune-versions", str(root), "--keep", "10", "--auto-approve")
    assert result.exit_code == 130, result.output
    assert "Deleted 100 versions in 1 call." in result.output and "run prune-versions again" in result.output
    assert "Traceback" not in result.output
    kept = raw_glue.get_paginator("get_table_versions").paginate(DatabaseName="sales", TableName="orders")
    assert sum(len(page["TableVersions"]) for page in kept) == 251 - 100


def test_ctrl_c_during_the_last_batch_is_a_finished_prune(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, monkeypatch: Any
) -> None:
    root = _updated_then_ctrl_c_while_deleting(tmp_path, server, raw_glue, monkeypatch, updates=20)
    result = gluecat("prune-versions", str(root), "--keep", "10", "--auto-approve")
    assert "Deleted 11 versions in 1 call." in result.output and "Interrupted" not in result.output
    assert result.exit_code == 0, result.output


def _updated_then_ctrl_c_while_deleting(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, monkeypatch: Any, updates: int
) -> Path:
    """An applied project whose table was updated `updates` times; Ctrl-C arrives as each
    BatchDeleteTableVersion answer is read."""
    root = _applied(tmp_path, server)
    live = raw_glue.get_table(DatabaseName="sales", Name="orders")["Table"]
    shape = {k: live[k] for k in ("Name", "StorageDescriptor", "TableType")}
    for number in range(updates):
        raw_glue.update_table(DatabaseName="sales", TableInput={**shape, "Description": f"update {number}"})
    original = Glue.delete_table_versions

    def interrupted(self: Glue, database: str, table: str, ids: Any, progress: Callable[[int], bool]) -> Any:
        def heard(count: int) -> bool:
            os.kill(os.getpid(), signal.SIGINT)
            return progress(count)

        return original(self, database, table, ids, heard)

    monkeypatch.setattr(Glue, "delete_table_versions", interrupted)
    return root
