"""Glue API calls and seconds for partition indexes: adding one index to each of many partitioned
tables (apply waits for every index to be ACTIVE), then the no-change plan.

    python bench/index_calls.py --tables 50 --partitions 200

Runs against the strict local Glue, where an index stays CREATING for half a second; prints figures.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from typer.testing import CliRunner

from gluecat.cli import app
from gluecat.sandbox.server import LocalGlue

TABLE = """\
storage: parquet
columns: [{{name: a, type: bigint}}]
partition_keys: [{{name: dt, type: string}}, {{name: n, type: int}}]
partitions:
  - expand:
      dt: [a, b]
      n: {{from: 1, to: {half}}}
"""
INDEXES = "partition_indexes: [{name: by_n, keys: [n]}, {name: by_dt_n, keys: [dt, n]}]\n"


def build(root: Path, endpoint: str, tables: int, partitions: int, indexes: str) -> None:
    (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {endpoint}\n")
    directory = root / "bench" / "tables"
    directory.mkdir(parents=True, exist_ok=True)
    (root / "bench" / "database.yaml").write_text("location: s3://bench/\n")
    for index in range(tables):
        (directory / f"t{index:04d}.yaml").write_text(TABLE.format(half=partitions // 2) + indexes)


def run(step: str, server: LocalGlue, *args: str) -> None:
    server.reset_counts()
    started = time.perf_counter()
    result = CliRunner().invoke(app, list(args))
    seconds = time.perf_counter() - started
    calls = {name: count for name, count in sorted(server.calls().items()) if "Index" in name}
    print(f"{step}: exit={result.exit_code} seconds={seconds:.2f} index calls={calls}")
    if result.exit_code != 0:
        raise SystemExit(f"{step} failed: {result.output}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--partitions", type=int, default=200, help="per table")
    parser.add_argument("--small", action="store_true", help="a quick run at a small size (CI)")
    options = parser.parse_args()
    if options.small:
        options.tables, options.partitions = 4, 20
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "bench")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "bench")
    with tempfile.TemporaryDirectory() as tmp, LocalGlue() as server:
        root = Path(tmp)
        build(root, server.endpoint_url, options.tables, options.partitions, "")
        print(f"{options.tables} tables of {options.partitions} partitions, 2 indexes each")
        run("apply the tables", server, "apply", str(root), "--auto-approve")
        build(root, server.endpoint_url, options.tables, options.partitions, INDEXES)
        run("apply the indexes (waits for ACTIVE)", server, "apply", str(root), "--auto-approve")
        run("no-change plan", server, "plan", str(root), "--detailed-exitcode")


if __name__ == "__main__":
    main()
