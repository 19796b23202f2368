"""What impact analysis adds to a plan: findings per changed table, drift per live partition.

    python bench/impact_cost.py --tables 10000 --columns 30 --partitions 1000000

Pure functions over in-memory shapes (no Glue), so the figures are gluecat's own cost.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from gluecat.kinds.hive.impact import hive_findings, storage_of
from gluecat.kinds.hive.partition_drift import partition_drift

SERDE = {
    "SerializationLibrary": "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe",
    "Parameters": {"field.delim": ","},
}


def _table(columns: list[tuple[str, str]]) -> dict[str, Any]:
    descriptor = {
        "Columns": [{"Name": n, "Type": t} for n, t in columns],
        "Location": "s3://lake/t",
        "InputFormat": "org.apache.hadoop.mapred.TextInputFormat",
        "SerdeInfo": SERDE,
    }
    return {"StorageDescriptor": descriptor, "Parameters": {}}


def _partition(descriptor: dict[str, Any], number: int) -> dict[str, Any]:
    """Its own copies, as a parsed GetPartitions page holds them."""
    copied = json.loads(json.dumps(descriptor))
    return {"Values": [str(number)], "StorageDescriptor": {**copied, "Location": f"s3://lake/t/{number}"}}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--columns", type=int, default=30)
    parser.add_argument("--partitions", type=int, default=1_000_000)
    parser.add_argument("--small", action="store_true", help="a quick run at a small size (CI)")
    args = parser.parse_args()
    if args.small:
        args.tables, args.partitions = 200, 2_000
    live_columns = [(f"c{i}", "int" if i % 2 else "string") for i in range(args.columns)]
    desired_columns = [live_columns[0], ("inserted", "string"), *live_columns[1:-1], (live_columns[-1][0], "bigint")]
    live, desired = _table(live_columns), _table(desired_columns)

    started = time.process_time()
    for _ in range(args.tables):
        hive_findings(live, desired)
    per_table = (time.process_time() - started) / args.tables
    print(f"findings: {args.tables:,} changed tables of {args.columns} columns: {per_table * 1e6:.0f} µs CPU each")

    descriptor = live["StorageDescriptor"]
    partitions = [_partition(descriptor, i) for i in range(args.partitions)]
    started = time.process_time()
    drift = partition_drift(partitions, desired["StorageDescriptor"], storage_of(desired))
    elapsed = time.process_time() - started
    print(
        f"drift: {args.partitions:,} partitions ({len(drift.drifted):,} drifted, {drift.mismatched:,} rejected):"
        f" {elapsed:.2f} s CPU, {elapsed / args.partitions * 1e6:.1f} µs each"
    )
    started = time.process_time()
    partition_drift(partitions, descriptor, storage_of(live))
    elapsed = time.process_time() - started
    print(
        f"drift, all in step (the no-change plan): {elapsed:.2f} s CPU, {elapsed / args.partitions * 1e6:.1f} µs each"
    )


if __name__ == "__main__":
    main()
