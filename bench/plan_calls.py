"""Glue API calls, seconds and memory for apply and a no-change plan of a large catalog.

    python bench/plan_calls.py --tables 1000 --partitions 20000

Runs against the strict local Glue (AWS page sizes and batch limits), prints figures.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

from typer.testing import CliRunner

from gluecat.cli import app
from gluecat.sandbox.server import LocalGlue


def build(root: Path, endpoint: str, tables: int, partitions: int) -> None:
    (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {endpoint}\n")
    db = root / "bench"
    (db / "tables").mkdir(parents=True)
    (db / "database.yaml").write_text("location: s3://bench/\n")
    for index in range(tables - 1):
        (db / "tables" / f"t{index:05d}.yaml").write_text("storage: parquet\ncolumns: [{name: a, type: bigint}]\n")
    (db / "tables" / "events.yaml").write_text(
        "storage: parquet\ncolumns: [{name: a, type: bigint}]\npartition_keys: [{name: n, type: int}]\n"
        f"partitions:\n  - expand:\n      n: {{from: 1, to: {partitions}}}\n"
    )


def run(step: str, server: LocalGlue, *args: str) -> None:
    server.reset_counts()
    started = time.perf_counter()
    result = CliRunner().invoke(app, list(args))
    seconds = time.perf_counter() - started
    calls = dict(sorted(server.calls().items()))
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{step:<16} exit={result.exit_code} calls={sum(calls.values()):>6} {calls}")
    print(f"{'':<16} seconds={seconds:.2f} peak_rss_mb={peak_mb:.0f}")
    if result.exit_code != 0:
        raise SystemExit(f"{step} failed: {result.output}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--partitions", type=int, default=20000)
    parser.add_argument("--small", action="store_true", help="a quick run at a small size (CI)")
    options = parser.parse_args()
    if options.small:
        options.tables = 20
        options.partitions = 300
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "bench")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "bench")
    with tempfile.TemporaryDirectory() as tmp, LocalGlue() as server:
        root = Path(tmp) / "catalog"
        root.mkdir()
        build(root, server.endpoint_url, options.tables, options.partitions)
        print(f"catalog: {options.tables} tables, {options.partitions} partitions in one table")
        run("apply", server, "apply", str(root), "--auto-approve")
        run("no-change plan", server, "plan", str(root), "--detailed-exitcode")


if __name__ == "__main__":
    main()
