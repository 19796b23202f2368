"""Registering partitions: the whole `gluecat apply` against awswrangler's `add_parquet_partitions`.

    python bench/apply_peer.py                       # 20,000 partitions, 20 ms a Glue call
    python bench/apply_peer.py --partitions 5000 --latency-ms 50 --runs 5

Both write to the same strict local Glue, which adds `--latency-ms` to every call as a round
trip to AWS would. gluecat's figure is the whole command in a fresh process (start, load,
plan, apply); awswrangler's is its one call, timed inside its process (its import and session
not counted). The two run in pairs, back to back, each on a new table, and the medians are
compared: this machine's load moves a single run by a fifth. awswrangler pins an older pyarrow
than gluecat's, so it runs from its own venv, made once under ~/.cache/gluecat-bench. Each
side's partitions are counted afterwards.
"""

from __future__ import annotations

import argparse
import os
import statistics
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


def _write_database(root: Path, database: str, text: str) -> None:
    (root / database / "tables").mkdir(parents=True)
    (root / database / "database.yaml").write_text(f"location: s3://lake/{database}/\n")
    (root / database / "tables" / "events.yaml").write_text(text)


def _children_cpu(times: os.times_result) -> float:
    return times.children_user + times.children_system


def _gluecat(root: Path, env: dict[str, str], *extra: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "gluecat", "apply", str(root), "--auto-approve", *extra],
                          env=env, capture_output=True, text=True)  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"gluecat apply {root.name} failed: {done.stdout}{done.stderr}")
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--partitions", type=int, default=20000, help=f"a multiple of {PER_DAY}")
    parser.add_argument("--latency-ms", type=float, default=20.0)
    parser.add_argument("--runs", type=int, default=3, help="pairs of runs, each side on its own new table")
    parser.add_argument("--small", action="store_true", help="a quick run at a small size (CI)")
    options = parser.parse_args()
    if options.small:
        options.partitions, options.runs = 1000, 1
    days = max(1, options.partitions // PER_DAY)
    total = days * PER_DAY
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "bench")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "bench")
    python = peer_python()
    repo = str(Path(__file__).resolve().parents[1])
    # Bytecode cached as an installed package has it: without, every run would compile gluecat anew.
    inherited = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env = {**inherited, "PYTHONPATH": repo, "AWS_DEFAULT_REGION": "us-east-1"}
    runs: list[tuple[float, float, float, int, int]] = []  # gluecat wall and CPU, awswrangler wall, calls, in flight
    counts: list[tuple[tuple[int, int], tuple[int, int]]] = []
    with tempfile.TemporaryDirectory() as tmp, LocalGlue(StrictOptions(latency_ms=options.latency_ms)) as server:
        catalog = f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n"
        generated = GENERATED.format(last_day=_day(days - 1), last_n=PER_DAY - 1)
        # awswrangler's tables, made beforehand by gluecat (without partitions), as a user's would be.
        peers = Path(tmp) / "peers"
        peers.mkdir()
        (peers / "catalog.yaml").write_text(catalog)
        for run in range(options.runs):
            _write_database(peers, f"wr{run}", TABLE.format(database=f"wr{run}"))
        _gluecat(peers, env)
        for run in range(options.runs):  # each pair back to back, so both sides see the same machine
            root = Path(tmp) / f"gc{run}"
            root.mkdir()
            (root / "catalog.yaml").write_text(catalog)
            _write_database(root, f"gc{run}", TABLE.format(database=f"gc{run}") + generated)
            server.reset_counts()
            started, before = time.perf_counter(), os.times()
            _gluecat(root, env)
            gluecat_wall, after = time.perf_counter() - started, os.times()
            gluecat_cpu = _children_cpu(after) - _children_cpu(before)
            calls, peak = server.calls()["BatchCreatePartition"], server.peak_in_flight()
            peer = subprocess.run([str(python), "-c", PEER, server.endpoint_url, f"wr{run}", str(days), str(PER_DAY)],
                                  env={**env, "PYTHONPATH": ""}, capture_output=True, text=True)  # fmt: skip
            if peer.returncode != 0:
                raise SystemExit(f"awswrangler failed: {peer.stderr[-2000:]}")
            runs.append((gluecat_wall, gluecat_cpu, float(peer.stdout.strip().splitlines()[-1]), calls, peak))
        glue = boto3.client("glue", endpoint_url=server.endpoint_url, region_name="us-east-1")
        counts = [(_count(glue, f"gc{run}"), _count(glue, f"wr{run}")) for run in range(options.runs)]
    print(f"registering {total:,} partitions, {options.latency_ms:g} ms a Glue call, {options.runs} pair(s) of runs")
    for number, ((wall, cpu, peer_wall, calls, peak), (ours, theirs)) in enumerate(zip(runs, counts, strict=True), 1):
        print(f"run {number}: gluecat apply (whole command) {wall:5.2f} s wall, {cpu:.2f} s CPU, {calls}"
              f" BatchCreatePartition calls, up to {peak} in flight, registered {ours[0]:,} ({ours[1]:,} distinct);"
              f" awswrangler add_parquet_partitions (the call alone) {peer_wall:5.2f} s wall,"
              f" registered {theirs[0]:,} ({theirs[1]:,} distinct): {peer_wall / wall:.2f}x")  # fmt: skip
    gluecat_wall = statistics.median(run[0] for run in runs)
    peer_wall = statistics.median(run[2] for run in runs)
    print(f"median: gluecat {gluecat_wall:.2f} s, awswrangler {peer_wall:.2f} s")
    print(f"awswrangler's call / gluecat's whole command: {peer_wall / gluecat_wall:.2f}x (above 1: gluecat is faster)")
    if any(side != (total, total) for pair in counts for side in pair):
        raise SystemExit("a side did not register every partition exactly once")


if __name__ == "__main__":
    main()
