"""The README's walk-through: the example catalog against the embedded sandbox, as a user runs it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).parents[2] / "catalogs" / "example"


def _gluecat(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gluecat", *args], cwd=cwd, capture_output=True, text=True, check=False, timeout=300
    )


def test_example_walkthrough_persists_between_commands(tmp_path: Path) -> None:
    project = tmp_path / "example"
    shutil.copytree(EXAMPLE, project)

    first = _gluecat("plan", "example", "--detailed-exitcode", cwd=tmp_path)
    assert first.returncode == 2, first.stderr
    applied = _gluecat("apply", "example", "--auto-approve", cwd=tmp_path)
    assert applied.returncode == 0, applied.stderr
    assert "Traceback" not in applied.stderr

    sandbox = project / ".gluecat" / "sandbox"
    state = json.loads((sandbox / "glue.json").read_text())
    assert {d["Name"] for d in state["databases"]} == {"sales", "web", "lake"}
    tables = {(t["database"], t["input"]["Name"]): t["input"] for t in state["tables"]}
    assert tables[("lake", "events")]["Parameters"]["table_type"] == "ICEBERG"
    assert tables[("lake", "inventory")]["Parameters"]["table_type"] == "DELTA"
    lake = sandbox / "s3" / "example-lake" / "warehouse" / "lake.db"
    assert list((lake / "events" / "metadata").glob("*.metadata.json")), "Iceberg metadata in the sandbox S3"
    assert list((lake / "inventory" / "_delta_log").glob("*.json")), "the Delta log in the sandbox S3"

    second = _gluecat("plan", "example", "--detailed-exitcode", cwd=tmp_path)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "No changes" in second.stdout
