"""Glue API calls and seconds for `gluecat import` of a large database.

    python bench/import_calls.py --tables 1000

Runs against the strict local Glue (100 tables a GetTables page), prints figures.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

import boto3
from typer.testing import CliRunner

from gluecat.cli import app
from gluecat.sandbox.server import LocalGlue

PARQUET = {
    "InputFormat": "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
    "OutputFormat": "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat",
    "SerdeInfo": {
        "SerializationLibrary": "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe",
        "Parameters": {"serialization.format": "1"},
    },
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--small", action="store_true", help="a quick run at a small size (CI)")
    options = parser.parse_args()
    if options.small:
        options.tables = 20
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "bench")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "bench")
    with tempfile.TemporaryDirectory() as tmp, LocalGlue() as server:
        glue = boto3.client("glue", endpoint_url=server.endpoint_url, region_name="us-east-1")
        glue.create_database(DatabaseInput={"Name": "bench", "LocationUri": "s3://bench/"})
        for index in range(options.tables):
            descriptor = {**PARQUET, "Columns": [{"Name": "a", "Type": "bigint"}], "Location": f"s3://bench/t{index}"}
            table = {"Name": f"t{index:05d}", "StorageDescriptor": descriptor}
            glue.create_table(DatabaseName="bench", TableInput=table)
        root = Path(tmp) / "catalog"
        root.mkdir()
        (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
        server.reset_counts()
        started = time.perf_counter()
        result = CliRunner().invoke(app, ["import", str(root)])
        seconds = time.perf_counter() - started
        calls = dict(sorted(server.calls().items()))
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"import of {options.tables} tables in one database: exit={result.exit_code}")
        print(f"calls={sum(calls.values())} {calls} seconds={seconds:.2f} peak_rss_mb={peak_mb:.0f}")
        if result.exit_code != 0:
            raise SystemExit(f"import failed: {result.output}")


if __name__ == "__main__":
    main()
