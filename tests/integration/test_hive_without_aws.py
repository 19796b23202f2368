"""`backend: hive` asks AWS for nothing it does not use: with Hive tables only, no AWS credentials
and no region anywhere, a metastore nothing listens on is the one thing reported, in one line naming
its URI; and no library's log line reaches the terminal before it, with credentials or without.

The commands run as the user runs them, in a process of their own with an empty home: in-process,
pytest's log capture would hide what Thrift prints."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

NO_AWS = {"AWS_EC2_METADATA_DISABLED": "true"}  # no instance metadata lookups either
SOME_AWS = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_REGION": "us-east-1"}


def _dead_uri() -> str:
    with socket.socket() as sock:  # bound once, then released: nothing listens on it
        sock.bind(("127.0.0.1", 0))
        return f"thrift://127.0.0.1:{sock.getsockname()[1]}"


def _project(root: Path, uri: str) -> Path:
    (root / "sales" / "tables").mkdir(parents=True)
    (root / "catalog.yaml").write_text(f"backend: hive\nmetastore_uri: {uri}\n")
    (root / "sales" / "database.yaml").write_text("location: s3://lake/sales/\n")
    (root / "sales" / "tables" / "orders.yaml").write_text(
        "storage: parquet\ncolumns:\n  - {name: order_id, type: bigint}\n"
        "partition_keys:\n  - {name: dt, type: string}\n"
    )
    return root


def _run(tmp_path: Path, args: list[str], aws: dict[str, str]) -> subprocess.CompletedProcess[str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    keep = {name: value for name, value in os.environ.items() if not name.startswith("AWS_")}
    env = {**keep, "HOME": str(home), **aws}
    return subprocess.run(
        [sys.executable, "-m", "gluecat", *args],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120, check=False,
    )  # fmt: skip


COMMANDS = [["plan"], ["apply", "--auto-approve"], ["import"]]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: command[0])
def test_a_dead_metastore_is_one_line_without_aws(tmp_path: Path, command: list[str]) -> None:
    uri = _dead_uri()
    root = _project(tmp_path / "p", uri)
    result = _run(tmp_path, [command[0], str(root), *command[1:]], NO_AWS)
    assert result.returncode == 1, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: cannot reach the Hive Metastore")
    assert uri in lines[0]
    assert "AWS" not in lines[0]


def test_history_says_a_metastore_keeps_no_versions_without_asking_for_aws(tmp_path: Path) -> None:
    root = _project(tmp_path / "p", _dead_uri())
    result = _run(tmp_path, ["history", str(root), "sales.orders"], NO_AWS)
    assert result.returncode == 1, result.stderr
    assert result.stderr.strip().splitlines() == [
        "error: history reads Glue's table versions; a Hive Metastore keeps none"
    ]


def test_no_thrift_log_lines_with_credentials_either(tmp_path: Path) -> None:
    uri = _dead_uri()
    root = _project(tmp_path / "p", uri)
    result = _run(tmp_path, ["plan", str(root)], SOME_AWS)
    assert result.returncode == 1, result.stderr
    assert result.stderr.strip().splitlines() == [result.stderr.strip()], result.stderr
    assert uri in result.stderr
