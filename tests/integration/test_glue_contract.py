"""Glue's real contract: pages, segments, batch limits, throttling — and what they cost in calls."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

PARTITIONED = """\
storage: parquet
columns: [{{name: v, type: int}}]
partition_keys: [{{name: n, type: int}}]
partitions:
  - expand:
      n: {{from: 1, to: {count}}}
"""


def _big_catalog(root: Path, endpoint: str) -> Path:
    files = {"big/database.yaml": "location: s3://lake/big/\n"}
    for index in range(245):
        files[f"big/tables/t{index:03d}.yaml"] = "storage: orc\ncolumns: [{name: a, type: string}]\n"
    for index in range(5):
        files[f"big/tables/p{index}.yaml"] = PARTITIONED.format(count=500)
    files["big/tables/huge.yaml"] = PARTITIONED.format(count=2500)
    return write_project(root, endpoint, files)


def test_no_change_plan_costs_only_the_pages_it_needs(tmp_path: Path, server: LocalGlue) -> None:
    root = _big_catalog(tmp_path, server.endpoint_url)
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert server.calls()["BatchCreatePartition"] == 5 * 5 + 25  # 100 per call

    server.reset_counts()
    planned = gluecat("plan", str(root), "--detailed-exitcode")
    assert planned.exit_code == 0, planned.output
    calls = dict(server.calls())
    tables = 251
    expected = {
        "GetDatabases": 1,
        "GetTables": math.ceil(tables / 100),
        # five tables of 500 read in one page each; 2,500 partitions in three segments of < 1,000
        "GetPartitions": 5 + math.ceil(2500 / 1000),
    }
    assert calls == expected


def test_small_pages_are_followed(tmp_path: Path, server: LocalGlue) -> None:
    server.configure(page_size=3)
    files = {"web/database.yaml": "location: s3://lake/web/\n"}
    for index in range(8):
        files[f"web/tables/t{index}.yaml"] = "storage: json\n"
    files["web/tables/parts.yaml"] = PARTITIONED.format(count=10)
    root = write_project(tmp_path, server.endpoint_url, files)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    server.reset_counts()
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0
    assert server.calls()["GetTables"] == 3  # 9 tables, 3 a page
    assert server.calls()["GetPartitions"] == 4  # 10 partitions, 3 a page


def test_batches_stay_within_aws_limits(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    files = {
        "logs/database.yaml": "location: s3://lake/logs/\n",
        "logs/tables/hits.yaml": PARTITIONED.format(count=250),
    }
    root = write_project(tmp_path, server.endpoint_url, files, catalog_extra="prune: true\n")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    assert server.calls()["BatchCreatePartition"] == 3

    (root / "logs/tables/hits.yaml").write_text(
        PARTITIONED.format(count=220).replace("partitions:\n", "location: s3://lake/logs/moved\npartitions:\n")
    )
    server.reset_counts()
    applied = gluecat("apply", str(root), "--auto-approve", "--allow-destroy")
    assert applied.exit_code == 0, applied.output
    assert server.calls()["BatchDeletePartition"] == 2  # 30 deletions, 25 a call
    assert server.calls()["BatchUpdatePartition"] == 3  # 220 moved, 100 a call
    partitions = raw_glue.get_partitions(DatabaseName="logs", TableName="hits")["Partitions"]
    assert len(partitions) == 220
    assert all(p["StorageDescriptor"]["Location"].startswith("s3://lake/logs/moved/n=") for p in partitions)


def test_throttling_is_retried_and_apply_converges(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    files = {
        "sales/database.yaml": "location: s3://lake/sales/\n",
        "sales/tables/orders.yaml": PARTITIONED.format(count=300),
    }
    for index in range(10):
        files[f"sales/tables/t{index}.yaml"] = "storage: csv\n"
    root = write_project(tmp_path, server.endpoint_url, files)
    server.configure(throttle_rate=0.25)
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert server.throttled() > 0
    server.configure()
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0
    assert len(raw_glue.get_tables(DatabaseName="sales")["TableList"]) == 11
    assert len(raw_glue.get_partitions(DatabaseName="sales", TableName="orders")["Partitions"]) == 300


def test_names_are_lowercased_like_glue(server: LocalGlue, raw_glue: Any) -> None:
    raw_glue.create_database(DatabaseInput={"Name": "Sales"})
    raw_glue.create_table(
        DatabaseName="SALES",
        TableInput={"Name": "Orders", "StorageDescriptor": {"Columns": [{"Name": "ID", "Type": "int"}]}},
    )
    table = raw_glue.get_table(DatabaseName="sales", Name="orders")["Table"]
    assert table["Name"] == "orders"
    assert table["StorageDescriptor"]["Columns"][0]["Name"] == "id"
