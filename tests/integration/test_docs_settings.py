"""`gluecat docs`: owners and an Iceberg table's optimizers in words, not raw settings."""

from __future__ import annotations

import json
from pathlib import Path

from tests.docs_settings import ROLE, settings_project
from tests.integration.helpers import gluecat


def test_owners_and_optimizers_are_read_out(tmp_path: Path) -> None:
    result = gluecat("docs", str(settings_project(tmp_path / "cat")), "--format", "json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    lake = next(db for db in document["databases"] if db["name"] == "lake")
    assert lake["owner"] == "platform"
    pages = {t["name"]: t for t in lake["tables"]}
    assert pages["orders"]["owner"] == "sales-engineering"
    events = pages["events"]
    assert events["owner"] == "analytics-team"
    assert "optimizers" not in events["details"]
    assert events["optimizers"] == [
        {"type": "compaction", "enabled": True, "role": ROLE, "vpc_connection": None,
         "settings": {"strategy": "sort", "min_input_files": 50}},
        {"type": "retention", "enabled": False, "role": ROLE, "vpc_connection": None,
         "settings": {"snapshot_retention_days": 7}},
        {"type": "orphan_file_deletion", "enabled": True, "role": ROLE, "vpc_connection": None, "settings": {}},
    ]  # fmt: skip
    assert pages["orders"]["optimizers"] is None
