"""The local Glue holds what partitions share once: equal descriptor parts are one object in
memory, once in state.json, and one object again after a restart."""

from __future__ import annotations

import copy
import json
from typing import Any

from gluecat.sandbox.compact import REF, SavedParts, Shared

COLUMNS = [{"Name": f"c{index}", "Type": "string"} for index in range(100)]


def _partition(day: int, columns: list[dict[str, Any]] = COLUMNS) -> dict[str, Any]:
    return {
        "Values": [str(day)],
        "StorageDescriptor": {
            "Columns": copy.deepcopy(columns),
            "Location": f"s3://lake/t/day={day}/",
            "SerdeInfo": {"SerializationLibrary": "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe"},
        },
    }


def test_equal_columns_are_held_once_and_different_ones_apart() -> None:
    shared = Shared()
    partitions = [_partition(day) for day in range(3)] + [_partition(9, COLUMNS[:5])]
    shared.partitions(partitions)
    columns = [p["StorageDescriptor"]["Columns"] for p in partitions]
    assert columns[0] is columns[1] is columns[2]
    assert columns[3] is not columns[0] and columns[3] == COLUMNS[:5]
    assert [p["StorageDescriptor"]["Location"] for p in partitions][:2] == ["s3://lake/t/day=0/", "s3://lake/t/day=1/"]


def test_saved_state_names_each_shared_part_once_and_reads_back_shared() -> None:
    shared = Shared()
    stored = [_partition(day) for day in range(1000)]
    shared.partitions(stored)
    before = copy.deepcopy(stored)

    parts = SavedParts()
    saved = json.loads(json.dumps({"partitions": [parts.out(p) for p in stored], "shared": parts.held}))
    assert stored == before  # what the sandbox holds is not changed by saving it
    assert len(saved["shared"]) == 2  # the columns and the SerDe
    assert saved["partitions"][0]["StorageDescriptor"]["Columns"] == {REF: 0}
    assert len(json.dumps(saved)) < len(json.dumps(before)) / 10

    restored = SavedParts(saved["shared"])
    back = [restored.back(p) for p in saved["partitions"]]
    assert back == before
    assert back[0]["StorageDescriptor"]["Columns"] is back[999]["StorageDescriptor"]["Columns"]


def test_a_state_saved_before_parts_were_shared_reads_as_it_is() -> None:
    whole = [_partition(day) for day in range(3)]
    back = [SavedParts([]).back(copy.deepcopy(p)) for p in whole]
    assert back == whole
