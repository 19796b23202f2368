"""Iceberg table optimizers as code, against the local Glue: applied, re-planned clean, changed
type by type, adopted by import, and re-checked before apply writes."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

ROLE = "arn:aws:iam::123456789012:role/glue-optimizer"
ACCOUNT = "123456789012"  # the local Glue's account: CatalogId of every optimizer call
EVENTS = """\
format: iceberg
columns:
  - {name: id, type: bigint}
  - {name: ts, type: timestamp}
sort_order:
  - {column: ts}
"""
OPTIMIZERS = f"""\
optimizers:
  role_arn: {ROLE}
  compaction: {{strategy: sort, min_input_files: 50}}
  retention: {{snapshot_retention_days: 7, snapshots_to_retain: 3}}
  orphan_file_deletion: {{retention_days: 5}}
"""
WRITES = ("CreateTableOptimizer", "UpdateTableOptimizer", "DeleteTableOptimizer")


def _project(root: Path, server: LocalGlue, events: str) -> Path:
    files = {"lake/database.yaml": "location: s3://lake/lake.db/\n", "lake/tables/events.yaml": events}
    return write_project(root, server.endpoint_url, files, catalog_extra="warehouse: s3://lake/warehouse\n")


def _optimizer(glue: Any, kind: str, table: str = "events") -> dict[str, Any] | None:
    try:
        answer = glue.get_table_optimizer(CatalogId=ACCOUNT, DatabaseName="lake", TableName=table, Type=kind)
    except glue.exceptions.EntityNotFoundException:
        return None
    configuration: dict[str, Any] = answer["TableOptimizer"]["configuration"]
    return configuration


def _writes(server: LocalGlue) -> dict[str, int]:
    calls = server.calls()
    return {name: calls[name] for name in WRITES if calls[name]}


def _changes(root: Path) -> list[dict[str, Any]]:
    planned = gluecat("plan", str(root), "--format", "json")
    assert planned.exit_code == 0, planned.output
    return [c for c in json.loads(planned.stdout)["changes"] if c["kind"] == "optimizer"]


def test_an_optimizers_block_applies_replans_clean_and_is_adopted_by_import(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, lake_bucket: str
) -> None:
    root = _project(tmp_path / "project", server, EVENTS + OPTIMIZERS)
    changes = _changes(root)
    assert [(c["address"], c["action"], c["impact"], c["destructive"]) for c in changes] == [
        ("lake.events:compaction", "create", "safe", False),
        ("lake.events:retention", "create", "breaking", False),  # Glue will expire snapshots
        ("lake.events:orphan_file_deletion", "create", "safe", False),
    ]
    assert {"path": "strategy", "before": None, "after": "sort"} in changes[0]["diffs"]
    assert [f["rule"] for f in changes[1]["findings"]] == ["snapshot-expiry"]

    server.reset_counts()
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert "3 optimizers created" in applied.stdout
    assert _writes(server) == {"CreateTableOptimizer": 3}
    assert _optimizer(raw_glue, "compaction") == {
        "enabled": True,
        "roleArn": ROLE,
        "compactionConfiguration": {"icebergConfiguration": {"strategy": "sort", "minInputFiles": 50}},
    }
    retention = _optimizer(raw_glue, "retention")
    assert retention is not None
    assert retention["retentionConfiguration"]["icebergConfiguration"] == {
        "snapshotRetentionPeriodInDays": 7,
        "numberOfSnapshotsToRetain": 3,
    }
    orphans = _optimizer(raw_glue, "orphan_file_deletion")
    assert orphans is not None
    assert orphans["orphanFileDeletionConfiguration"]["icebergConfiguration"] == {"orphanFileRetentionPeriodInDays": 5}

    server.reset_counts()
    again = gluecat("plan", str(root), "--detailed-exitcode")
    assert again.exit_code == 0, again.output
    assert server.calls()["BatchGetTableOptimizer"] == 1  # all three types of the table in one call
    assert server.calls()["GetTableOptimizer"] == 0

    imported = tmp_path / "imported"
    imported.mkdir()
    (imported / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
    server.reset_counts()
    assert gluecat("import", str(imported)).exit_code == 0
    assert server.calls()["BatchGetTableOptimizer"] == 1
    text = (imported / "lake/tables/events.yaml").read_text()
    assert f"optimizers:\n  role_arn: {ROLE}\n  compaction:\n    strategy: sort\n    min_input_files: 50\n" in text, (
        text
    )
    assert "  orphan_file_deletion:\n    retention_days: 5\n" in text, text
    reimported = gluecat("plan", str(imported), "--detailed-exitcode")
    assert reimported.exit_code == 0, reimported.output

    # The project's own file, Glue's defaults spelled out and keys in another order, means the same.
    spelled = OPTIMIZERS.replace("{strategy: sort,", "{delete_file_threshold: 1, strategy: sort,").replace(
        "{retention_days: 5}", "{retention_days: 5, run_rate_hours: 24}"
    )
    own = EVENTS + "properties: {format-version: 2}\n" + spelled
    (root / "lake/tables/events.yaml").write_text(own)
    again = gluecat("import", str(root))
    assert again.exit_code == 0, again.output
    assert "1 table file: 0 written, 1 unchanged, 0 differ" in again.stdout, again.stdout
    assert (root / "lake/tables/events.yaml").read_text() == own


def test_each_type_changes_alone_and_a_type_left_out_is_deleted(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, lake_bucket: str
) -> None:
    root = _project(tmp_path / "project", server, EVENTS + OPTIMIZERS)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    table_file = root / "lake/tables/events.yaml"

    loosened = OPTIMIZERS.replace("strategy: sort, min_input_files: 50", "strategy: binpack").replace(
        "snapshot_retention_days: 7", "snapshot_retention_days: 30"
    )
    table_file.write_text(EVENTS + loosened)
    changes = _changes(root)
    assert [(c["address"], c["action"], c["impact"]) for c in changes] == [
        ("lake.events:compaction", "update", "safe"),
        ("lake.events:retention", "update", "safe"),  # keeping snapshots longer expires nothing new
    ]
    assert changes[0]["diffs"] == [
        {"path": "strategy", "before": "sort", "after": "binpack"},
        {"path": "min_input_files", "before": 50, "after": 100},  # left out: Glue's default
    ]
    tightened = loosened.replace("snapshots_to_retain: 3", "snapshots_to_retain: 1")
    table_file.write_text(EVENTS + tightened)
    assert [c["impact"] for c in _changes(root)] == ["safe", "breaking"]

    without_orphans = tightened.replace("  orphan_file_deletion: {retention_days: 5}\n", "")
    table_file.write_text(EVENTS + without_orphans)
    changes = _changes(root)
    assert changes[-1]["address"] == "lake.events:orphan_file_deletion"
    assert (changes[-1]["action"], changes[-1]["destructive"]) == ("delete", False)
    server.reset_counts()
    applied = gluecat("apply", str(root), "--auto-approve")  # no --allow-destroy: an optimizer holds no data
    assert applied.exit_code == 0, applied.output
    assert _writes(server) == {"UpdateTableOptimizer": 2, "DeleteTableOptimizer": 1}
    assert _optimizer(raw_glue, "orphan_file_deletion") is None
    compaction = _optimizer(raw_glue, "compaction")
    assert compaction is not None
    assert compaction["compactionConfiguration"]["icebergConfiguration"] == {"strategy": "binpack"}
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0

    table_file.write_text(EVENTS)  # no `optimizers:` at all: live ones are left alone, and not read
    server.reset_counts()
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0
    assert server.calls()["BatchGetTableOptimizer"] == 0
    assert _optimizer(raw_glue, "compaction") is not None


def test_an_optimizer_made_elsewhere_with_the_defaults_written_out_plans_clean(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, lake_bucket: str
) -> None:
    root = _project(tmp_path / "project", server, EVENTS)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    location = json.loads(json.dumps(raw_glue.get_table(DatabaseName="lake", Name="events")["Table"], default=str))
    table_location = location["StorageDescriptor"]["Location"]
    console = {
        "enabled": True,
        "roleArn": ROLE,
        "compactionConfiguration": {
            "icebergConfiguration": {"strategy": "binpack", "minInputFiles": 100, "deleteFileThreshold": 1}
        },
    }
    raw_glue.create_table_optimizer(
        CatalogId=ACCOUNT,
        DatabaseName="lake",
        TableName="events",
        Type="compaction",
        TableOptimizerConfiguration=console,
    )
    orphans = {
        "enabled": True,
        "roleArn": ROLE,
        "orphanFileDeletionConfiguration": {
            "icebergConfiguration": {"orphanFileRetentionPeriodInDays": 3, "location": table_location + "/"}
        },
    }
    raw_glue.create_table_optimizer(
        CatalogId=ACCOUNT, DatabaseName="lake", TableName="events", Type="orphan_file_deletion",
        TableOptimizerConfiguration=orphans,
    )  # fmt: skip
    declared = f"optimizers:\n  role_arn: {ROLE}\n  compaction: {{}}\n  orphan_file_deletion: {{}}\n"
    (root / "lake/tables/events.yaml").write_text(EVENTS + declared)
    planned = gluecat("plan", str(root), "--detailed-exitcode")
    assert planned.exit_code == 0, planned.output


def test_apply_refuses_an_optimizer_changed_since_the_plan(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, lake_bucket: str
) -> None:
    root = _project(tmp_path / "project", server, EVENTS + OPTIMIZERS)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "lake/tables/events.yaml").write_text(
        EVENTS + OPTIMIZERS.replace("min_input_files: 50", "min_input_files: 75")
    )
    saved = tmp_path / "plan.json"
    assert gluecat("plan", str(root), "--out", str(saved)).exit_code == 0

    elsewhere = {
        "enabled": False,
        "roleArn": ROLE,
        "compactionConfiguration": {"icebergConfiguration": {"strategy": "binpack"}},
    }
    raw_glue.update_table_optimizer(
        CatalogId=ACCOUNT, DatabaseName="lake", TableName="events", Type="compaction",
        TableOptimizerConfiguration=elsewhere,
    )  # fmt: skip
    server.reset_counts()
    refused = gluecat("apply", str(saved))
    assert refused.exit_code != 0
    assert "lake.events:compaction" in refused.output and "stale" in refused.output, refused.output
    assert _writes(server) == {}
    assert _optimizer(raw_glue, "compaction") == elsewhere

    assert gluecat("plan", str(root), "--out", str(saved)).exit_code == 0  # planned again, the saved plan applies
    applied = gluecat("apply", str(saved))
    assert applied.exit_code == 0, applied.output
    compaction = _optimizer(raw_glue, "compaction")
    assert compaction is not None and compaction["enabled"] is True
    assert compaction["compactionConfiguration"]["icebergConfiguration"] == {"strategy": "sort", "minInputFiles": 75}


def test_bad_optimizer_values_are_named_at_their_line(tmp_path: Path, server: LocalGlue) -> None:
    bad = (
        EVENTS.replace("sort_order:\n  - {column: ts}\n", "")
        + "optimizers:\n"
        + "  role_arn: arn:aws:iam::123456789012:role/glue-optimizer\n"
        + "  compaction: {strategy: z-order}\n"
    )
    root = _project(tmp_path / "project", server, bad)
    checked = gluecat("validate", str(root))
    assert checked.exit_code == 1
    assert "events.yaml:7:26" in checked.output and "optimizer-sort-order" in checked.output, checked.output

    for text, line, words in (
        ("  role_arn: arn:aws:s3:::lake-bucket\n  retention: {}\n", 8, "not an IAM role ARN"),
        (f"  role_arn: {ROLE}\n  retention: {{run_rate_hours: 200}}\n", 9, "168"),
        (f"  role_arn: {ROLE}\n  compaction: {{strategy: zorder}}\n", 9, "z-order"),
        ("  compaction: {}\n", 8, "role_arn"),
    ):
        (root / "lake/tables/events.yaml").write_text(EVENTS + "optimizers:\n" + text)
        checked = gluecat("validate", str(root))
        assert checked.exit_code == 1, checked.output
        assert f"events.yaml:{line}" in checked.output and words in checked.output, checked.output


def test_plan_and_import_read_optimizers_in_batches_and_only_for_iceberg_tables(
    tmp_path: Path, server: LocalGlue, lake_bucket: str
) -> None:
    compaction = f"optimizers:\n  role_arn: {ROLE}\n  compaction: {{}}\n"
    files = {f"lake/tables/t{n:02}.yaml": EVENTS + compaction for n in range(33)}
    files["lake/tables/plain.yaml"] = "storage: parquet\ncolumns:\n  - {name: id, type: bigint}\n"
    files["lake/database.yaml"] = "location: s3://lake/lake.db/\n"
    root = write_project(tmp_path / "project", server.endpoint_url, files, "warehouse: s3://lake/warehouse\n")
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert "33 optimizers created" in applied.stdout

    server.reset_counts()
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0
    assert server.calls()["BatchGetTableOptimizer"] == 1  # 33 tables x 3 types: 99 entries, one call of 100

    imported = tmp_path / "imported"
    imported.mkdir()
    (imported / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
    server.reset_counts()
    assert gluecat("import", str(imported)).exit_code == 0
    # One call: the Hive table's 3 entries would have made it two.
    assert (server.calls()["BatchGetTableOptimizer"], server.calls()["GetTableOptimizer"]) == (1, 0)
    assert all("  compaction: {}\n" in p.read_text() for p in (imported / "lake/tables").glob("t*.yaml"))
    assert "optimizers" not in (imported / "lake/tables/plain.yaml").read_text()

    (root / "lake/tables/t33.yaml").write_text(EVENTS + compaction)  # a 34th: 102 entries
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    server.reset_counts()
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0
    assert server.calls()["BatchGetTableOptimizer"] == 2


def test_the_sandbox_keeps_optimizers_between_commands(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "lake/tables").mkdir(parents=True)
    (project / "catalog.yaml").write_text("region: us-east-1\nsandbox: true\nwarehouse: s3://sandbox-lake/warehouse\n")
    (project / "lake/database.yaml").write_text("location: s3://sandbox-lake/lake.db/\n")
    (project / "lake/tables/events.yaml").write_text(EVENTS + OPTIMIZERS)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "gluecat", *args, str(project)]
        return subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)

    applied = run("apply", "--auto-approve")
    assert applied.returncode == 0, applied.stdout + applied.stderr
    saved = project / ".gluecat/sandbox/optimizers.json"
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    assert sorted(entry["type"] for entry in json.loads(saved.read_text())) == [
        "compaction", "orphan_file_deletion", "retention",
    ]  # fmt: skip
    planned = run("plan", "--detailed-exitcode")  # a new sandbox server, restored from the saved state
    assert planned.returncode == 0, planned.stdout + planned.stderr
    (project / "lake/tables/events.yaml").write_text(
        EVENTS + OPTIMIZERS.replace("min_input_files: 50", "min_input_files: 60")
    )
    changed = run("plan", "--detailed-exitcode")
    assert changed.returncode == 2 and "lake.events:compaction" in changed.stdout, changed.stdout + changed.stderr


def test_a_lost_entry_registered_again_gets_its_optimizers_back(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, lake_bucket: str
) -> None:
    root = _project(tmp_path / "project", server, EVENTS + OPTIMIZERS)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    raw_glue.delete_table(DatabaseName="lake", Name="events")  # the entry and its optimizers go; S3 keeps the table
    assert _optimizer(raw_glue, "compaction") is None

    planned = json.loads(gluecat("plan", str(root), "--format", "json").stdout)["changes"]
    assert [(c["address"], c["action"]) for c in planned] == [
        ("lake.events", "register"),
        ("lake.events:compaction", "create"),
        ("lake.events:retention", "create"),
        ("lake.events:orphan_file_deletion", "create"),
    ]
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert "3 optimizers created" in applied.stdout and "1 table registered" in applied.stdout
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0
