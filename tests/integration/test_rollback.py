"""history and rollback --to-version against the local Glue's version keeping: three applied changes
make four versions with the diffs between them; rolling back to version 2 plans the reverse of the
later changes, applies with the VersionId guard and leaves the table equal to version 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gluecat.sandbox.server import LocalGlue
from gluecat.secrets import redact
from tests.integration.helpers import gluecat, write_project

V1 = """\
description: Customers
storage: csv
columns:
  - {name: customer_id, type: bigint}
  - {name: email, type: string}
parameters: {owner_team: crm}
"""
V2 = V1.replace("description: Customers", "description: One row per customer")
V3 = V2.replace(
    "  - {name: email, type: string}\n", "  - {name: email, type: string}\n  - {name: tier, type: string}\n"
)
V4 = V3.replace("customer_id, type: bigint", "customer_id, type: string").replace(
    "owner_team: crm", "owner_team: growth"
)
COMPARED = ("Description", "TableType", "PartitionKeys", "StorageDescriptor", "Parameters")


def _project(tmp_path: Path, server: LocalGlue) -> Path:
    files = {"crm/database.yaml": "location: s3://lake/crm/\n", "crm/tables/customers.yaml": V1}
    return write_project(tmp_path / "project", server.endpoint_url, files)


def _apply(root: Path, text: str) -> None:
    (root / "crm/tables/customers.yaml").write_text(text)
    result = gluecat("apply", str(root), "--auto-approve")
    assert result.exit_code == 0, result.output


def _four_versions(tmp_path: Path, server: LocalGlue) -> Path:
    root = _project(tmp_path, server)
    for text in (V1, V2, V3, V4):
        _apply(root, text)
    return root


def _versions_kept(root: Path) -> int:
    found = json.loads(gluecat("history", str(root), "crm.customers", "--format", "json").output)
    return int(found["versions_kept"])


def _fields(table: dict[str, Any]) -> dict[str, Any]:
    return {key: table.get(key) for key in COMPARED}


def test_history_lists_each_version_with_the_diff_from_the_one_before(tmp_path: Path, server: LocalGlue) -> None:
    root = _four_versions(tmp_path, server)
    result = gluecat("history", str(root), "crm.customers", "--format", "json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    assert found["versions_kept"] == 4
    versions = {v["version"]: v for v in found["versions"]}
    assert [v["version"] for v in found["versions"]] == ["4", "3", "2", "1"]
    assert versions["4"]["current"] and not versions["3"]["current"]

    def changes(version: str) -> dict[str, tuple[Any, Any]]:
        return {c["path"]: (c["before"], c["after"]) for c in versions[version]["changes"]}

    assert changes("2") == {"description": ("Customers", "One row per customer")}
    assert changes("3") == {"columns.tier": (None, "string")}
    assert changes("4") == {
        "columns.customer_id.type": ("bigint", "string"),
        "parameters.owner_team": ("crm", "growth"),
    }
    assert versions["1"]["previous"] is None and versions["1"]["changes"] == []
    assert all(v["written"] for v in found["versions"])
    paged = json.loads(
        gluecat("history", str(root), "crm.customers", "--format", "json", "--limit", "2", "--page", "2").output
    )
    assert [v["version"] for v in paged["versions"]] == ["2", "1"]
    human = gluecat("history", str(root), "crm.customers")
    assert "version 4 (current)" in human.output and "~ columns.customer_id.type: bigint -> string" in human.output


def test_rollback_plans_the_reverse_and_leaves_the_table_equal_to_the_version(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    root = _four_versions(tmp_path, server)
    result = gluecat("rollback", str(root), "crm.customers", "--to-version", "2", "--auto-approve", "--write-yaml")
    assert result.exit_code == 0, result.output
    for reverse in (
        "columns.customer_id.type: string -> bigint",
        "parameters.owner_team: growth -> crm",
        "columns.tier: string -> (absent)",
    ):
        assert reverse in result.output
    assert "description" not in result.output.split("Apply complete")[0].split("rolls crm.customers back")[1]
    live = raw_glue.get_table(DatabaseName="crm", Name="customers")["Table"]
    two = raw_glue.get_table_version(DatabaseName="crm", TableName="customers", VersionId="2")["TableVersion"]["Table"]
    assert _fields(live) == _fields(two)
    assert live["VersionId"] == "5"  # written over version 4, as a new version
    assert "Wrote version 2's definition" in result.output
    clean = gluecat("plan", str(root), "--detailed-exitcode")
    assert clean.exit_code == 0, clean.output


def test_without_write_yaml_the_command_says_the_yaml_is_out_of_date(tmp_path: Path, server: LocalGlue) -> None:
    root = _four_versions(tmp_path, server)
    result = gluecat("rollback", str(root), "crm.customers", "--to-version", "3", "--auto-approve")
    assert result.exit_code == 0, result.output
    assert "still describes the table as it was" in result.output and "--write-yaml" in result.output
    assert (root / "crm/tables/customers.yaml").read_text() == V4
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 2


def test_a_saved_rollback_applied_after_someone_else_changed_the_table_writes_nothing(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    root = _four_versions(tmp_path, server)
    plan_file = tmp_path / "rollback.json"
    saved = gluecat("rollback", str(root), "crm.customers", "--to-version", "2", "--out", str(plan_file))
    assert saved.exit_code == 0, saved.output
    live = raw_glue.get_table(DatabaseName="crm", Name="customers")["Table"]
    theirs = {k: live[k] for k in ("Name", "StorageDescriptor", "Parameters", "TableType")}
    raw_glue.update_table(DatabaseName="crm", TableInput={**theirs, "Description": "someone else"})
    server.reset_counts()
    refused = gluecat("apply", str(plan_file))
    assert refused.exit_code == 1
    assert "crm.customers" in refused.output and "changed" in refused.output
    assert "Traceback" not in refused.output
    assert server.calls()["UpdateTable"] == 0
    after = raw_glue.get_table(DatabaseName="crm", Name="customers")["Table"]
    assert after["Description"] == "someone else" and after["VersionId"] == "5"


def test_rollback_to_a_version_glue_does_not_keep_is_one_line(tmp_path: Path, server: LocalGlue) -> None:
    root = _four_versions(tmp_path, server)
    result = gluecat("rollback", str(root), "crm.customers", "--to-version", "9", "--auto-approve")
    assert result.exit_code == 1
    assert "crm.customers has no version 9" in result.output and "Traceback" not in result.output
    neither = gluecat("rollback", str(root), "crm.customers", "--auto-approve")
    assert neither.exit_code == 1 and "--to-version" in neither.output
    asks = gluecat("rollback", str(root), "crm.customers", "--to-version", "2")  # no terminal to ask on
    assert asks.exit_code == 1 and "pass --auto-approve" in asks.output
    assert _versions_kept(root) == 4


SPARK_VIEW = """\
format: view
dialect: spark
sql: SELECT customer_id FROM crm.customers
columns:
  - {name: customer_id, type: bigint}
"""


def test_a_view_rolls_back_to_its_earlier_sql(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    files = {"crm/database.yaml": "location: s3://lake/crm/\n", "crm/tables/ids.yaml": SPARK_VIEW}
    root = write_project(tmp_path / "project", server.endpoint_url, files)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    changed = SPARK_VIEW.replace("FROM crm.customers", "FROM crm.customers WHERE customer_id > 0")
    (root / "crm/tables/ids.yaml").write_text(changed)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    result = gluecat("rollback", str(root), "crm.ids", "--to-version", "1", "--auto-approve", "--write-yaml")
    assert result.exit_code == 0, result.output
    live = raw_glue.get_table(DatabaseName="crm", Name="ids")["Table"]
    one = raw_glue.get_table_version(DatabaseName="crm", TableName="ids", VersionId="1")["TableVersion"]["Table"]
    assert live["ViewOriginalText"] == one["ViewOriginalText"] and "WHERE" not in live["ViewOriginalText"]
    assert _fields(live) == _fields(one)
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0
    assert "WHERE" not in (root / "crm/tables/ids.yaml").read_text()


def test_write_yaml_never_writes_a_secret_value(tmp_path: Path, server: LocalGlue, monkeypatch: Any) -> None:
    monkeypatch.setenv("CRM_PASSWORD", "s3cr3t-value-42")
    secret = V1.replace(
        "parameters: {owner_team: crm}", 'parameters: {owner_team: crm, jdbc.password: "${env.CRM_PASSWORD}"}'
    )
    root = _project(tmp_path, server)
    _apply(root, secret)
    _apply(root, secret.replace("description: Customers", "description: Changed"))
    monkeypatch.setenv("CRM_PASSWORD", "rotated-value-7")
    _apply(root, secret.replace("description: Customers", "description: Changed"))
    redact.forget_all()  # neither old value is remembered now: history masks them by their key
    monkeypatch.setenv("CRM_PASSWORD", "third-value-9")
    history = gluecat("history", str(root), "crm.customers")
    assert "parameters.jdbc.password" in history.output
    assert "s3cr3t" not in history.output and "rotated" not in history.output
    as_json = gluecat("history", str(root), "crm.customers", "--format", "json").output
    assert "parameters.jdbc.password" in as_json and "s3cr3t" not in as_json and "rotated" not in as_json
    result = gluecat("rollback", str(root), "crm.customers", "--to-version", "1", "--auto-approve", "--write-yaml")
    assert result.exit_code == 0, result.output
    assert "s3cr3t" not in result.output and "rotated" not in result.output
    text = (root / "crm/tables/customers.yaml").read_text()
    assert "s3cr3t-value-42" not in text and "${env." in text and "description: Customers" in text


def test_rollback_removes_what_later_versions_added(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    """A parameter and a description that only later versions hold (one added by the YAML, one by
    someone in the console) are removed, so the table equals the version; an engine's volatile
    parameter stays."""
    root = _project(tmp_path, server)
    _apply(root, V1.replace("description: Customers\n", ""))  # version 1: no description
    _apply(root, V1.replace("description: Customers\n", "").replace("{owner_team: crm}", "{owner_team: crm, pii: yes}"))
    live = raw_glue.get_table(DatabaseName="crm", Name="customers")["Table"]
    table_input = {k: live[k] for k in ("Name", "StorageDescriptor", "PartitionKeys", "TableType", "Parameters")}
    table_input["Description"] = "set in the console"
    table_input["Parameters"] = {**live["Parameters"], "transient_lastDdlTime": "1700000000"}
    raw_glue.update_table(DatabaseName="crm", TableInput=table_input)

    rolled = gluecat("rollback", str(root), "crm.customers", "--to-version", "1", "--auto-approve")
    assert rolled.exit_code == 0, rolled.output
    assert "parameters.pii" in rolled.output and "description" in rolled.output, rolled.output
    now = raw_glue.get_table(DatabaseName="crm", Name="customers")["Table"]
    first = raw_glue.get_table_version(DatabaseName="crm", TableName="customers", VersionId="1")["TableVersion"]
    assert "Description" not in now
    assert now["Parameters"].get("transient_lastDdlTime") == "1700000000"  # an engine's, kept
    volatile = {"transient_lastDdlTime"}
    assert {k: v for k, v in now["Parameters"].items() if k not in volatile} == {
        k: v for k, v in first["Table"]["Parameters"].items() if k not in volatile
    }


def test_rollback_of_a_table_glue_holds_without_parameters(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    """A table made elsewhere with no Parameters at all (the key absent, not empty) rolls back too."""
    root = _project(tmp_path, server)
    _apply(root, V1)
    descriptor = {"Columns": [{"Name": "id", "Type": "bigint"}], "Location": "s3://lake/crm/bare"}
    raw_glue.create_table(DatabaseName="crm", TableInput={"Name": "bare", "StorageDescriptor": descriptor})
    raw_glue.update_table(
        DatabaseName="crm", TableInput={"Name": "bare", "StorageDescriptor": descriptor, "Description": "later"}
    )
    rolled = gluecat("rollback", str(root), "crm.bare", "--to-version", "1", "--auto-approve")
    assert rolled.exit_code == 0, rolled.output
    assert "unexpected error" not in rolled.output
    assert "Description" not in raw_glue.get_table(DatabaseName="crm", Name="bare")["Table"]


def test_a_saved_rollback_with_write_yaml_says_the_plan_is_clean_only_once_applied(
    tmp_path: Path, server: LocalGlue
) -> None:
    root = _four_versions(tmp_path, server)
    plan_file = tmp_path / "rollback.json"

    saved = gluecat(
        "rollback", str(root), "crm.customers", "--to-version", "2", "--out", str(plan_file), "--write-yaml"
    )

    assert saved.exit_code == 0, saved.output
    (said,) = [line for line in saved.stdout.splitlines() if line.startswith("Wrote version 2's definition")]
    assert said.endswith(
        f": once `gluecat apply {plan_file}` has run, the next plan is clean; until then, plan shows the rollback."
    )
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 2  # as it says: not clean yet
    assert gluecat("apply", str(plan_file)).exit_code == 0
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0
