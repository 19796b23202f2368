"""Engine start-up and query times: the single-node Trino 476 the engines tests use, configured
with `gluecat spark-conf --format trino`, over a partitioned Parquet table gluecat applied.

    python bench/engines.py --queries 20 --partitions 50

Prints Trino's start-up wall time, then per query kind the minimum, median and maximum of
--queries runs. Trino comes from the engines cache (fetched from Maven Central on first use).
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import boto3
import pyarrow as pa
import pyarrow.parquet as pq
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the engines harness lives with the tests

from gluecat.cli import app
from gluecat.sandbox.server import LocalGlue
from tests.engines.trino_server import Trino, catalog_files

TABLE = """\
storage: parquet
columns: [{{name: id, type: bigint}}, {{name: amount, type: double}}]
partition_keys: [{{name: n, type: int}}]
partitions:
  - expand:
      n: {{from: 1, to: {partitions}}}
"""
QUERIES = {
    "SELECT 1": "SELECT 1",
    "count over all partitions": "SELECT count(*) FROM hive.bench.events",
    "one partition": "SELECT sum(amount) FROM hive.bench.events WHERE n = 1",
    "SHOW TABLES": "SHOW TABLES FROM hive.bench",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--queries", type=int, default=20)
    parser.add_argument("--partitions", type=int, default=50)
    parser.add_argument("--small", action="store_true", help="3 queries each over 5 partitions")
    args = parser.parse_args()
    queries, partitions = (3, 5) if args.small else (args.queries, args.partitions)
    os.environ.update(AWS_ACCESS_KEY_ID="bench", AWS_SECRET_ACCESS_KEY="bench", AWS_REGION="us-east-1")
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as scratch, LocalGlue() as glue:
        root = Path(scratch) / "catalog"
        (root / "bench" / "tables").mkdir(parents=True)
        (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {glue.endpoint_url}\n")
        (root / "bench" / "database.yaml").write_text("location: s3://bench/bench/\n")
        (root / "bench" / "tables" / "events.yaml").write_text(TABLE.format(partitions=partitions))
        s3 = boto3.client("s3", endpoint_url=glue.endpoint_url, region_name="us-east-1")
        s3.create_bucket(Bucket="bench")
        applied = runner.invoke(app, ["apply", str(root), "--auto-approve"])
        assert applied.exit_code == 0, applied.output
        for n in range(1, partitions + 1):
            buffer = io.BytesIO()
            pq.write_table(pa.table({"id": [n], "amount": [n * 1.5]}), buffer)
            s3.put_object(Bucket="bench", Key=f"bench/events/n={n}/part-0.parquet", Body=buffer.getvalue())
        printed = runner.invoke(app, ["spark-conf", str(root), "--format", "trino", "--endpoint", glue.endpoint_url])
        trino = Trino(Path(scratch) / "trino", catalog_files(printed.stdout), {})
        started = time.perf_counter()
        trino.start()
        try:
            print(f"Trino start-up (to the first query answered): {time.perf_counter() - started:.1f} s")
            print(f"queries: {queries} runs each, table of {partitions} partitions")
            for label, sql in QUERIES.items():
                times = []
                for _ in range(queries):
                    begun = time.perf_counter()
                    trino.query(sql)
                    times.append((time.perf_counter() - begun) * 1000)
                print(f"{label:<28} min {min(times):7.1f} ms  median {statistics.median(times):7.1f} ms"
                      f"  max {max(times):7.1f} ms")  # fmt: skip
        finally:
            trino.stop()


if __name__ == "__main__":
    main()
