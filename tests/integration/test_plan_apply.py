"""plan and apply against the strict local Glue: what Glue holds afterwards."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gluecat.changes.model import FORMAT_VERSION
from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import ORDERS, gluecat, sales_project


def test_apply_creates_what_the_plan_lists_then_plan_is_empty(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    planned = gluecat("plan", str(root), "--detailed-exitcode")
    assert planned.exit_code == 2, planned.output
    assert "+ sales.orders" in planned.stdout
    assert "sales.orders[dt=2024-01-01]" in planned.stdout

    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert "Apply complete" in applied.stdout

    table = raw_glue.get_table(DatabaseName="sales", Name="orders")["Table"]
    descriptor = table["StorageDescriptor"]
    assert descriptor["InputFormat"] == "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat"
    assert (
        descriptor["SerdeInfo"]["SerializationLibrary"] == "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe"
    )
    assert descriptor["Location"] == "s3://lake/sales/orders"
    assert [c["Type"] for c in descriptor["Columns"]] == ["bigint", "decimal(12,2)"]
    partitions = raw_glue.get_partitions(DatabaseName="sales", TableName="orders")["Partitions"]
    assert len(partitions) == 10
    located = {p["Values"][0]: p["StorageDescriptor"]["Location"] for p in partitions}
    assert located["2024-01-05"] == "s3://lake/sales/orders/dt=2024-01-05/"

    again = gluecat("plan", str(root), "--detailed-exitcode")
    assert again.exit_code == 0, again.output
    assert "No changes" in again.stdout


def test_update_shows_field_diffs_and_keeps_partitions(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    changed = ORDERS.replace("order_id, type: bigint", "order_id, type: string").replace(
        "description: Orders", "description: All orders"
    )
    (root / "sales/tables/orders.yaml").write_text(changed)

    planned = gluecat("plan", str(root))
    assert "~ sales.orders" in planned.stdout
    assert "columns.order_id.type: bigint -> string" in planned.stdout
    assert "description: Orders -> All orders" in planned.stdout

    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    table = raw_glue.get_table(DatabaseName="sales", Name="orders")["Table"]
    assert table["StorageDescriptor"]["Columns"][0]["Type"] == "string"
    assert len(raw_glue.get_partitions(DatabaseName="sales", TableName="orders")["Partitions"]) == 10


def test_spelling_of_types_never_diffs(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    table = raw_glue.get_table(DatabaseName="sales", Name="customers")["Table"]
    table_input = {k: table[k] for k in ("Name", "StorageDescriptor", "TableType", "Parameters", "PartitionKeys")}
    table_input["StorageDescriptor"]["Columns"][0]["Type"] = "BIGINT"
    raw_glue.update_table(DatabaseName="sales", TableInput=table_input, VersionId=table["VersionId"])
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_target_limits_the_plan(tmp_path: Path, server: LocalGlue) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve", "--target", "sales").exit_code == 0
    (root / "sales/tables/orders.yaml").write_text(ORDERS.replace("description: Orders", "description: X"))
    (root / "sales/tables/customers.yaml").write_text("storage: csv\ndescription: Y\n")
    planned = gluecat("plan", str(root), "--target", "sales.orders", "--format", "json")
    addresses = [c["address"] for c in json.loads(planned.stdout)["changes"]]
    assert addresses == ["sales.orders"]


def test_formats(tmp_path: Path, server: LocalGlue) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    data = json.loads(gluecat("plan", str(root), "--format", "json").stdout)
    assert data["format_version"] == FORMAT_VERSION
    assert data["summary"]["create"] == 13
    assert {c["address"] for c in data["changes"]} == {"sales", "sales.orders", "sales.customers"}
    markdown = gluecat("plan", str(root), "--format", "markdown").stdout
    assert markdown.startswith("### gluecat plan")
    assert "| `+` | `sales.orders` | create table |" in markdown


def test_saved_plan_applies_exactly(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    plan_file = tmp_path / "plan.json"
    assert gluecat("plan", str(root), "--out", str(plan_file)).exit_code == 0
    (root / "sales/tables/extra.yaml").write_text("storage: orc\n")  # not in the saved plan
    applied = gluecat("apply", str(plan_file))
    assert applied.exit_code == 0, applied.output
    names = {t["Name"] for t in raw_glue.get_tables(DatabaseName="sales")["TableList"]}
    assert names == {"orders", "customers"}


def test_a_live_table_the_yaml_leaves_out_is_named_not_called_a_match(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    raw_glue.create_table(DatabaseName="sales", TableInput={"Name": "legacy", "TableType": "EXTERNAL_TABLE"})
    human = gluecat("plan", str(root), "--detailed-exitcode")
    assert human.exit_code == 0, human.output
    assert "1 live table not in the YAML, left alone (prune is off): sales.legacy" in human.stdout
    assert "No changes to what the YAML declares." in human.stdout
    assert "matches the YAML" not in human.stdout
    markdown = gluecat("plan", str(root), "--format", "markdown").stdout.splitlines()
    note = next(i for i, line in enumerate(markdown) if line.startswith("> note: 1 live table"))
    assert markdown[note + 1] == "", "a line right after the quote would join it"


def test_unmanaged_databases_and_tables_appear_in_every_format_and_never_as_changes(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    raw_glue.create_table(DatabaseName="sales", TableInput={"Name": "by_hand", "TableType": "EXTERNAL_TABLE"})
    raw_glue.create_database(DatabaseInput={"Name": "scratch_by_hand"})
    human = gluecat("plan", str(root), "--detailed-exitcode")
    assert human.exit_code == 0, human.output  # never a change
    assert "sales.by_hand" in human.stdout
    assert "live database" in human.stdout and "scratch_by_hand" in human.stdout
    plan = json.loads(gluecat("plan", str(root), "--format", "json").stdout)
    assert "sales.by_hand" in plan["unmanaged"]["tables"]
    assert "scratch_by_hand" in plan["unmanaged"]["databases"]
    assert plan["changes"] == []
    markdown = gluecat("plan", str(root), "--format", "markdown").stdout
    assert "sales.by_hand" in markdown and "scratch_by_hand" in markdown
