"""Defects the third trust round found, each driven as a user meets it: what they saw is gone and
stays gone (the issue's "Why" lists them)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import boto3
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyiceberg.catalog.glue import GlueCatalog
from pyiceberg.schema import Schema
from pyiceberg.types import LongType, NestedField

from gluecat.sandbox.server import LocalGlue
from gluecat.sandbox.state import running_sandbox
from gluecat.sandbox.tracking import SAVE_PATH, Tracking
from gluecat.secrets.files import OutsideRoot
from tests.integration.helpers import gluecat, sales_project, write_project
from tests.strategies import document_paths

REGISTRATION = """\
format: registration
reason: Glue holds the column 'a' without a type, which no table file can say
table_input:
  TableType: EXTERNAL_TABLE
  Description: as registered
  StorageDescriptor:
    Columns: [{Name: a}]
    Location: s3://lake/sales/reg/
"""


def _carried(raw_glue: Any) -> dict[str, Any]:
    table = raw_glue.get_table(DatabaseName="sales", Name="reg")["Table"]
    return {key: table.get(key) for key in ("Description", "StorageDescriptor", "Parameters")}


@pytest.mark.parametrize("saved", [False, True], ids=["rollback", "rollback --out, then apply"])
def test_rollback_of_a_registration_writes_the_version_back(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, saved: bool
) -> None:
    files = {"sales/database.yaml": "location: s3://lake/sales/\n", "sales/tables/reg.yaml": REGISTRATION}
    root = write_project(tmp_path / "project", server.endpoint_url, files)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    version_1 = _carried(raw_glue)
    raw_glue.update_table(
        DatabaseName="sales",
        TableInput={
            "Name": "reg", "TableType": "EXTERNAL_TABLE", "Description": "changed by hand",
            "Parameters": {"added": "later"},
            "StorageDescriptor": {"Columns": [{"Name": "a"}, {"Name": "b"}], "Location": "s3://lake/sales/reg/"},
        },
    )  # fmt: skip

    if saved:
        plan = tmp_path / "rollback.json"
        rolled = gluecat("rollback", str(root), "sales.reg", "--to-version", "1", "--out", str(plan))
        assert rolled.exit_code == 0, rolled.output
        result = gluecat("apply", str(plan), "--auto-approve")
    else:
        result = gluecat("rollback", str(root), "sales.reg", "--to-version", "1", "--auto-approve")
        rolled = result
    assert result.exit_code == 0, result.output
    assert "nothing to write" not in result.output
    assert "description: changed by hand -> as registered" in result.output
    assert "plans leave a registration as it is, so the rollback stands" in rolled.output  # not "would undo"
    assert _carried(raw_glue) == version_1
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0

    again = gluecat("rollback", str(root), "sales.reg", "--to-version", "1", "--auto-approve")
    assert again.exit_code == 0 and "nothing to write" in again.output, again.output


TABLE = "storage: csv\ncolumns:\n  - {name: a, type: int}\n"


@pytest.mark.parametrize("saved", [False, True], ids=["rollback", "rollback --out"])
def test_rollback_write_yaml_refuses_a_linked_table_file_before_touching_glue(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, saved: bool
) -> None:
    root = write_project(tmp_path / "project", server.endpoint_url, {"sales/database.yaml": "location: s3://lake/s/\n"})
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text(TABLE)
    (root / "sales/tables").mkdir()
    (root / "sales/tables/t.yaml").symlink_to(outside)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    outside.write_text(TABLE.replace("int", "bigint"))
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0

    plan = tmp_path / "rollback.json"
    extra = ("--out", str(plan)) if saved else ("--auto-approve",)
    result = gluecat("rollback", str(root), "sales.t", "--to-version", "1", "--write-yaml", *extra)
    assert result.exit_code == 1
    (line,) = result.output.strip().splitlines()
    assert line.startswith("error: refusing to write") and "t.yaml" in line and "outside" in line, line
    assert raw_glue.get_table(DatabaseName="sales", Name="t")["Table"]["VersionId"] == "2"
    assert not plan.exists()
    assert outside.read_text() == TABLE.replace("int", "bigint")


ROLE = "arn:aws:iam::123456789012:role/glue-optimizer"
EVENTS = "format: iceberg\ncolumns:\n  - {name: id, type: bigint}\n"


def test_a_live_optimizer_without_enabled_imports_and_replans_clean(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, lake_bucket: str
) -> None:
    files = {"lake/database.yaml": "location: s3://lake/lake.db/\n", "lake/tables/events.yaml": EVENTS}
    root = write_project(tmp_path / "project", server.endpoint_url, files, "warehouse: s3://lake/lake.db\n")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    names = {"CatalogId": "123456789012", "DatabaseName": "lake", "TableName": "events", "Type": "compaction"}
    raw_glue.create_table_optimizer(**names, TableOptimizerConfiguration={"roleArn": ROLE})
    (root / "lake/tables/events.yaml").unlink()

    imported = gluecat("import", str(root), "--database", "lake")
    assert imported.exit_code == 0, imported.output
    assert "compaction:\n    enabled: false\n" in (root / "lake/tables/events.yaml").read_text()
    planned = gluecat("plan", str(root), "--detailed-exitcode")
    assert planned.exit_code == 0, planned.output

    # A file that wants it running says so, and Glue is told so once.
    (root / "lake/tables/events.yaml").write_text(EVENTS + f"optimizers:\n  role_arn: {ROLE}\n  compaction: {{}}\n")
    planned = gluecat("plan", str(root))
    assert "enabled: False -> True" in planned.output, planned.output
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    assert raw_glue.get_table_optimizer(**names)["TableOptimizer"]["configuration"]["enabled"] is True
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


HIVE_INPUT = {
    "InputFormat": "org.apache.hadoop.mapred.TextInputFormat",
    "OutputFormat": "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat",
    "SerdeInfo": {"SerializationLibrary": "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe"},
}


def test_a_bucket_name_s3_refuses_imports_into_the_sandbox_and_plans_go_on(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "catalog.yaml").write_text("region: us-east-1\nsandbox: true\n")
    with running_sandbox(root, None) as endpoint:  # someone wrote to the sandbox's Glue directly
        glue = boto3.client("glue", endpoint_url=endpoint, region_name="us-east-1")
        glue.create_database(DatabaseInput={"Name": "sales", "LocationUri": "s3://sandbox-lake/sales/"})
        descriptor = {"Columns": [{"Name": "a", "Type": "int"}], "Location": "s3://ab/t/", **HIVE_INPUT}
        glue.create_table(DatabaseName="sales", TableInput={"Name": "t", "StorageDescriptor": descriptor})

    imported = gluecat("import", str(root))
    assert imported.exit_code == 0, imported.output
    assert "s3-bucket" in (root / "sales/tables/t.yaml").read_text()
    planned = gluecat("plan", str(root), "--detailed-exitcode")
    assert planned.exit_code == 0, planned.output
    table = root / "sales/tables/t.yaml"
    table.write_text(table.read_text() + "description: still managed\n")
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0 and "unexpected" not in applied.output, applied.output
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_a_lone_surrogate_in_live_text_is_one_table_s_failure_not_the_import_s(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    root = write_project(tmp_path / "project", server.endpoint_url, {})
    raw_glue.create_database(DatabaseInput={"Name": "sales", "LocationUri": "s3://lake/sales/"})
    column = {"Name": "a", "Type": "int"}
    shapes = {
        "a_fine": ([column], {}),
        "comment": ([{**column, "Comment": "x\ud800y"}], {}),
        "parameter": ([column], {"note": "low \udfff alone"}),
        "z_fine": ([column], {}),
    }
    for name, (columns, parameters) in shapes.items():
        descriptor = {"Columns": columns, "Location": f"s3://lake/sales/{name}/", **HIVE_INPUT}
        raw_glue.create_table(
            DatabaseName="sales", TableInput={"Name": name, "StorageDescriptor": descriptor, "Parameters": parameters}
        )

    imported = gluecat("import", str(root))
    assert imported.exit_code == 1, imported.output
    assert "unexpected" not in imported.output and "Traceback" not in imported.output
    failures = [line for line in imported.output.splitlines() if line.startswith("not imported")]
    assert failures == [
        "not imported sales.comment: columns[0].comment holds a lone UTF-16 surrogate ('\\ud800'), which no YAML"
        " file can hold: correct it in Glue, then import again",
        "not imported sales.parameter: parameters.note holds a lone UTF-16 surrogate ('\\udfff'), which no YAML"
        " file can hold: correct it in Glue, then import again",
    ], imported.output
    assert sorted(p.name for p in (root / "sales/tables").iterdir()) == ["a_fine.yaml", "z_fine.yaml"]
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


IDX = """\
storage: parquet
columns: [{name: id, type: bigint}]
partition_keys: [{name: dt, type: string}]
partition_indexes: [{name: by_dt, keys: [dt]}]
partitions: [{values: {dt: '2024-01-01'}}]
"""
OPTIMIZED = EVENTS + f"optimizers:\n  role_arn: {ROLE}\n  compaction: {{}}\n"


def _saved_plan(tmp_path: Path, server: LocalGlue) -> tuple[Path, dict[str, Any]]:
    """A saved plan creating a database, Hive tables with partitions, an index, an Iceberg table and
    its optimizer: every shape apply reads from a plan file."""
    root = sales_project(tmp_path / "project", server.endpoint_url, "warehouse: s3://lake/wh\n", idx=IDX,
                         events=OPTIMIZED)  # fmt: skip
    plan = tmp_path / "plan.json"
    assert gluecat("plan", str(root), "--out", str(plan)).exit_code == 0
    document = json.loads(plan.read_text())
    del document["digest"]
    return plan, document


def _forged(plan: Path, document: dict[str, Any]) -> None:
    """Written with its digest recomputed, as anyone who can write the file can."""
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    digest = "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    plan.write_text(json.dumps({**document, "digest": digest}))


def _change(document: dict[str, Any], kind: str, table_format: str = "hive") -> dict[str, Any]:
    return next(c for c in document["changes"] if c["kind"] == kind and (c["table_kind"] or "hive") == table_format)


def _refused_in_one_line(plan: Path, server: LocalGlue) -> str:
    server.reset_counts()
    result = gluecat("apply", str(plan), "--auto-approve")
    assert result.exit_code != 0
    (line,) = result.output.strip().splitlines()
    assert line.startswith(f"error: {plan}: ") and "unexpected" not in line, result.output
    assert not any(server.calls().values()) or "GetCallerIdentity" in server.calls()
    return line


FORGERIES = {
    "a reason that is null": lambda d: _change(d, "table").update(reason=None),
    "unmanaged databases that are no list": lambda d: d["unmanaged"].update(databases=True),
    "an Iceberg create without its location": lambda d: _change(d, "table", "iceberg")["desired"].pop("location"),
    "an optimizer without its type": lambda d: _change(d, "optimizer")["desired"].pop("Type"),
    "a binding whose root is a number": lambda d: d["binding"].update(root=1),
    "recorded secrets that are no mapping": lambda d: d.update(secrets=1.5),
    "partition fingerprints of another width": lambda d: d["partitions"][0].update(
        live_fingerprints=[{"values": ["a", "b"], "fingerprint": "x"}]
    ),
}


@pytest.mark.parametrize("forge", FORGERIES.values(), ids=FORGERIES.keys())
def test_a_forged_saved_plan_is_refused_in_one_line(
    tmp_path: Path, server: LocalGlue, lake_bucket: str, forge: Callable[[dict[str, Any]], object]
) -> None:
    plan, document = _saved_plan(tmp_path, server)
    forge(document)
    _forged(plan, document)
    line = _refused_in_one_line(plan, server)
    assert "not a gluecat plan" in line, line
    assert raw_databases(server) == []


def raw_databases(server: LocalGlue) -> list[str]:
    glue = boto3.client("glue", endpoint_url=server.endpoint_url, region_name="us-east-1")
    return [d["Name"] for d in glue.get_databases()["DatabaseList"]]


JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-2, 2), st.floats(allow_nan=False), st.text(max_size=4),
    st.lists(st.integers(), max_size=2), st.lists(st.text(max_size=2), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_forged_field_is_refused_in_one_line_or_applied_without_an_internal_error(
    tmp_path_factory: pytest.TempPathFactory, server: LocalGlue, data: st.DataObject
) -> None:
    server.reset()
    boto3.client("s3", endpoint_url=server.endpoint_url, region_name="us-east-1").create_bucket(Bucket="lake")
    plan, document = _saved_plan(tmp_path_factory.mktemp("forged"), server)
    path = data.draw(st.sampled_from(document_paths(document)), label="path")
    parent = document
    for part in path[:-1]:
        parent = parent[part]
    if isinstance(parent, dict) and data.draw(st.booleans(), label="delete"):
        del parent[path[-1]]  # a key left out
    elif isinstance(parent[path[-1]], str) and data.draw(st.booleans(), label="truncate"):
        parent[path[-1]] = parent[path[-1]][: len(parent[path[-1]]) // 2]  # a value cut short
    else:
        parent[path[-1]] = data.draw(JUNK, label="junk")  # a value of another type
    _forged(plan, document)
    result = gluecat("apply", str(plan), "--auto-approve")
    assert "unexpected error" not in result.output and "Traceback" not in result.output, result.output
    if "not a gluecat plan" in result.output:
        (line,) = result.output.strip().splitlines()
        assert line.startswith(f"error: {plan}: "), line


def _sandbox_project(tmp_path: Path, description: str = "one") -> Path:
    root = tmp_path / "project"
    (root / "sales/tables").mkdir(parents=True, exist_ok=True)
    (root / "catalog.yaml").write_text("region: us-east-1\nsandbox: true\n")
    (root / "sales/database.yaml").write_text("location: s3://sandbox-lake/sales/\n")
    (root / "sales/tables/t.yaml").write_text(TABLE + f"description: {description}\n")
    return root


def test_a_linked_sandbox_state_file_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    root = _sandbox_project(tmp_path)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    state = root / ".gluecat/sandbox/state.json"
    elsewhere = tmp_path / "elsewhere.json"
    state.rename(elsewhere)
    state.symlink_to(elsewhere)
    kept = elsewhere.read_bytes()
    _sandbox_project(tmp_path, "two")

    result = gluecat("apply", str(root), "--auto-approve")
    assert result.exit_code == 1
    (line,) = result.output.strip().splitlines()  # no server traceback, no "Apply complete", no HTTP 500
    assert line.startswith("error: the sandbox state's") and "state.json is a symbolic link" in line, line
    assert "replace the link with the file" in line
    assert elsewhere.read_bytes() == kept

    state.unlink()
    elsewhere.rename(state)
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0 and "1 table updated" in applied.output, applied.output


def test_a_save_the_files_refuse_is_one_answer_not_a_server_error() -> None:
    def refused() -> None:
        raise OutsideRoot("refusing to write state.json: a symbolic link takes it outside the sandbox")

    tracking = Tracking(lambda environ, start: [b"{}"], refused)
    tracking.note_write()
    answers: list[str] = []
    body = tracking({"PATH_INFO": SAVE_PATH}, lambda status, headers: answers.append(status))
    assert answers == ["200 OK"]
    assert json.loads(b"".join(body)) == {"saved": False, "error": "refusing to write state.json: a symbolic link"
                                          " takes it outside the sandbox"}  # fmt: skip
    assert tracking.save_on_exit() is None  # reported once, to the command that asked


@pytest.mark.parametrize("name", ["lakeformation.json", "optimizers.json"])
@pytest.mark.parametrize("text", ["{not json", "[1, 2]", '{"grants": 5, "tags": {"k": 3}}'])
def test_a_damaged_sandbox_state_file_is_one_line_naming_it(tmp_path: Path, name: str, text: str) -> None:
    root = _sandbox_project(tmp_path)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    damaged = root / ".gluecat/sandbox" / name
    damaged.write_text(text)

    # A process of its own, as a user runs it: the server's stderr is the terminal's too.
    result = subprocess.run([sys.executable, "-m", "gluecat", "plan", str(root)], capture_output=True, text=True)
    assert result.returncode == 1
    (line,) = (result.stdout + result.stderr).strip().splitlines()  # no traceback from the server
    assert line.startswith(f"error: cannot restore the sandbox state from {damaged} ("), line
    assert line.endswith("move it aside (or delete it to start over without what it held)"), line


@pytest.mark.parametrize("secret", ["able", "date", "sales", "hive"])
def test_a_secret_spelled_inside_gluecat_s_own_words_leaves_the_saved_plan_usable(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, monkeypatch: pytest.MonkeyPatch, secret: str
) -> None:
    monkeypatch.setenv("DB_TOKEN", secret)
    token = TABLE + "parameters:\n  token: ${env.DB_TOKEN}\n"
    root = sales_project(tmp_path / "project", server.endpoint_url, tok=token)
    plan = tmp_path / "plan.json"
    assert gluecat("plan", str(root), "--out", str(plan)).exit_code == 0
    saved = json.loads(plan.read_text())
    assert {c["kind"] for c in saved["changes"]} == {"database", "table"}  # its words, as gluecat reads them
    assert {c["action"] for c in saved["changes"]} == {"create"}
    tok = next(c for c in saved["changes"] if c["address"] == "sales.tok")
    assert tok["desired"]["Parameters"] == {"token": "(sensitive:DB_TOKEN)"}  # the value, never in clear

    applied = gluecat("apply", str(plan), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert raw_glue.get_table(DatabaseName="sales", Name="tok")["Table"]["Parameters"] == {"token": secret}
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


OWNER_SECRET = "hunter2-owner-9"


def test_history_masks_a_password_in_an_owner(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    files = {"sales/database.yaml": "location: s3://lake/sales/\n", "sales/tables/t.yaml": TABLE}
    root = write_project(tmp_path / "project", server.endpoint_url, files)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    table = raw_glue.get_table(DatabaseName="sales", Name="t")["Table"]
    keep = ("Name", "StorageDescriptor", "PartitionKeys", "TableType", "Parameters")
    table_input = {key: table[key] for key in keep if key in table}
    raw_glue.update_table(DatabaseName="sales", TableInput={**table_input, "Owner": f"svc;Password={OWNER_SECRET}"})
    raw_glue.update_table(DatabaseName="sales", TableInput={**table_input, "Owner": "svc", "Description": "later"})

    human = gluecat("history", str(root), "sales.t")
    shown = gluecat("history", str(root), "sales.t", "--format", "json")
    assert human.exit_code == 0 and shown.exit_code == 0, human.output + shown.output
    assert "owner: " in human.output and "svc;Password=" in human.output  # the change is shown, its secret not
    for output in (human.output, shown.output):
        assert OWNER_SECRET not in output


def test_history_masks_secret_looking_keys_of_iceberg_snapshot_summaries(
    tmp_path: Path, server: LocalGlue, lake_bucket: str
) -> None:
    client = boto3.client("glue", endpoint_url=server.endpoint_url, region_name="us-east-1")
    properties = {"s3.endpoint": server.endpoint_url, "s3.access-key-id": "testing"}
    properties.update({"s3.secret-access-key": "testing", "s3.region": "us-east-1"})
    catalog = GlueCatalog("test", client=client, **properties)
    catalog.create_namespace("lake")
    table = catalog.create_table("lake.events", Schema(NestedField(1, "n", LongType())), location="s3://lake/events")
    summary = {"jdbc.password": "summary-secret-1", "spark.app.id": "app-7"}
    table.append(pa.Table.from_pylist([{"n": 1}], schema=table.schema().as_arrow()), snapshot_properties=summary)
    root = write_project(tmp_path / "project", server.endpoint_url, {"lake/database.yaml": "location: s3://lake/\n"})

    shown = gluecat("history", str(root), "lake.events", "--format", "json")
    assert shown.exit_code == 0, shown.output
    (snapshot,) = json.loads(shown.output)["snapshots"]
    assert snapshot["summary"]["spark.app.id"] == "app-7"
    assert snapshot["summary"]["jdbc.password"] != "summary-secret-1"
    assert "summary-secret-1" not in shown.output
    assert "summary-secret-1" not in gluecat("history", str(root), "lake.events").output


def test_the_sandbox_s_bucket_error_masks_a_password_in_the_location(tmp_path: Path) -> None:
    root = _sandbox_project(tmp_path)
    database = "location: s3://reader:bucket-pass-5@sandbox-lake/sales/\nlint: {allow: [s3-bucket]}\n"
    (root / "sales/database.yaml").write_text(database)

    result = gluecat("plan", str(root))
    assert result.exit_code == 1
    (line,) = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert "makes no bucket for" in line and "name the bucket alone (s3://sandbox-lake/...)" in line, line
    assert "bucket-pass-5" not in result.output
