"""Three pyiceberg writers appending to a table in the real Iceberg REST catalog while `gluecat apply`
adds columns to it: every append a writer reported is in the table's history and its rows read back,
every column gluecat added is there, and the next plan is clean. The REST twin of the Glue race in
tests/integration/test_hardening_concurrency.py: here the catalog itself checks each commit's
requirements and answers 409 to a stale one (the test sees it answer some), which pyiceberg retries on
the new metadata (the writer retries again if pyiceberg gives up) and gluecat reports in one line,
never overwriting; an apply so refused is run again, as a user would."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pyarrow as pa
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.exceptions import CommitFailedException

from tests.integration.helpers import write_project
from tests.metastores.fixtures import LocalS3
from tests.rest.rest_server import RestCatalogServer

WRITERS, APPENDS_EACH, SCHEMA_CHANGES = 3, 10, 4
NAMESPACE = "race_rest"
TABLE = """\
format: iceberg
columns:
  - {name: writer, type: bigint}
  - {name: n, type: bigint}
"""


def _client(server: RestCatalogServer, s3: LocalS3) -> RestCatalog:
    return RestCatalog(
        "race", uri=server.uri,
        **{"s3.endpoint": s3.endpoint, "s3.access-key-id": s3.access_key,
           "s3.secret-access-key": s3.secret_key, "s3.region": "us-east-1"},
    )  # fmt: skip


def _apply(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gluecat", "apply", str(root), "--auto-approve"],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip


def _ancestry(table: Any) -> list[int]:
    """The snapshot ids of the main branch, newest first: the table's history as readers see it."""
    by_id = {snapshot.snapshot_id: snapshot for snapshot in table.metadata.snapshots}
    current = table.current_snapshot()
    found: list[int] = []
    while current is not None:
        found.append(current.snapshot_id)
        current = by_id.get(current.parent_snapshot_id) if current.parent_snapshot_id is not None else None
    return found


def test_pyiceberg_writers_and_gluecat_apply_on_rest_lose_no_commit(
    tmp_path: Path, rest_catalog: RestCatalogServer, rest_s3: LocalS3
) -> None:
    table_file = Path(NAMESPACE) / "tables" / "events.yaml"
    root = write_project(
        tmp_path / "project", rest_s3.endpoint,
        {f"{NAMESPACE}/database.yaml": f"location: s3://{rest_s3.bucket}/{NAMESPACE}/\n", str(table_file): TABLE},
        f"backend: iceberg-rest\nrest_uri: {rest_catalog.uri}\n",
    )  # fmt: skip
    first = _apply(root)
    assert first.returncode == 0, first.stderr
    log_start = len(rest_catalog.log.read_text(errors="replace"))  # the server logs each 409 it answers
    reported: list[tuple[int, int, int]] = []  # (writer, n, the snapshot its append committed)
    gave_up: list[tuple[int, int]] = []
    refused = [0]  # 409s pyiceberg gave up on and handed to the writer (it retries appends itself first)
    writing = threading.Event()
    lock = threading.Lock()

    def write(writer: int) -> None:
        catalog = _client(rest_catalog, rest_s3)
        for n in range(APPENDS_EACH):
            for _attempt in range(100):
                table = catalog.load_table((NAMESPACE, "events"))
                try:
                    rows = pa.Table.from_pylist([{"writer": writer, "n": n}], schema=table.schema().as_arrow())
                    table.append(rows)
                except CommitFailedException:  # 409: another commit landed first; retried on the new metadata
                    with lock:
                        refused[0] += 1
                    continue
                snapshot = table.current_snapshot()
                assert snapshot is not None
                with lock:
                    reported.append((writer, n, snapshot.snapshot_id))
                writing.set()
                break
            else:
                gave_up.append((writer, n))

    threads = [threading.Thread(target=write, args=(w,)) for w in range(WRITERS)]
    for thread in threads:
        thread.start()
    writing.wait(timeout=120)
    during, attempts, conflicts = 0, 0, []
    for change in range(SCHEMA_CHANGES):
        (root / table_file).write_text(
            (root / table_file).read_text() + f"  - {{name: added_{change}, type: string}}\n"
        )
        for _attempt in range(30):
            attempts += 1
            busy = any(thread.is_alive() for thread in threads)
            applied = _apply(root)
            assert "Traceback" not in applied.stderr and "unexpected error" not in applied.stderr, applied.stderr
            if applied.returncode == 0:
                during += busy
                break
            # refused, not lost: a line naming the table (a 409 says it was not overwritten), then run again
            failed = [line for line in applied.stderr.splitlines() if line.startswith(f"failed {NAMESPACE}.events")]
            assert failed, applied.stderr
            assert all("not overwritten" in line for line in failed if "concurrent" in line), applied.stderr
            conflicts.append(applied.stderr)
        else:
            raise AssertionError(f"apply of change {change} never landed: {applied.stderr}")
    for thread in threads:
        thread.join()

    assert gave_up == []
    assert len(reported) == WRITERS * APPENDS_EACH
    table = _client(rest_catalog, rest_s3).load_table((NAMESPACE, "events"))
    history = _ancestry(table)
    missing = [(w, n, s) for w, n, s in reported if s not in history]
    assert missing == [], f"reported appends missing from the table's history: {missing}"
    assert len(history) == len(reported), "every snapshot on the main branch is a reported append"
    rows: list[dict[str, Any]] = table.scan().to_arrow().to_pylist()
    assert sorted((row["writer"], row["n"]) for row in rows) == sorted((w, n) for w, n, _ in reported)
    names = [field.name for field in table.schema().fields]
    assert names == ["writer", "n", *(f"added_{change}" for change in range(SCHEMA_CHANGES))]
    answered_409 = rest_catalog.log.read_text(errors="replace")[log_start:].count("code=409")
    assert answered_409 >= 1, (
        f"the catalog refused no commit ({refused[0]} reached the writers): the race proved nothing"
    )
    assert during >= 1, f"no apply ran while the writers did ({attempts} attempts, {len(conflicts)} refused)"
    replanned = subprocess.run(
        [sys.executable, "-m", "gluecat", "plan", str(root), "--detailed-exitcode"],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert replanned.returncode == 0, replanned.stdout + replanned.stderr
