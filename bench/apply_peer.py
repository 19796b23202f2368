"""Registering partitions: the whole `gluecat apply` against awswrangler's `add_parquet_partitions`.

    python bench/apply_peer.py                       # 20,000 partitions, 20 ms a Glue call
    python bench/apply_peer.py --partitions 5000 --latency-ms 50

Both write to the same strict local Glue, which adds `--latency-ms` to every call as a round
trip to AWS would. gluecat's figure is the whole command in a fresh process (start, load,
plan, apply); awswrangler's is its one call, timed inside its process (its import and session
not counted). awswrangler pins an older pyarrow than gluecat's, so it runs from its own venv,
made once under ~/.cache/gluecat-bench. Each side's partitions are counted afterwards.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import boto3

from gluecat.sandbox.server import LocalGlue
from gluecat.sandbox.strict import StrictOptions

AWSWRANGLER = "awswrangler==3.17.1"
PEER_VENV = Path.home() / ".cache" / "gluecat-bench" / AWSWRANGLER.replace("==", "-")
PER_DAY = 100
TABLE = """\
storage: parquet
location: s3://lake/{database}/events
columns: [{{name: v, type: int}}]
partition_keys: [{{name: day, type: string}}, {{name: n, type: int}}]
"""
GENERATED = """\
partitions:
  - expand:
      day: {{from: 2020-01-01, to: {last_day}}}
      n: {{from: 0, to: {last_n}}}
"""
PEER = """
import sys, time
import awswrangler as wr, boto3
endpoint, database, days, per_day = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
import datetime
wr.config.glue_endpoint_url = endpoint
session = boto3.Session(region_name="us-east-1")
values = {}
for offset in range(days):
    day = (datetime.date(2020, 1, 1) + datetime.timedelta(days=offset)).isoformat()
    for n in range(per_day):
        values[f"s3://lake/{database}/events/day={day}/n={n}/"] = [day, str(n)]
started = time.perf_counter()
wr.catalog.add_parquet_partitions(database=database, table="events", partitions_values=values, boto3_session=session)
print(time.perf_counter() - started)
"""


def peer_python() -> Path:
    python = PEER_VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(PEER_VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", AWSWRANGLER], check=True)
    return python


def _day(offset: int) -> str:
    from datetime import date, timedelta

    return (date(2020, 1, 1) + timedelta(days=offset)).isoformat()


def _count(glue: object, database: str) -> tuple[int, int]:
    pages = glue.get_paginator("get_partitions").paginate(DatabaseName=database, TableName="events")  # type: ignore[attr-defined]
    values = [tuple(p["Values"]) for page in pages for p in page["Partitions"]]
    return len(values), len(set(values))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--partitions", type=int, default=20000, help=f"a multiple of {PER_DAY}")
    parser.add_argument("--latency-ms", type=float, default=20.0)
    parser.add_argument("--small", action="store_true", help="a quick run at a small size (CI)")
    options = parser.parse_args()
    if options.small:
        options.partitions = 1000
    days = max(1, options.partitions // PER_DAY)
    total = days * PER_DAY
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "bench")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "bench")
    python = peer_python()
    repo = str(Path(__file__).resolve().parents[1])
    # Bytecode cached as an installed package has it: without, every run would compile gluecat anew.
    inherited = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env = {**inherited, "PYTHONPATH": repo, "AWS_DEFAULT_REGION": "us-east-1"}
    with tempfile.TemporaryDirectory() as tmp, LocalGlue(StrictOptions(latency_ms=options.latency_ms)) as server:
        root = Path(tmp)
        (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
        for database, generated in (("gc", True), ("wr", False)):
            (root / database / "tables").mkdir(parents=True)
            (root / database / "database.yaml").write_text(f"location: s3://lake/{database}/\n")
            text = TABLE.format(database=database)
            if generated:
                text += GENERATED.format(last_day=_day(days - 1), last_n=PER_DAY - 1)
            (root / database / "tables" / "events.yaml").write_text(text)
        # awswrangler's table, made beforehand by gluecat (without partitions), as a user's would be.
        made = subprocess.run([sys.executable, "-m", "gluecat", "apply", str(root), "--auto-approve", "--target", "wr"],
                              env=env, capture_output=True, text=True)  # fmt: skip
        if made.returncode != 0:
            raise SystemExit(f"gluecat apply --target wr failed: {made.stdout}{made.stderr}")
        server.reset_counts()
        started = time.perf_counter()
        before = os.times()
        applied = subprocess.run([sys.executable, "-m", "gluecat", "apply", str(root), "--auto-approve"],
                                 env=env, capture_output=True, text=True)  # fmt: skip
        gluecat_wall = time.perf_counter() - started
        after = os.times()
        if applied.returncode != 0:
            raise SystemExit(f"gluecat apply failed: {applied.stdout}{applied.stderr}")
        gluecat_cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
        calls = server.calls()["BatchCreatePartition"]
        peak = server.peak_in_flight()
        peer = subprocess.run([str(python), "-c", PEER, server.endpoint_url, "wr", str(days), str(PER_DAY)],
                              env={**env, "PYTHONPATH": ""}, capture_output=True, text=True)  # fmt: skip
        if peer.returncode != 0:
            raise SystemExit(f"awswrangler failed: {peer.stderr[-2000:]}")
        peer_wall = float(peer.stdout.strip().splitlines()[-1])
        glue = boto3.client("glue", endpoint_url=server.endpoint_url, region_name="us-east-1")
        ours, theirs = _count(glue, "gc"), _count(glue, "wr")
    print(f"registering {total:,} partitions, {options.latency_ms:g} ms a Glue call")
    print(f"gluecat apply (whole command): {gluecat_wall:6.2f} s wall, {gluecat_cpu:.2f} s CPU,"
          f" {calls} BatchCreatePartition calls, up to {peak} in flight;"
          f" registered {ours[0]:,} ({ours[1]:,} distinct)")  # fmt: skip
    print(f"awswrangler add_parquet_partitions (the call alone): {peer_wall:6.2f} s wall;"
          f" registered {theirs[0]:,} ({theirs[1]:,} distinct)")  # fmt: skip
    print(f"awswrangler's call / gluecat's whole command: {peer_wall / gluecat_wall:.2f}x (above 1: gluecat is faster)")
    if ours != (total, total) or theirs != (total, total):
        raise SystemExit("a side did not register every partition exactly once")


if __name__ == "__main__":
    main()
