"""The safety rules of SPEC §4, each proven against the strict local Glue."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gluecat.apply.run import apply_plan
from gluecat.backends.connect import connect
from gluecat.plan import serialize
from gluecat.project.load import load_project
from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import ORDERS, gluecat, sales_project


class _Silent:
    def advance(self, units: int) -> None:
        pass

    def note(self, message: str) -> None:
        pass


def _live_table(raw_glue: Any, name: str) -> dict[str, Any]:
    return raw_glue.get_table(DatabaseName="sales", Name=name)["Table"]  # type: ignore[no-any-return]


def _table_input(table: dict[str, Any]) -> dict[str, Any]:
    keys = (
        "Name",
        "Description",
        "Owner",
        "Retention",
        "StorageDescriptor",
        "PartitionKeys",
        "TableType",
        "Parameters",
    )
    return {k: table[k] for k in keys if k in table}


def test_rule1_no_deletion_without_allow_destroy(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = sales_project(tmp_path, server.endpoint_url, catalog_extra="prune: true\n")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "sales/tables/customers.yaml").unlink()
    (root / "sales/tables/fresh.yaml").write_text("storage: orc\n")
    (root / "sales/tables/orders.yaml").write_text(ORDERS.replace("2024-01-10", "2024-01-08"))

    refused = gluecat("apply", str(root), "--auto-approve")
    assert refused.exit_code == 1
    assert "--allow-destroy" in refused.output
    names = {t["Name"] for t in raw_glue.get_tables(DatabaseName="sales")["TableList"]}
    assert names == {"orders", "customers"}, "nothing may change when the plan is refused"
    assert len(raw_glue.get_partitions(DatabaseName="sales", TableName="orders")["Partitions"]) == 10

    allowed = gluecat("apply", str(root), "--auto-approve", "--allow-destroy")
    assert allowed.exit_code == 0, allowed.output
    names = {t["Name"] for t in raw_glue.get_tables(DatabaseName="sales")["TableList"]}
    assert names == {"orders", "fresh"}
    assert len(raw_glue.get_partitions(DatabaseName="sales", TableName="orders")["Partitions"]) == 8


def test_without_prune_undeclared_tables_and_partitions_stay(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "sales/tables/customers.yaml").unlink()
    (root / "sales/tables/orders.yaml").write_text(ORDERS.replace("2024-01-10", "2024-01-08"))
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_rule2_engine_owned_and_undeclared_parameters(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = sales_project(tmp_path, server.endpoint_url, catalog_extra="ignore_parameters: ['dq.*']\n")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    table = _live_table(raw_glue, "customers")
    table_input = _table_input(table)
    table_input["Parameters"] = {
        "transient_lastDdlTime": "1700000000",
        "spark.sql.statistics.numRows": "42",
        "UPDATED_BY_CRAWLER": "nightly",
        "dq.score": "0.97",
        "team": "growth",
    }
    raw_glue.update_table(DatabaseName="sales", TableInput=table_input, VersionId=table["VersionId"])
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0

    (root / "sales/tables/customers.yaml").write_text(
        "storage: csv\ndescription: now described\nparameters:\n  transient_lastDdlTime: '1'\n  classification: csv\n"
    )
    planned = gluecat("plan", str(root))
    assert "transient_lastDdlTime" not in planned.stdout
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    params = _live_table(raw_glue, "customers")["Parameters"]
    assert params["transient_lastDdlTime"] == "1700000000"
    assert params["team"] == "growth" and params["dq.score"] == "0.97"
    assert params["classification"] == "csv"


def test_rule3_update_passes_version_and_refuses_a_concurrent_change(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "sales/tables/customers.yaml").write_text("storage: csv\ndescription: ours\n")
    project = load_project(root)
    with connect(project) as connection:
        from gluecat.plan.planner import make_plan
        from gluecat.project.targets import Targets

        plan = make_plan(project, connection, Targets(), lambda _: None)
        theirs = _live_table(raw_glue, "customers")
        their_input = _table_input(theirs) | {"Description": "theirs"}
        raw_glue.update_table(DatabaseName="sales", TableInput=their_input, VersionId=theirs["VersionId"])
        result = apply_plan(connection, plan, _Silent())
    assert not result.ok
    assert "sales.customers" in result.failures[0].address
    assert "not overwritten" in result.failures[0].message
    assert _live_table(raw_glue, "customers")["Description"] == "theirs"


def test_rule3_saved_plan_is_refused_when_stale(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "sales/tables/customers.yaml").write_text("storage: csv\ndescription: ours\n")
    (root / "sales/tables/more.yaml").write_text("storage: orc\n")
    plan_file = tmp_path / "plan.json"
    assert gluecat("plan", str(root), "--out", str(plan_file)).exit_code == 0
    theirs = _live_table(raw_glue, "customers")
    raw_glue.update_table(
        DatabaseName="sales", TableInput=_table_input(theirs) | {"Description": "theirs"}, VersionId=theirs["VersionId"]
    )
    refused = gluecat("apply", str(plan_file))
    assert refused.exit_code == 1
    assert "stale" in refused.output and "sales.customers" in refused.output
    assert _live_table(raw_glue, "customers")["Description"] == "theirs"
    names = {t["Name"] for t in raw_glue.get_tables(DatabaseName="sales")["TableList"]}
    assert "more" not in names, "a stale saved plan changes nothing at all"


def test_rule5_per_entry_errors_fail_apply_and_a_rerun_converges(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve", "--target", "sales.customers").exit_code == 0
    raw_glue.create_table(
        DatabaseName="sales",
        TableInput={"Name": "orders", "PartitionKeys": [{"Name": "dt", "Type": "string"}], "TableType": "EXTERNAL_TABLE",
                    "StorageDescriptor": {"Columns": [{"Name": "order_id", "Type": "bigint"}, {"Name": "amount", "Type": "decimal(12,2)"}],
                                          "Location": "s3://lake/sales/orders"}},
    )  # fmt: skip
    plan_file = tmp_path / "plan.json"
    assert gluecat("plan", str(root), "--out", str(plan_file)).exit_code == 0
    # Someone adds one of the planned partitions after the plan, out of band; the saved plan's
    # fingerprint notices, so apply the plan object directly to reach BatchCreatePartition.
    raw_glue.create_partition(
        DatabaseName="sales", TableName="orders",
        PartitionInput={"Values": ["2024-01-03"], "StorageDescriptor": {"Location": "s3://lake/sales/orders/dt=2024-01-03/"}},
    )  # fmt: skip
    plan = serialize.from_json(json.loads(plan_file.read_text()))
    with connect(load_project(root)) as connection:
        result = apply_plan(connection, plan, _Silent())
    assert [f.address for f in result.failures] == ["sales.orders[dt=2024-01-03]"]
    assert "AlreadyExists" in result.failures[0].message
    assert len(raw_glue.get_partitions(DatabaseName="sales", TableName="orders")["Partitions"]) == 10

    rerun = gluecat("apply", str(root), "--auto-approve")
    assert rerun.exit_code == 0, rerun.output
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_rule6_live_fields_outside_the_model_are_carried_over(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    table = _live_table(raw_glue, "customers")
    table_input = _table_input(table)
    table_input["Owner"] = "hadoop"
    table_input["Retention"] = 7
    descriptor = table_input["StorageDescriptor"]
    descriptor["NumberOfBuckets"] = 4
    descriptor["BucketColumns"] = ["customer_id"]
    descriptor["Parameters"] = {"sd.extra": "kept"}
    descriptor["SerdeInfo"]["Parameters"]["skip.header.line.count"] = "1"
    descriptor["Columns"][1]["Comment"] = "live comment"
    raw_glue.update_table(DatabaseName="sales", TableInput=table_input, VersionId=table["VersionId"])

    (root / "sales/tables/customers.yaml").write_text(
        "storage: csv\ndescription: changed\ncolumns:\n  - {name: customer_id, type: bigint}\n  - {name: email, type: string}\n"
    )
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    after = _live_table(raw_glue, "customers")
    assert after["Description"] == "changed"
    assert after["Owner"] == "hadoop" and after["Retention"] == 7
    assert after["StorageDescriptor"]["NumberOfBuckets"] == 4
    assert after["StorageDescriptor"]["BucketColumns"] == ["customer_id"]
    assert after["StorageDescriptor"]["Parameters"] == {"sd.extra": "kept"}
    assert after["StorageDescriptor"]["SerdeInfo"]["Parameters"]["skip.header.line.count"] == "1"
    assert after["StorageDescriptor"]["Columns"][1]["Comment"] == "live comment"


def test_rule7_secrets_are_masked_in_every_format(tmp_path: Path, server: LocalGlue) -> None:
    root = sales_project(
        tmp_path, server.endpoint_url,
        vault="storage: csv\nparameters:\n  jdbc.password: hunter2\n  api_token: abc123\n  plain: visible\n",
    )  # fmt: skip
    for output_format in ("human", "json", "markdown"):
        shown = gluecat("plan", str(root), "--format", output_format).output
        assert "hunter2" not in shown and "abc123" not in shown, output_format
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "sales/tables/vault.yaml").write_text("storage: csv\nparameters:\n  jdbc.password: hunter3\n")
    for output_format in ("human", "json", "markdown"):
        shown = gluecat("plan", str(root), "--format", output_format).output
        assert "parameters.jdbc.password" in shown
        assert "hunter2" not in shown and "hunter3" not in shown, output_format


def test_partition_key_change_is_a_destructive_replace(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "sales/tables/orders.yaml").write_text(ORDERS.replace("name: dt, type: string", "name: dt, type: date"))
    planned = gluecat("plan", str(root))
    assert "-/+ sales.orders" in planned.stdout and "(destructive)" in planned.stdout
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 1
    assert gluecat("apply", str(root), "--auto-approve", "--allow-destroy").exit_code == 0
    assert raw_glue.get_table(DatabaseName="sales", Name="orders")["Table"]["PartitionKeys"][0]["Type"] == "date"
    assert len(raw_glue.get_partitions(DatabaseName="sales", TableName="orders")["Partitions"]) == 10
