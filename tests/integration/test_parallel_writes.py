"""Partition batches in flight together, and Glue's bulk listings decoded lean: the same results,
throttling and errors as one-at-a-time batches and botocore's own parser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError

from gluecat.backends.glue import Glue
from gluecat.errors import LiveStateError
from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

PARTITIONED = """\
storage: parquet
columns: [{{name: v, type: int}}]
partition_keys: [{{name: day, type: string}}, {{name: n, type: int}}]
partitions:
  - expand:
      day: {{from: 2024-01-01, to: 2024-01-{days:02d}}}
      n: {{from: 0, to: 99}}
"""
TIMESTAMPS = ("CreationTime", "LastAccessTime", "LastAnalyzedTime", "CreateTime", "UpdateTime")


def _project(root: Path, endpoint: str, days: int, extra: str = "") -> Path:
    files = {
        "sales/database.yaml": "location: s3://lake/sales/\n",
        "sales/tables/events.yaml": PARTITIONED.format(days=days),
    }
    return write_project(root, endpoint, files, extra)


def _live_values(raw_glue: Any) -> list[tuple[str, ...]]:
    pages = raw_glue.get_paginator("get_partitions").paginate(DatabaseName="sales", TableName="events")
    return [tuple(p["Values"]) for page in pages for p in page["Partitions"]]


def test_batches_go_out_together_and_every_partition_lands_once(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    root = _project(tmp_path, server.endpoint_url, days=20)  # 2,000 partitions: 20 batches
    server.configure(latency_ms=30)  # a round trip, so that batches sent together overlap
    server.reset_counts()
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert server.peak_in_flight() > 1  # sent together, not one after another
    assert server.calls()["BatchCreatePartition"] == 20
    values = _live_values(raw_glue)
    assert len(values) == len(set(values)) == 2000
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_write_concurrency_one_sends_one_batch_at_a_time(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = _project(tmp_path, server.endpoint_url, days=5, extra="write_concurrency: 1\n")
    server.configure(latency_ms=30)
    server.reset_counts()
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    assert server.peak_in_flight() == 1
    assert len(_live_values(raw_glue)) == 500


def test_a_throttled_parallel_apply_converges_with_every_partition_once(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    root = _project(tmp_path, server.endpoint_url, days=30)  # 3,000 partitions
    server.configure(throttle_rate=0.3)
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert server.throttled() > 0
    server.configure()
    values = _live_values(raw_glue)
    assert len(values) == len(set(values)) == 3000
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_write_concurrency_out_of_range_is_one_located_line(tmp_path: Path, server: LocalGlue) -> None:
    root = _project(tmp_path, server.endpoint_url, days=1, extra="write_concurrency: 0\n")
    result = gluecat("validate", str(root))
    assert result.exit_code == 1
    assert "catalog.yaml" in result.output and "write_concurrency" in result.output, result.output
    assert "Traceback" not in result.output


def _without_timestamps(shape: Any) -> Any:
    if isinstance(shape, dict):
        return {k: _without_timestamps(v) for k, v in shape.items() if k not in TIMESTAMPS}
    if isinstance(shape, list):
        return [_without_timestamps(v) for v in shape]
    return shape


def test_lean_listings_equal_botocores_parse_but_for_timestamps(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    root = _project(tmp_path, server.endpoint_url, days=3)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    server.configure(page_size=70)  # several pages, NextToken carried through the lean answers
    glue = Glue(boto3.Session(region_name="us-east-1"), server.endpoint_url, None)
    lean = sorted(glue.partitions("sales", "events", 300), key=lambda p: p["Values"])
    plain = sorted(
        (p for page in raw_glue.get_paginator("get_partitions").paginate(DatabaseName="sales", TableName="events")
         for p in page["Partitions"]),
        key=lambda p: p["Values"],
    )  # fmt: skip
    assert len(lean) == 300
    assert _without_timestamps(lean) == _without_timestamps(plain)
    assert isinstance(lean[0]["CreationTime"], float)  # Glue's epoch seconds, as sent
    tables = glue.tables("sales")
    assert _without_timestamps(tables) == _without_timestamps(raw_glue.get_tables(DatabaseName="sales")["TableList"])
    assert [d["Name"] for d in glue.databases()] == [d["Name"] for d in raw_glue.get_databases()["DatabaseList"]]


def test_lean_listings_keep_glues_errors_and_retries(server: LocalGlue) -> None:
    glue = Glue(boto3.Session(region_name="us-east-1"), server.endpoint_url, None)
    with pytest.raises(LiveStateError, match="Database nowhere not found"):  # translated, as before
        glue.partitions("nowhere", "events", 10)
    with pytest.raises(ClientError) as raised:
        glue.client.get_tables(DatabaseName="nowhere")
    assert raised.value.response["Error"]["Code"] == "EntityNotFoundException"
    server.configure(throttle_rate=0.5)  # throttled answers are errors: retried by botocore, then parsed
    try:
        assert glue.databases() == []
    finally:
        server.configure()
