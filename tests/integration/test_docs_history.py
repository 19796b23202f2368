"""`gluecat docs --live`: each table's versions (how many, the latest with their times) and an Iceberg
table's snapshots (count, the current one's id, time, operation and records)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import ORDERS, gluecat, sales_project
from tests.integration.test_rollback_iceberg import _events


def _pages(document: dict[str, Any]) -> dict[str, Any]:
    return {t["id"]: t for db in document["databases"] for t in db["tables"]}


def test_live_lists_a_tables_versions_and_an_iceberg_tables_snapshots(
    tmp_path: Path, server: LocalGlue, lake_bucket: str
) -> None:
    _, snapshots = _events(server, tmp_path)
    root = sales_project(tmp_path / "cat", server.endpoint_url, orders=ORDERS)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    for description in ("Orders, placed", "Orders, placed and paid"):
        (root / "sales" / "tables" / "orders.yaml").write_text(
            ORDERS.replace("description: Orders", f"description: {description}")
        )
        assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    before = server.calls()
    result = gluecat("docs", str(root), "--live", "--format", "json")
    assert result.exit_code == 0, result.output
    calls = server.calls() - before
    # One paged read per table for its versions, beside what a plan reads; the Iceberg file is read from S3.
    assert calls["GetTableVersions"] == 3 and calls["GetTables"] == 2 and calls["GetTable"] == 0
    pages = _pages(json.loads(result.stdout))
    versions = pages["sales.orders"]["live"]["Versions"]
    assert versions["count"] == 3
    assert [v["version"] for v in versions["latest"]] == ["3", "2", "1"]
    assert all(v["time"] for v in versions["latest"])
    events = pages["lake.events"]["live"]["Snapshots"]
    assert events["count"] == 3
    current = events["current"]
    assert current["id"] == str(snapshots[-1]) and current["operation"] == "append"
    assert current["added_records"] == "2" and current["total_records"] == "5"
    assert current["time"].endswith("+00:00")
    assert [s["id"] for s in events["latest"]] == [str(s) for s in snapshots[::-1]]
    assert "Snapshots" not in pages["sales.orders"]["live"]
