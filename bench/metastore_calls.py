"""Hive Metastore calls and seconds for apply and a no-change plan of a large catalog (`backend: hive`).

    python bench/metastore_calls.py --tables 2000 --partitions 20000 [--version 4.0.1]

Starts a real Hive Metastore (as the tests do: 2.3.9 from pyspark's jars, or 4.0.1 from Maven
Central) over the local S3, applies N tables plus one table with M partitions, then plans again,
and prints the Thrift calls per operation: a plan reads tables in pages of 100 and partitions in
pages of 1,000, so its calls grow with N/100 + M/1,000, never with N + M.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from gluecat.backends.hive import HiveMetastore
from gluecat.cli import app
from gluecat.sandbox.server import LocalGlue

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the metastores harness lives with the tests
from tests.metastores.hms_server import HMS2, running_metastore

CALLS: Counter[str] = Counter()
_call = HiveMetastore._call


def _counted(self: HiveMetastore, operation: str, *arguments: Any) -> Any:
    CALLS[operation] += 1
    return _call(self, operation, *arguments)


def build(root: Path, endpoint: str, uri: str, tables: int, partitions: int) -> None:
    (root / "catalog.yaml").write_text(
        f"region: us-east-1\nendpoint_url: {endpoint}\nbackend: hive\nmetastore_uri: {uri}\n"
    )
    db = root / "bench"
    (db / "tables").mkdir(parents=True)
    (db / "database.yaml").write_text("location: s3://lake/bench/\n")
    for index in range(tables - 1):
        (db / "tables" / f"t{index:05d}.yaml").write_text("storage: parquet\ncolumns: [{name: a, type: bigint}]\n")
    (db / "tables" / "events.yaml").write_text(
        "storage: parquet\ncolumns: [{name: a, type: bigint}]\npartition_keys: [{name: n, type: int}]\n"
        f"partitions:\n  - expand:\n      n: {{from: 1, to: {partitions}}}\n"
    )


def run(step: str, *args: str) -> None:
    CALLS.clear()
    started = time.perf_counter()
    result = CliRunner().invoke(app, list(args))
    seconds = time.perf_counter() - started
    print(f"{step:<16} exit={result.exit_code} calls={sum(CALLS.values()):>6} {dict(sorted(CALLS.items()))}")
    print(f"{'':<16} seconds={seconds:.2f}")
    if result.exit_code != 0:
        raise SystemExit(f"{step} failed: {result.output}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--partitions", type=int, default=20000)
    parser.add_argument("--version", default=HMS2, help="2.3.9 or 4.0.1")
    parser.add_argument("--small", action="store_true", help="a quick run at a small size (CI)")
    options = parser.parse_args()
    if options.small:
        options.tables, options.partitions = 10, 100
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "testing")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "testing")
    HiveMetastore._call = _counted  # type: ignore[method-assign]
    with tempfile.TemporaryDirectory() as tmp, LocalGlue() as server:
        import boto3

        s3 = boto3.client("s3", endpoint_url=server.endpoint_url, region_name="us-east-1")
        s3.create_bucket(Bucket="lake")
        workdir = Path(tmp) / "metastore"
        workdir.mkdir()
        access, secret = os.environ["AWS_ACCESS_KEY_ID"], os.environ["AWS_SECRET_ACCESS_KEY"]
        with running_metastore(options.version, workdir, server.endpoint_url, access, secret) as metastore:
            root = Path(tmp) / "project"
            root.mkdir()
            build(root, server.endpoint_url, metastore.uri, options.tables, options.partitions)
            print(f"Hive Metastore {options.version}: {options.tables} tables, {options.partitions} partitions")
            run("apply", "apply", str(root), "--auto-approve")
            run("no-change plan", "plan", str(root), "--detailed-exitcode")


if __name__ == "__main__":
    main()
