"""Several real pyiceberg writers and `gluecat apply` evolving the same table through the local Glue
at once: every commit reported done is kept (the local Glue checks a VersionId and writes the table
as one step, as Glue does), and every column gluecat added is there."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import boto3
import pyarrow as pa
from pyiceberg.catalog.glue import GlueCatalog
from pyiceberg.exceptions import CommitFailedException

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import write_project

WRITERS, APPENDS_EACH, SCHEMA_CHANGES = 3, 10, 4
TABLE = """\
format: iceberg
columns:
  - {name: writer, type: bigint}
  - {name: n, type: bigint}
"""


def _catalog(server: LocalGlue) -> GlueCatalog:
    client = boto3.client("glue", endpoint_url=server.endpoint_url, region_name="us-east-1")
    options = {"s3.endpoint": server.endpoint_url, "s3.access-key-id": "testing"}
    return GlueCatalog(
        "race", client=client, **options, **{"s3.secret-access-key": "testing", "s3.region": "us-east-1"}
    )


def _apply(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gluecat", "apply", str(root), "--auto-approve"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_pyiceberg_writers_and_gluecat_apply_at_once_lose_no_commit(
    tmp_path: Path, server: LocalGlue, lake_bucket: str
) -> None:
    table_file = Path("lake/tables/events.yaml")
    root = write_project(
        tmp_path / "project",
        server.endpoint_url,
        {"lake/database.yaml": "location: s3://lake/lake.db/\n", str(table_file): TABLE},
    )
    first = _apply(root)
    assert first.returncode == 0, first.stderr
    reported: list[tuple[int, int]] = []
    gave_up: list[tuple[int, int]] = []
    writing = threading.Event()

    def write(writer: int) -> None:
        catalog = _catalog(server)
        for n in range(APPENDS_EACH):
            for _attempt in range(100):
                table = catalog.load_table("lake.events")
                try:
                    rows = pa.Table.from_pylist([{"writer": writer, "n": n}], schema=table.schema().as_arrow())
                    table.append(rows)
                except CommitFailedException:
                    continue  # refused: another commit landed first; retried on the new version
                reported.append((writer, n))
                writing.set()
                break
            else:
                gave_up.append((writer, n))

    threads = [threading.Thread(target=write, args=(w,)) for w in range(WRITERS)]
    for thread in threads:
        thread.start()
    writing.wait(timeout=120)
    during, attempts = 0, 0
    for change in range(SCHEMA_CHANGES):
        text = (root / table_file).read_text() + f"  - {{name: added_{change}, type: string}}\n"
        (root / table_file).write_text(text)
        for _attempt in range(30):
            attempts += 1
            busy = any(thread.is_alive() for thread in threads)
            applied = _apply(root)
            assert "Traceback" not in applied.stderr and "unexpected error" not in applied.stderr, applied.stderr
            if applied.returncode == 0:
                during += busy
                break
        else:
            raise AssertionError(f"apply of change {change} never landed: {applied.stderr}")
    for thread in threads:
        thread.join()

    assert gave_up == []
    assert len(reported) == WRITERS * APPENDS_EACH
    table = _catalog(server).load_table("lake.events")
    rows: list[dict[str, Any]] = table.scan().to_arrow().to_pylist()
    assert sorted((row["writer"], row["n"]) for row in rows) == sorted(reported), "a reported commit was lost"
    names = [field.name for field in table.schema().fields]
    assert names == ["writer", "n", *(f"added_{change}" for change in range(SCHEMA_CHANGES))]
    assert during >= 1, f"no apply ran while the writers did ({attempts} attempts)"
