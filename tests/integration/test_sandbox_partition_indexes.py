"""The local Glue keeps partition indexes the way real Glue does (moto has none of the calls)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError

from gluecat.backends import aws
from gluecat.sandbox.partition_indexes import BACKFILL_SECONDS
from gluecat.sandbox.server import LocalGlue

KEYS = [{"Name": "dt", "Type": "string"}, {"Name": "hr", "Type": "int"}, {"Name": "ts", "Type": "timestamp"}]


def _table(glue: Any, **extra: Any) -> None:
    glue.create_database(DatabaseInput={"Name": "sales"})
    glue.create_table(DatabaseName="sales", TableInput={"Name": "events", "PartitionKeys": KEYS}, **extra)


def _indexes(glue: Any) -> dict[str, str]:
    listed = glue.get_partition_indexes(DatabaseName="sales", TableName="events")["PartitionIndexDescriptorList"]
    return {d["IndexName"]: d["IndexStatus"] for d in listed}


def _create(glue: Any, name: str, keys: list[str]) -> None:
    glue.create_partition_index(
        DatabaseName="sales", TableName="events", PartitionIndex={"IndexName": name, "Keys": keys}
    )


def _error_code(call: Any) -> str:
    with pytest.raises(ClientError) as caught:
        call()
    return str(caught.value.response["Error"]["Code"])


def test_an_index_is_creating_then_active_and_cannot_be_deleted_meanwhile(server: LocalGlue, raw_glue: Any) -> None:
    _table(raw_glue)
    _create(raw_glue, "by_hr_dt", ["hr", "dt"])  # any order of the partition keys
    assert _indexes(raw_glue) == {"by_hr_dt": "CREATING"}
    delete = lambda: raw_glue.delete_partition_index(DatabaseName="sales", TableName="events", IndexName="by_hr_dt")  # noqa: E731
    assert _error_code(delete) == "ConflictException"
    time.sleep(BACKFILL_SECONDS + 0.1)
    listed = raw_glue.get_partition_indexes(DatabaseName="sales", TableName="events")["PartitionIndexDescriptorList"]
    assert listed == [
        {
            "IndexName": "by_hr_dt",
            "Keys": [{"Name": "hr", "Type": "int"}, {"Name": "dt", "Type": "string"}],
            "IndexStatus": "ACTIVE",
        }
    ]
    delete()
    assert _indexes(raw_glue) == {"by_hr_dt": "DELETING"}
    time.sleep(BACKFILL_SECONDS + 0.1)
    assert _indexes(raw_glue) == {}


def test_limits_and_key_checks(server: LocalGlue, raw_glue: Any) -> None:
    _table(raw_glue)
    for name in ("a", "b", "c"):
        _create(raw_glue, name, ["dt"])
    assert _error_code(lambda: _create(raw_glue, "d", ["hr"])) == "ResourceNumberLimitExceededException"
    assert _error_code(lambda: _create(raw_glue, "a", ["hr"])) == "AlreadyExistsException"
    raw_glue.delete_table(DatabaseName="sales", Name="events")
    raw_glue.create_table(DatabaseName="sales", TableInput={"Name": "events", "PartitionKeys": KEYS})
    assert _indexes(raw_glue) == {}  # a dropped table takes its indexes along
    assert _error_code(lambda: _create(raw_glue, "x", ["region"])) == "InvalidInputException"
    assert _error_code(lambda: _create(raw_glue, "x", ["ts"])) == "InvalidInputException"  # timestamp: not indexable
    assert _error_code(lambda: _create(raw_glue, "x", ["dt", "dt"])) == "InvalidInputException"
    missing = lambda: raw_glue.get_partition_indexes(DatabaseName="sales", TableName="nope")  # noqa: E731
    assert _error_code(missing) == "EntityNotFoundException"


def test_create_table_takes_indexes_checked_like_the_call(server: LocalGlue, raw_glue: Any) -> None:
    _table(raw_glue, PartitionIndexes=[{"IndexName": "by_dt", "Keys": ["dt"]}])
    assert _indexes(raw_glue) == {"by_dt": "ACTIVE"}  # nothing to backfill in a new table
    four = [{"IndexName": f"i{n}", "Keys": ["dt"]} for n in range(4)]
    refused = lambda: raw_glue.create_table(  # noqa: E731
        DatabaseName="sales", TableInput={"Name": "other", "PartitionKeys": KEYS}, PartitionIndexes=four
    )
    assert _error_code(refused) == "ResourceNumberLimitExceededException"
    assert "other" not in {t["Name"] for t in raw_glue.get_tables(DatabaseName="sales")["TableList"]}


def test_values_that_do_not_fit_the_key_type_fail_the_backfill(server: LocalGlue, raw_glue: Any) -> None:
    _table(raw_glue)
    raw_glue.batch_create_partition(
        DatabaseName="sales",
        TableName="events",
        PartitionInputList=[{"Values": ["2024-01-01", "7", "x"]}, {"Values": ["2024-01-02", "late", "x"]}],
    )
    _create(raw_glue, "by_hr", ["hr"])
    time.sleep(BACKFILL_SECONDS + 0.1)
    (descriptor,) = raw_glue.get_partition_indexes(DatabaseName="sales", TableName="events")[
        "PartitionIndexDescriptorList"
    ]
    assert descriptor["IndexStatus"] == "FAILED"
    assert descriptor["BackfillErrors"] == [
        {"Code": "INVALID_PARTITION_TYPE_DATA_ERROR", "Partitions": [{"Values": ["2024-01-02", "late", "x"]}]}
    ]


def test_reset_forgets_indexes(server: LocalGlue, raw_glue: Any) -> None:
    _table(raw_glue, PartitionIndexes=[{"IndexName": "by_dt", "Keys": ["dt"]}])
    server.reset()
    _table(raw_glue)
    assert _indexes(raw_glue) == {}


def test_a_restarted_sandbox_keeps_its_indexes(tmp_path: Path) -> None:
    with LocalGlue(state=tmp_path / "state") as first:
        glue = boto3.client("glue", endpoint_url=first.endpoint_url, region_name="us-east-1")
        _table(glue, PartitionIndexes=[{"IndexName": "by_dt", "Keys": ["dt"]}])
        _create(glue, "by_hr", ["hr"])
        time.sleep(BACKFILL_SECONDS + 0.1)
        glue.delete_partition_index(DatabaseName="sales", TableName="events", IndexName="by_dt")
        assert first.save()
    with LocalGlue(state=tmp_path / "state") as second:
        glue = boto3.client("glue", endpoint_url=second.endpoint_url, region_name="us-east-1")
        assert _indexes(glue) == {"by_hr": "ACTIVE"}
        assert not second.save()  # reading the indexes back wrote nothing


def test_an_interrupted_wait_reports_what_was_sent_and_a_replace_stops_after_its_delete(
    server: LocalGlue, raw_glue: Any
) -> None:
    import threading

    from gluecat.apply.indexes import Waiter, apply_index_change
    from gluecat.backends.glue import Glue
    from gluecat.changes.model import Action, Change

    _table(raw_glue, PartitionIndexes=[{"IndexName": "by_dt", "Keys": ["dt"]}])
    glue = Glue(aws.open_session(None, "us-east-1"), server.endpoint_url, None)
    notes: list[str] = []
    interrupted = threading.Event()
    interrupted.set()  # Ctrl-C came while apply waited
    waiter = Waiter(glue, notes.append, interrupted)

    def change(action: Action, name: str, keys: list[str]) -> Change:
        desired = {"IndexName": name, "Keys": keys}
        return Change(f"sales.events#{name}", "index", action, "sales", "events", desired)

    assert apply_index_change(glue, change(Action.REPLACE, "by_dt", ["hr"]), waiter) == "indexes deleted"
    assert _indexes(raw_glue) == {"by_dt": "DELETING"}  # the create waits for the next apply
    assert apply_index_change(glue, change(Action.CREATE, "by_hr", ["hr"]), waiter) == "indexes created"
    assert _indexes(raw_glue) == {"by_dt": "DELETING", "by_hr": "CREATING"}
    assert notes[-1] == "stopped waiting for partition index sales.events#by_hr (CREATING); Glue carries on"
