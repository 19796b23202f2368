"""The README's walk-through: the example catalog against the embedded sandbox, as a user runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.helpers import copy_example


def _gluecat(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gluecat", *args], cwd=cwd, capture_output=True, text=True, check=False, timeout=300
    )


def test_example_walkthrough_persists_between_commands(tmp_path: Path) -> None:
    project = tmp_path / "example"
    copy_example(project)

    first = _gluecat("plan", "example", "--detailed-exitcode", cwd=tmp_path)
    assert first.returncode == 2, first.stderr
    applied = _gluecat("apply", "example", "--auto-approve", cwd=tmp_path)
    assert applied.returncode == 0, applied.stderr
    assert "Traceback" not in applied.stderr

    sandbox = project / ".gluecat" / "sandbox"
    state = json.loads((sandbox / "state.json").read_text())
    (catalog,) = state["glue"]
    databases = {d["name"]: d for d in catalog["databases"]}
    assert set(databases) == {"sales", "web", "lake"}
    tables = {t["name"]: t["versions"][str(t["current"])] for t in databases["lake"]["tables"]}
    assert tables["events"]["Parameters"]["table_type"] == "ICEBERG"
    assert tables["inventory"]["Parameters"]["table_type"] == "DELTA"
    (lake,) = [b for b in state["buckets"] if b["name"] == "example-lake"]
    keys = set(lake["objects"])
    assert any(k.startswith("warehouse/lake.db/events/metadata/") and k.endswith(".metadata.json") for k in keys)
    assert any(k.startswith("warehouse/lake.db/inventory/_delta_log/") for k in keys), "the Delta log is kept"
    for digest in lake["objects"].values():
        assert (sandbox / "objects" / digest[:2] / digest).is_file()

    second = _gluecat("plan", "example", "--detailed-exitcode", cwd=tmp_path)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "No changes" in second.stdout


def test_an_unreadable_saved_state_is_one_clear_line(tmp_path: Path) -> None:
    project = tmp_path / "example"
    copy_example(project)
    state = project / ".gluecat" / "sandbox"
    state.mkdir(parents=True)
    (state / "state.json").write_text("{not json")

    result = _gluecat("plan", "example", cwd=tmp_path)
    assert result.returncode == 1
    assert "cannot restore the sandbox state" in result.stderr
    assert "move it aside" in result.stderr
    assert "Traceback" not in result.stderr
    assert (state / "state.json").read_text() == "{not json", "a state that could not be read is never overwritten"


def _state(glue: object = (), buckets: object = (), indexes: object = ()) -> str:
    return json.dumps({"format": 2, "glue": glue, "buckets": buckets, "partition_indexes": indexes})


_TABLE = {"name": "t", "versions": {"1": {"Name": "t"}}, "current": "1", "partitions": []}
_DAMAGED = {
    "a bucket moto refuses": _state(buckets=[{"account": "1", "name": "b", "region": "us-east-1", "objects": {}}]),
    "a partition that is no object": _state(
        glue=[
            {
                "account": "1",
                "region": "us-east-1",
                "databases": [{"name": "x", "input": {"Name": "x"}, "tables": [dict(_TABLE, partitions=[1])]}],
            }
        ]
    ),
    "a missing table version": _state(
        glue=[
            {
                "account": "1",
                "region": "us-east-1",
                "databases": [{"name": "x", "input": {"Name": "x"}, "tables": [dict(_TABLE, current="9")]}],
            }
        ]
    ),
    "a missing object body": _state(
        buckets=[{"account": "1", "name": "lake-bucket", "region": "us-east-1", "objects": {"k": "ab" * 32}}]
    ),
}


@pytest.mark.parametrize("damage", sorted(_DAMAGED))
def test_a_damaged_saved_state_is_one_clear_line(tmp_path: Path, damage: str) -> None:
    project = tmp_path / "example"
    copy_example(project)
    state = project / ".gluecat" / "sandbox"
    state.mkdir(parents=True)
    (state / "state.json").write_text(_DAMAGED[damage])

    result = _gluecat("plan", "example", cwd=tmp_path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "unexpected error" not in result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert "cannot restore the sandbox state from" in line and "move it aside" in line
    assert (state / "state.json").read_text() == _DAMAGED[damage], "a damaged state is never overwritten"


def test_a_state_that_cannot_be_saved_is_one_line_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    """A full disk or a read-only directory, as root cannot be refused: state.json is a directory."""
    project = tmp_path / "example"
    copy_example(project)
    state = project / ".gluecat" / "sandbox"
    (state / "state.json").mkdir(parents=True)

    result = _gluecat("apply", "example", "--auto-approve", cwd=tmp_path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    (line,) = [line for line in result.stderr.splitlines() if "could not save" in line]
    assert "is lost" in line and "run the command again" in line
    assert result.stderr.count("could not save") == 1, "the server does not report it again as it stops"
    assert not [p.name for p in state.iterdir() if p.name.endswith(".tmp")], "no half-written file is left"


def test_a_project_where_the_sandbox_cannot_keep_state_is_one_line(tmp_path: Path) -> None:
    project = tmp_path / "example"
    copy_example(project)
    (project / ".gluecat").write_text("not a directory")

    result = _gluecat("plan", "example", cwd=tmp_path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and "unexpected error" not in result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert "cannot use the sandbox state in" in line and "make it writable" in line


def test_an_aws_profile_this_machine_lacks_does_not_stop_the_sandbox(tmp_path: Path) -> None:
    """AWS_PROFILE set for other work: the sandbox never reaches AWS, so it never reads the profile."""
    project = tmp_path / "example"
    copy_example(project)
    environment = {**os.environ, "AWS_PROFILE": "not-on-this-machine", "AWS_CONFIG_FILE": str(tmp_path / "none")}

    def gluecat(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "gluecat", *args],
            cwd=tmp_path,
            env=environment,
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
        )

    applied = gluecat("apply", "example", "--auto-approve")
    assert applied.returncode == 0, applied.stderr
    planned = gluecat("plan", "example", "--detailed-exitcode")
    assert planned.returncode == 0, planned.stdout + planned.stderr
