"""A no-change `gluecat plan` against a per-resource refresh (as Terraform does it), over a slow Glue.

    python bench/refresh_compare.py                     # 300 tables, one with 3,000 partitions, 20 ms a call
    python bench/refresh_compare.py --latency-ms 50 --workers 10

Both run against the strict local Glue with `--latency-ms` added to every call.
The plan is the whole command in a fresh process (start-up, loading, lint,
reads, diff, output); the refresh only makes its calls — one GetTable per table
and one GetPartition per partition, `--workers` at a time, as Terraform's
default parallelism of 10 does — and diffs nothing. Prints wall seconds, calls
and the speed-up.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import boto3
from botocore.config import Config

from gluecat.sandbox.server import LocalGlue
from gluecat.sandbox.strict import StrictOptions

DATABASE = "bench"
PARTITIONED = "events"


def build(root: Path, endpoint: str, tables: int, partitions: int) -> None:
    (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {endpoint}\n")
    directory = root / DATABASE / "tables"
    directory.mkdir(parents=True)
    (root / DATABASE / "database.yaml").write_text("location: s3://bench/\n")
    for index in range(tables - 1):
        (directory / f"t{index:05d}.yaml").write_text(
            "storage: parquet\ncolumns: [{name: id, type: bigint}, {name: amount, type: 'decimal(12,2)'}]\n"
        )
    (directory / f"{PARTITIONED}.yaml").write_text(
        "storage: parquet\ncolumns: [{name: id, type: bigint}]\npartition_keys: [{name: n, type: int}]\n"
        f"partitions:\n  - expand:\n      n: {{from: 1, to: {partitions}}}\n"
    )


def gluecat(*args: str) -> tuple[float, float, int, str]:
    """Wall seconds, CPU seconds, exit code and stderr of one gluecat command in a fresh process."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "gluecat", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_env()
    )
    assert process.stderr is not None
    errors = process.stderr.read().decode()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    return wall, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status), errors


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of a running process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def refresh(endpoint: str, tables: list[str], partitions: int, workers: int) -> float:
    """Wall seconds to read every table and every partition one call each, `workers` at a time."""
    client = boto3.client(
        "glue",
        endpoint_url=endpoint,
        region_name="us-east-1",
        config=Config(max_pool_connections=workers, retries={"mode": "standard", "max_attempts": 10}),
    )
    calls: list[Callable[[], Any]] = [
        lambda name=name: client.get_table(DatabaseName=DATABASE, Name=name) for name in tables
    ]
    calls += [
        lambda n=n: client.get_partition(DatabaseName=DATABASE, TableName=PARTITIONED, PartitionValues=[str(n)])
        for n in range(1, partitions + 1)
    ]
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for _ in pool.map(lambda call: call(), calls):
            pass
    return time.perf_counter() - started


def _env() -> dict[str, str]:
    repo = str(Path(__file__).resolve().parents[1])
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [repo, os.environ.get("PYTHONPATH")]))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--partitions", type=int, default=3000)
    parser.add_argument("--latency-ms", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=10, help="parallel calls of the per-resource refresh")
    parser.add_argument("--small", action="store_true", help="a quick run at a small size (CI)")
    options = parser.parse_args()
    if options.small:
        options.tables, options.partitions = 20, 200
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "bench")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "bench")
    with tempfile.TemporaryDirectory() as tmp, LocalGlue(StrictOptions(latency_ms=options.latency_ms)) as server:
        root = Path(tmp) / "catalog"
        root.mkdir()
        build(root, server.endpoint_url, options.tables, options.partitions)
        _, _, code, errors = gluecat("apply", str(root), "--auto-approve")
        if code != 0:
            raise SystemExit(f"apply failed: {errors}")
        server.reset_counts()
        emulator = process_cpu(server.pid)
        plan_seconds, plan_cpu, code, errors = gluecat("plan", str(root), "--detailed-exitcode")
        if code != 0:
            raise SystemExit(f"the plan is not clean (exit {code}): {errors}")
        plan_emulator = process_cpu(server.pid) - emulator
        plan_calls = sum(server.calls().values())
        server.reset_counts()
        names = [path.stem for path in sorted((root / DATABASE / "tables").glob("*.yaml"))]
        emulator, client = process_cpu(server.pid), time.process_time()
        refresh_seconds = refresh(server.endpoint_url, names, options.partitions, options.workers)
        refresh_cpu, refresh_emulator = time.process_time() - client, process_cpu(server.pid) - emulator
        refresh_calls = sum(server.calls().values())
    print(f"catalog: {options.tables} tables, {options.partitions} partitions in one; {options.latency_ms:g} ms a call")
    print(
        f"gluecat plan (whole command):      {plan_seconds:6.2f} s wall, {plan_calls:>5} calls;"
        f" CPU {plan_cpu:.2f} s, emulator {plan_emulator:.2f} s"
    )
    print(
        f"per-resource refresh ({options.workers} at once): {refresh_seconds:6.2f} s wall, {refresh_calls:>5} calls;"
        f" CPU {refresh_cpu:.2f} s, emulator {refresh_emulator:.2f} s"
    )
    print(f"speed-up: {refresh_seconds / plan_seconds:.1f}x")


if __name__ == "__main__":
    main()
