"""Versions in a sandbox project: plan warns when a table it changes holds more than 90,000 Glue
versions (Glue refuses updates at 100,000), counting them only for a table whose VersionId has passed
90,000; each version keeps its own time across the sandbox's save and restore."""

from __future__ import annotations

import json
from pathlib import Path

from tests.integration.helpers import gluecat, write_project

TABLE = """\
storage: csv
columns:
  - {name: id, type: bigint}
"""


def _crowd(root: Path, table: str, kept: int, current: int) -> None:
    """Give the saved sandbox's table `kept` versions, the newest of them `current` (as years of updates would)."""
    state_file = root / ".gluecat" / "sandbox" / "state.json"
    state = json.loads(state_file.read_text())
    (catalog,) = state["glue"]
    (database,) = catalog["databases"]
    (found,) = [t for t in database["tables"] if t["name"] == table]
    shape = found["versions"][str(found["current"])]
    found["versions"] = {str(n): shape for n in range(current - kept + 1, current + 1)}
    found["current"] = current
    state_file.write_text(json.dumps(state))


def test_plan_warns_over_90000_versions_and_counts_only_past_90000(tmp_path: Path) -> None:
    files = {"web/database.yaml": "location: s3://lake/web/\n"}
    files.update({f"web/tables/{name}.yaml": TABLE for name in ("crowded", "pruned", "young")})
    root = write_project(tmp_path / "project", "", files)
    (root / "catalog.yaml").write_text("region: us-east-1\nsandbox: true\n")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _crowd(root, "crowded", 90_001, 90_001)
    _crowd(root, "pruned", 10, 95_000)
    for name in ("crowded", "pruned", "young"):
        (root / f"web/tables/{name}.yaml").write_text(TABLE + "description: changed\n")
    result = gluecat("plan", str(root))
    assert result.exit_code == 0, result.output
    assert "warning: web.crowded holds 90,001 versions and Glue refuses updates at 100,000" in result.output
    assert "prune-versions --keep N --target web.crowded" in result.output
    assert "web.pruned holds" not in result.output and "web.young holds" not in result.output


def test_each_versions_time_survives_the_sandbox_being_saved_and_restored(tmp_path: Path) -> None:
    files = {"web/database.yaml": "location: s3://lake/web/\n", "web/tables/events.yaml": TABLE}
    root = write_project(tmp_path / "project", "", files)
    (root / "catalog.yaml").write_text("region: us-east-1\nsandbox: true\n")
    for description in ("", "description: first\n", "description: second\n"):
        (root / "web/tables/events.yaml").write_text(TABLE + description)
        assert gluecat("apply", str(root), "--auto-approve").exit_code == 0  # a new sandbox server each time
    found = json.loads(gluecat("history", str(root), "web.events", "--format", "json").output)
    times = [version["written"] for version in found["versions"]]
    assert [version["version"] for version in found["versions"]] == ["3", "2", "1"]
    assert len(set(times)) == 3 and times == sorted(times, reverse=True)
    assert found["versions"][1]["changes"] == [{"path": "description", "before": None, "after": "first"}]
