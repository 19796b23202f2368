"""Every storage preset, and an explicit RegexSerDe, read back through Trino with exactly the rows
written: unpartitioned, and partitioned by a string, an int and a date key, one partition at a
location of its own."""

from __future__ import annotations

import datetime

import pytest

from tests.engines.conftest import Lake
from tests.engines.samples import COLUMNS, PARTITION_KEYS, Row, encode, rows

PRESETS = ["parquet", "orc", "avro", "csv", "opencsv", "tsv", "json", "hive-json", "text"]
REGEX = """\
serde:
  library: org.apache.hadoop.hive.serde2.RegexSerDe
  parameters: {input.regex: "^([^,]*),([^,]*),([^,]*),([^,]*)$"}
input_format: org.apache.hadoop.mapred.TextInputFormat
output_format: org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat
"""
STORAGES = [*PRESETS, "regex"]
# (region, bucket, day) -> where its files live, under the table's location unless it says otherwise
PARTITIONS = {
    ("eu", 1, "2024-01-01"): "region=eu/bucket=1/day=2024-01-01/",
    ("us", 2, "2024-01-02"): "region=us/bucket=2/day=2024-01-02/",
    ("us", 3, "2024-02-29"): "../moved/{table}/leap/",
}


def _storage_yaml(storage: str) -> str:
    return REGEX if storage == "regex" else f"storage: {storage}\n"


def _table(storage: str) -> str:
    return storage.replace("-", "_")


def _files() -> dict[str, str]:
    files = {"storage/database.yaml": "location: s3://lake/storage/\n"}
    for storage in STORAGES:
        name = _table(storage)
        files[f"storage/tables/{name}_flat.yaml"] = f"{_storage_yaml(storage)}columns:\n{COLUMNS}"
        partitions = "".join(
            f"  - values: {{region: {r}, bucket: {b}, day: '{d}'}}\n"
            + (f"    location: s3://lake/storage/moved/{name}_parted/leap/\n" if where.startswith("..") else "")
            for (r, b, d), where in PARTITIONS.items()
        )
        files[f"storage/tables/{name}_parted.yaml"] = (
            f"{_storage_yaml(storage)}columns:\n{COLUMNS}{PARTITION_KEYS}partitions:\n{partitions}"
        )
    return files


@pytest.fixture(scope="module")
def storage_lake(module_lake: Lake) -> Lake:
    module_lake.project(_files())
    module_lake.apply()
    for storage in STORAGES:
        name = _table(storage)
        module_lake.put(f"storage/{name}_flat/part-0", encode(storage, rows(0)))
        for seed, ((_region, _bucket, _day), where) in enumerate(PARTITIONS.items(), start=1):
            prefix = (
                f"storage/moved/{name}_parted/leap/" if where.startswith("..") else f"storage/{name}_parted/{where}"
            )
            module_lake.put(f"{prefix}part-0", encode(storage, rows(seed)))
    return module_lake


# OpenCSVSerde hands Trino every field as text, whatever the column declares (validate warns).
AS_TEXT = {"opencsv"}


def _expected(data: list[Row], storage: str) -> list[list[object]]:
    if storage in AS_TEXT:
        return [[str(i), n, str(p), t.strftime("%Y-%m-%d %H:%M:%S")] for i, n, p, t in data]
    return [[i, n, p, t] for i, n, p, t in data]


@pytest.mark.parametrize("storage", STORAGES)
def test_trino_reads_exactly_the_rows_of_an_unpartitioned_table(storage_lake: Lake, storage: str) -> None:
    got = storage_lake.query(f"SELECT id, name, price, seen FROM hive.storage.{_table(storage)}_flat ORDER BY id")
    assert got == _expected(rows(0), storage)


@pytest.mark.parametrize("storage", STORAGES)
def test_trino_reads_every_registered_partition_where_glue_puts_it(storage_lake: Lake, storage: str) -> None:
    got = storage_lake.query(
        f"SELECT id, name, price, seen, region, bucket, day FROM hive.storage.{_table(storage)}_parted ORDER BY id"
    )
    want = []
    for seed, (region, bucket, day) in enumerate(PARTITIONS, start=1):
        want += [[*row, region, bucket, datetime.date.fromisoformat(day)] for row in _expected(rows(seed), storage)]
    got.sort(key=lambda row: int(str(row[0])))  # text ids sort as text
    assert got == want
    pruned = storage_lake.query(f"SELECT count(*) FROM hive.storage.{_table(storage)}_parted WHERE bucket = 3")
    assert pruned == [[2]]
