"""The saved plan's record at a million partitions: writing it (`plan --out`, `--format json`) and
reading it back with its check (`apply plan.json`), each in a fresh process: CPU and peak RSS.

    python bench/plan_record.py                      # 1,000,000 partitions to create, 1,000 to move
    python bench/plan_record.py --partitions 20000 --runs 1 --small

The plan is built in the process from the change model (the planner's cost is not in the figures);
the write figure is `serialize.to_json` plus the JSON text, the read figure `json.loads` plus
`serialize.from_json`, whose check covers every change and partition. The yardstick is the same
JSON written and read by the standard library alone, with no record at all. Set PYTHONPATH to
another checkout to measure its gluecat with the same script.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = """
import json, resource, sys, time
from gluecat.changes.model import Action, Change, PartitionChanges, PartitionWrite, Plan
from gluecat.plan import serialize

step, path, count, moves = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
storage = {"Columns": [{"Name": "id", "Type": "bigint"}], "SerdeInfo": {"SerializationLibrary": "parquet"}}


def build():
    creates = tuple(
        PartitionWrite((f"2024-{1 + i % 12:02d}-{1 + i % 28:02d}", str(i)), f"s3://lake/sales/orders/dt={i}/h={i}/")
        for i in range(count)
    )
    updates = tuple(
        PartitionWrite((f"2023-01-01", str(i)), f"s3://new/sales/orders/{i}/", f"s3://old/sales/orders/{i}/",
                       {"Values": ["2023-01-01", str(i)], "StorageDescriptor": {"Location": f"s3://old/{i}/"}})
        for i in range(moves)
    )
    group = PartitionChanges("sales", "orders", ("dt", "h"), storage, creates=creates, updates=updates,
                             live_fingerprints=tuple((w.values, "ab" * 16) for w in updates))
    change = Change("sales.orders", "table", Action.UPDATE, "sales", "orders", {"Name": "orders", "Parameters": {}},
                    live_version="3", table_kind="hive")
    return Plan("shop", (change,), (group,))


if step == "write":
    plan = build()
    start = time.process_time()
    text = json.dumps(serialize.to_json(plan), indent=1)
    spent = time.process_time() - start
    with open(path, "w") as handle:
        handle.write(text)
elif step == "read":
    with open(path) as handle:
        text = handle.read()
    start = time.process_time()
    plan = serialize.from_json(json.loads(text))
    spent = time.process_time() - start
    assert sum(len(g.creates) + len(g.updates) for g in plan.partitions) == count + moves
elif step == "floor":
    with open(path) as handle:
        text = handle.read()
    start = time.process_time()
    json.dumps(json.loads(text), indent=1)
    spent = time.process_time() - start
print(spent, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def _run(step: str, path: Path, partitions: int, moves: int) -> tuple[float, float]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, step, str(path), str(partitions), str(moves)],
        capture_output=True,
        text=True,
        check=True,
        cwd=path.parent,  # not this checkout: PYTHONPATH, else the installed gluecat, is the one measured
    ).stdout.split()
    return float(out[0]), float(out[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--partitions", type=int, default=1_000_000, help="partitions the plan creates")
    parser.add_argument(
        "--moves", type=int, default=1_000, help="partitions the plan moves (each carries its live input)"
    )
    parser.add_argument("--runs", type=int, default=3, help="runs of each step (medians)")
    parser.add_argument("--small", action="store_true", help="a quick run at a small size (CI)")
    args = parser.parse_args()
    partitions, moves, runs = (20_000, 100, 1) if args.small else (args.partitions, args.moves, args.runs)
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "plan.json"
        figures: dict[str, list[tuple[float, float]]] = {"write": [], "read": [], "floor": []}
        started = time.perf_counter()
        for _ in range(runs):
            for step in figures:
                figures[step].append(_run(step, path, partitions, moves))
        size = path.stat().st_size / 1e6
    print(f"plan record: {partitions:,} partitions to create, {moves:,} to move ({size:.0f} MB of JSON), {runs} run(s)")
    for step, label in (
        ("write", "to_json + dumps"),
        ("read", "loads + from_json (checked)"),
        ("floor", "loads + dumps, no record"),
    ):
        cpu = statistics.median(c for c, _ in figures[step])
        rss = statistics.median(r for _, r in figures[step])
        print(f"  {label:<30} {cpu:6.2f} s CPU   {rss:7.0f} MB peak")
    print(f"  ({time.perf_counter() - started:.0f} s in all)")


if __name__ == "__main__":
    main()
