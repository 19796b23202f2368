"""Partition batches in flight together, and Glue's bulk listings decoded lean: the same results,
throttling and errors as one-at-a-time batches and botocore's own parser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError

from gluecat.backends import aws
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
    glue = Glue(aws.open_session(None, "us-east-1"), server.endpoint_url, None)
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
    glue = Glue(aws.open_session(None, "us-east-1"), server.endpoint_url, None)
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


def _sent_bodies(client: Any) -> list[bytes]:
    bodies: list[bytes] = []
    client.meta.events.register("before-send.glue.*", lambda request, **_: bodies.append(request.body))
    return bodies


def test_lean_partition_batches_send_what_botocore_would_serialise(server: LocalGlue, raw_glue: Any) -> None:
    import json
    from datetime import UTC, datetime

    raw_glue.create_database(DatabaseInput={"Name": "lean"})
    raw_glue.create_table(DatabaseName="lean", TableInput={
        "Name": "t", "PartitionKeys": [{"Name": "day", "Type": "string"}],
        "StorageDescriptor": {"Columns": [{"Name": "v", "Type": "int"}], "Location": "s3://b/t/"},
    })  # fmt: skip
    glue = Glue(aws.open_session(None, "us-east-1"), server.endpoint_url, None)
    ours, theirs = _sent_bodies(glue.client), _sent_bodies(raw_glue)
    batches = [
        [{"Values": [f"{day}"], "StorageDescriptor": {"Location": f"s3://b/t/day={day}/"}, "Parameters": {"k": "é"}}
         for day in range(first, first + 3)]
        for first in (0, 10)
    ]  # fmt: skip
    dated = [{"Values": ["20"], "LastAccessTime": datetime(2024, 1, 2, tzinfo=UTC)}]
    for client, batch in ((glue.client, batches[0]), (raw_glue, batches[1]), (glue.client, dated)):
        answer = client.batch_create_partition(DatabaseName="lean", TableName="t", PartitionInputList=batch)
        assert not answer.get("Errors")
    assert batches[0][0]["Values"] == ["0"]  # the caller's list is left as it was
    assert json.loads(ours[0]) == {"DatabaseName": "lean", "TableName": "t", "PartitionInputList": batches[0]}
    assert json.loads(theirs[0])["PartitionInputList"] == batches[1]  # botocore's own, for the same shape
    assert json.loads(ours[1])["PartitionInputList"][0]["LastAccessTime"] == 1704153600  # a datetime: botocore's path
    wanted = [{"Values": ["0"]}, {"Values": ["1"]}]
    sent, calls = len(ours), 0
    server.configure(throttle_rate=0.5)  # a retried call is signed again with the whole body
    try:
        while len(ours) - sent == calls and calls < 50:  # until an attempt was throttled and retried
            calls += 1
            got = glue.client.batch_get_partition(DatabaseName="lean", TableName="t", PartitionsToGet=wanted)
            assert sorted(p["Values"][0] for p in got["Partitions"]) == ["0", "1"]
    finally:
        server.configure()
    assert len(ours) - sent > calls
    assert all(json.loads(body)["PartitionsToGet"] == wanted for body in ours[sent:])
    deleted = glue.client.batch_delete_partition(DatabaseName="lean", TableName="t", PartitionsToDelete=wanted)
    assert not deleted.get("Errors")
    assert json.loads(ours[-1]) == {"DatabaseName": "lean", "TableName": "t", "PartitionsToDelete": wanted}
    left = raw_glue.get_partitions(DatabaseName="lean", TableName="t")["Partitions"]
    assert sorted(p["Values"][0] for p in left) == ["10", "11", "12", "2", "20"]
