"""Partition indexes against the local Glue: added and removed in place, never by recreating the table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import ORDERS, gluecat, sales_project

INDEXED = ORDERS + "partition_indexes:\n  - {name: by_dt, keys: [dt]}\n"
WRITES = ("CreateTable", "UpdateTable", "DeleteTable", "BatchCreatePartition", "BatchUpdatePartition",
          "BatchDeletePartition", "CreatePartitionIndex", "DeletePartitionIndex")  # fmt: skip


def _indexes(glue: Any, table: str = "orders") -> list[tuple[str, list[str], str]]:
    listed = glue.get_partition_indexes(DatabaseName="sales", TableName=table)["PartitionIndexDescriptorList"]
    return [(d["IndexName"], [k["Name"] for k in d["Keys"]], d["IndexStatus"]) for d in listed]


def _partitions(glue: Any) -> list[dict[str, Any]]:
    found = glue.get_partitions(DatabaseName="sales", TableName="orders")["Partitions"]
    return sorted(found, key=lambda p: p["Values"])


def _writes(server: LocalGlue) -> dict[str, int]:
    calls = server.calls()
    return {name: calls[name] for name in WRITES if calls[name]}


def test_adding_an_index_keeps_the_table_and_its_partitions(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = sales_project(tmp_path / "project", server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    created = raw_glue.get_table(DatabaseName="sales", Name="orders")["Table"]["CreateTime"]
    partitions = _partitions(raw_glue)
    assert len(partitions) == 10

    (root / "sales/tables/orders.yaml").write_text(INDEXED)
    planned = gluecat("plan", str(root), "--format", "json")
    changes = json.loads(planned.stdout)["changes"]
    assert [(c["address"], c["kind"], c["action"], c["destructive"]) for c in changes] == [
        ("sales.orders#by_dt", "index", "create", False)
    ]
    assert changes[0]["diffs"] == [{"path": "keys", "before": None, "after": "dt"}]
    human = gluecat("plan", str(root)).stdout
    assert "+ sales.orders#by_dt" in human and "partition_filtering.enabled" in human, human

    server.reset_counts()
    applied = gluecat("apply", str(root), "--auto-approve")  # no --allow-destroy: nothing is destroyed
    assert applied.exit_code == 0, applied.output
    assert "1 index created" in applied.stdout
    assert _indexes(raw_glue) == [("by_dt", ["dt"], "ACTIVE")]  # apply returned once the index was usable
    assert _writes(server) == {"CreatePartitionIndex": 1}
    assert server.calls()["GetPartitionIndexes"] >= 2  # planned, then polled until ACTIVE
    assert raw_glue.get_table(DatabaseName="sales", Name="orders")["Table"]["CreateTime"] == created
    assert _partitions(raw_glue) == partitions

    server.reset_counts()
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0
    assert server.calls()["GetPartitionIndexes"] == 1  # one call, for the one table that declares indexes

    imported = tmp_path / "imported"
    imported.mkdir()
    (imported / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
    assert gluecat("import", str(imported)).exit_code == 0
    text = (imported / "sales/tables/orders.yaml").read_text()
    assert "partition_indexes:\n  - name: by_dt\n    keys:\n      - dt\n" in text, text
    assert "partition_indexes" not in (imported / "sales/tables/customers.yaml").read_text()  # unpartitioned
    assert gluecat("plan", str(imported), "--detailed-exitcode").exit_code == 0

    (root / "sales/tables/orders.yaml").write_text(ORDERS + "partition_indexes: []\n")
    planned_removal = gluecat("plan", str(root))
    assert "- sales.orders#by_dt" in planned_removal.stdout and "destructive" not in planned_removal.stdout
    server.reset_counts()
    removed = gluecat("apply", str(root), "--auto-approve")
    assert removed.exit_code == 0, removed.output
    assert _writes(server) == {"DeletePartitionIndex": 1}
    assert _indexes(raw_glue) == []  # gone, not DELETING: apply waited
    assert _partitions(raw_glue) == partitions
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_new_keys_replace_the_index_and_a_new_table_gets_indexes_in_create_table(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    two_keys = ORDERS.replace(
        "  - {name: dt, type: string}\n", "  - {name: dt, type: string}\n  - {name: region, type: string}\n"
    )
    two_keys = two_keys.replace(
        "dt: {from: 2024-01-01, to: 2024-01-10}", "dt: {from: 2024-01-01, to: 2024-01-03}\n      region: [eu, us]"
    )
    root = sales_project(tmp_path, server.endpoint_url, orders=two_keys + "partition_indexes:\n  - {name: by_dt, keys: [dt]}\n")  # fmt: skip
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    assert server.calls()["CreatePartitionIndex"] == 0  # CreateTable carried it
    assert _indexes(raw_glue) == [("by_dt", ["dt"], "ACTIVE")]

    (root / "sales/tables/orders.yaml").write_text(
        two_keys + "partition_indexes:\n  - {name: by_dt, keys: [region, dt]}\n"
    )
    planned = gluecat("plan", str(root))
    assert "-/+ sales.orders#by_dt" in planned.stdout and "index keys cannot change" in planned.stdout, planned.stdout
    assert "keys: dt -> region, dt" in planned.stdout
    server.reset_counts()
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    assert _writes(server) == {"DeletePartitionIndex": 1, "CreatePartitionIndex": 1}
    assert _indexes(raw_glue) == [("by_dt", ["region", "dt"], "ACTIVE")]
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_tables_without_the_key_leave_live_indexes_alone(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    raw_glue.create_partition_index(  # as a crawler does
        DatabaseName="sales", TableName="orders", PartitionIndex={"IndexName": "crawler_idx", "Keys": ["dt"]}
    )
    server.reset_counts()
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0
    assert server.calls()["GetPartitionIndexes"] == 0


def test_a_failed_build_is_an_error_naming_its_backfill_errors(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    hourly = ORDERS.replace("{name: dt, type: string}", "{name: hr, type: int}").replace(
        "partitions:\n  - expand:\n      dt: {from: 2024-01-01, to: 2024-01-10}\n", ""
    )
    root = sales_project(tmp_path, server.endpoint_url, orders=hourly)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    raw_glue.batch_create_partition(DatabaseName="sales", TableName="orders",
                                    PartitionInputList=[{"Values": ["7"]}, {"Values": ["late"]}])  # fmt: skip
    (root / "sales/tables/orders.yaml").write_text(hourly + "partition_indexes: [{name: by_hr, keys: [hr]}]\n")
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 1
    assert "could not build partition index by_hr: INVALID_PARTITION_TYPE_DATA_ERROR on 1 partition: (late)" in (
        applied.output
    )
    planned = gluecat("plan", str(root))  # never clean while the index is broken
    assert "-/+ sales.orders#by_hr" in planned.stdout and "Glue failed to build it" in planned.stdout


def test_a_saved_plan_is_refused_when_the_indexes_changed_since(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "sales/tables/orders.yaml").write_text(INDEXED)
    saved = tmp_path / "plan.json"
    assert gluecat("plan", str(root), "--out", str(saved)).exit_code == 0
    raw_glue.create_partition_index(
        DatabaseName="sales", TableName="orders", PartitionIndex={"IndexName": "other", "Keys": ["dt"]}
    )
    refused = gluecat("apply", str(saved))
    assert refused.exit_code == 1 and "sales.orders#by_dt changed in Glue" in refused.output, refused.output


def test_the_sandbox_keeps_indexes_between_commands(tmp_path: Path) -> None:
    root = tmp_path / "project"
    sales_project(root, "http://unused", catalog_extra="sandbox: true\n", orders=INDEXED)
    catalog = (root / "catalog.yaml").read_text().replace("endpoint_url: http://unused\n", "")
    (root / "catalog.yaml").write_text(catalog)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "gluecat", *args, str(root)]
        return subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)

    applied = run("apply", "--auto-approve")
    assert applied.returncode == 0, applied.stderr
    state = json.loads((root / ".gluecat/sandbox/state.json").read_text())
    (orders,) = [entry for entry in state["partition_indexes"] if entry["table"] == "orders"]
    assert [(i["IndexName"], [k["Name"] for k in i["Keys"]]) for i in orders["indexes"]] == [("by_dt", ["dt"])]
    planned = run("plan", "--detailed-exitcode")
    assert planned.returncode == 0, planned.stdout + planned.stderr
