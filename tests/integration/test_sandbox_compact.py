"""A sandbox holding a wide partitioned table stays small: what its partitions share is held once
in memory and once in state.json, answers stay what they were, and a restart keeps both."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import boto3

from gluecat.sandbox.server import LocalGlue
from gluecat.sandbox.strict import StrictOptions

COLUMNS = [{"Name": f"c{index:03d}", "Type": "bigint" if index % 2 else "string"} for index in range(100)]
PARQUET = {
    "InputFormat": "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
    "OutputFormat": "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat",
    "SerdeInfo": {"SerializationLibrary": "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe"},
}
PARTITIONS = 2_000


def _glue(server: LocalGlue) -> Any:
    return boto3.client("glue", endpoint_url=server.endpoint_url, region_name="us-east-1")


def _all_partitions(glue: Any) -> list[dict[str, Any]]:
    pages = glue.get_paginator("get_partitions").paginate(DatabaseName="wide", TableName="t")
    found = (p for page in pages for p in page["Partitions"])
    # CreationTime: a restarted sandbox stamps its partitions anew (as it always has)
    return sorted(
        ({k: v for k, v in p.items() if k != "CreationTime"} for p in found), key=lambda p: int(p["Values"][0])
    )


def _resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def test_a_wide_table_is_held_once_and_restarts_the_same(tmp_path: Path) -> None:
    state = tmp_path / "state"
    descriptor = {"Columns": COLUMNS, **PARQUET}
    with LocalGlue(StrictOptions(), state=state) as server:
        glue = _glue(server)
        glue.create_database(DatabaseInput={"Name": "wide"})
        glue.create_table(
            DatabaseName="wide",
            TableInput={
                "Name": "t",
                "StorageDescriptor": {**descriptor, "Location": "s3://lake/wide/t/"},
                "PartitionKeys": [{"Name": "n", "Type": "int"}],
            },
        )
        empty = _resident_mb(server.pid)
        for start in range(0, PARTITIONS, 100):
            inputs = [
                {"Values": [str(n)], "StorageDescriptor": {**descriptor, "Location": f"s3://lake/wide/t/n={n}/"}}
                for n in range(start, start + 100)
            ]
            assert glue.batch_create_partition(DatabaseName="wide", TableName="t", PartitionInputList=inputs)
        held = _all_partitions(glue)
        # Held whole, 2,000 copies of 100 columns took some 70 MB; shared, a few.
        assert _resident_mb(server.pid) - empty < 30
        assert server.save()

    saved = (state / "state.json").stat().st_size
    assert saved < 1_000_000  # each partition's 100 columns written out were 7 MB

    with LocalGlue(StrictOptions(), state=state) as restarted:
        assert _all_partitions(_glue(restarted)) == held
        assert held[1234]["StorageDescriptor"]["Columns"] == COLUMNS
        assert held[1234]["StorageDescriptor"]["Location"] == "s3://lake/wide/t/n=1234/"
