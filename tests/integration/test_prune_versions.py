"""prune-versions deletes old Glue versions in batches of 100, never the current one; skip_archive
keeps Glue from archiving versions at all."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

TABLE = """\
storage: csv
columns:
  - {name: id, type: bigint}
"""


def _project(tmp_path: Path, server: LocalGlue, catalog_extra: str = "", table: str = TABLE) -> Path:
    files = {"web/database.yaml": "location: s3://lake/web/\n", "web/tables/events.yaml": table}
    files["web/tables/quiet.yaml"] = TABLE
    return write_project(tmp_path / "project", server.endpoint_url, files, catalog_extra)


def _versions(raw_glue: Any, table: str = "events") -> list[str]:
    pages = raw_glue.get_paginator("get_table_versions").paginate(DatabaseName="web", TableName=table)
    return [v["VersionId"] for page in pages for v in page["TableVersions"]]


def _update_times(raw_glue: Any, count: int) -> None:
    live = raw_glue.get_table(DatabaseName="web", Name="events")["Table"]
    shape = {k: live[k] for k in ("Name", "StorageDescriptor", "TableType")}
    for number in range(count):
        raw_glue.update_table(DatabaseName="web", TableInput={**shape, "Description": f"update {number}"})


def test_keep_10_of_250_leaves_the_10_newest_in_3_batch_calls(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = _project(tmp_path, server)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _update_times(raw_glue, 249)
    assert len(_versions(raw_glue)) == 250
    refused = gluecat("prune-versions", str(root), "--keep", "10")
    assert refused.exit_code == 1 and "--auto-approve" in refused.output  # asks, and no terminal here
    server.reset_counts()
    result = gluecat("prune-versions", str(root), "--keep", "10", "--auto-approve")
    assert result.exit_code == 0, result.output
    assert "web.events: delete 240 versions (240-1), keep 250-241 (current 250)" in result.output
    assert "in 3 BatchDeleteTableVersion calls" in result.output and "web.quiet" not in result.output
    assert server.calls()["BatchDeleteTableVersion"] == 3
    assert _versions(raw_glue) == [str(n) for n in range(250, 240, -1)]
    assert raw_glue.get_table(DatabaseName="web", Name="events")["Table"]["Description"] == "update 248"
    again = gluecat("prune-versions", str(root), "--keep", "10", "--auto-approve")
    assert again.exit_code == 0 and "No versions to delete" in again.output


def test_target_limits_the_tables_pruned(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = _project(tmp_path, server)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _update_times(raw_glue, 4)
    quiet = raw_glue.get_table(DatabaseName="web", Name="quiet")["Table"]
    raw_glue.update_table(DatabaseName="web", TableInput={k: quiet[k] for k in ("Name", "StorageDescriptor")})
    result = gluecat("prune-versions", str(root), "--keep", "1", "--target", "web.quiet", "--auto-approve")
    assert result.exit_code == 0, result.output
    assert _versions(raw_glue, "quiet") == ["2"] and _versions(raw_glue) == ["5", "4", "3", "2", "1"]
    wrong = gluecat("prune-versions", str(root), "--keep", "1", "--target", "web.evnts", "--auto-approve")
    assert wrong.exit_code == 1 and "web.events" in wrong.output  # did you mean


def test_skip_archive_keeps_only_the_current_version(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = _project(tmp_path, server, table=TABLE + "skip_archive: true\n")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    for description in ("first", "second"):
        (root / "web/tables/events.yaml").write_text(TABLE + f"description: {description}\nskip_archive: true\n")
        (root / "web/tables/quiet.yaml").write_text(TABLE + f"description: {description}\n")
        assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    assert _versions(raw_glue) == ["3"]  # no archived copy of versions 1 and 2
    assert _versions(raw_glue, "quiet") == ["3", "2", "1"]  # the catalog's default: archive
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_skip_archive_for_every_table_in_catalog_yaml_and_a_table_may_opt_out(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    root = _project(tmp_path, server, "skip_archive: true\n", table=TABLE + "skip_archive: false\n")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "web/tables/events.yaml").write_text(TABLE + "description: changed\nskip_archive: false\n")
    (root / "web/tables/quiet.yaml").write_text(TABLE + "description: changed\n")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    assert _versions(raw_glue) == ["2", "1"] and _versions(raw_glue, "quiet") == ["2"]


def test_import_reads_a_file_with_skip_archive_as_unchanged(tmp_path: Path, server: LocalGlue) -> None:
    """skip_archive says how gluecat writes the table, not what Glue holds: import leaves it be."""
    root = _project(tmp_path, server, table=TABLE + "skip_archive: true\n")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    result = gluecat("import", str(root))
    assert result.exit_code == 0, result.output
    assert "skip_archive: true" in (root / "web/tables/events.yaml").read_text()
    assert "2 unchanged" in result.output and "kept" not in result.output
