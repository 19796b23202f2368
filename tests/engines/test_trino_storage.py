"""Every storage preset, and an explicit RegexSerDe, read back through Trino with exactly the rows
written: unpartitioned, and partitioned by a string, an int and a date key, one partition at a
location of its own."""

from __future__ import annotations

import datetime
import io
from decimal import Decimal

import pyarrow as pa
import pyarrow.orc as orc
import pyarrow.parquet as pq
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


TYPES = """\
storage: {storage}
columns:
  - {{name: tags, type: "array<string>"}}
  - {{name: attrs, type: "map<string,int>"}}
  - {{name: address, type: "struct<city:string,zip:int,geo:struct<lat:double,lon:double>>"}}
  - {{name: code, type: "char(3)"}}
  - {{name: label, type: "varchar(10)"}}
  - {{name: amount, type: "decimal(38,9)"}}
  - {{name: odd-name, type: string}}
  - {{name: day, type: date}}
"""
TYPED_ROW = {
    "tags": ["a", "b"],
    "attrs": [("x", 1)],
    "address": {"city": "Oslo", "zip": 150, "geo": {"lat": 59.9, "lon": 10.7}},
    "code": "NO ",
    "label": "north",
    "amount": Decimal("12345678901234567890.123456789"),
    "odd-name": "odd",
    "day": datetime.date(2024, 2, 29),
}


def _typed_file(storage: str) -> bytes:
    schema = pa.schema(
        [
            ("tags", pa.list_(pa.string())),
            ("attrs", pa.map_(pa.string(), pa.int32())),
            ("address", pa.struct([("city", pa.string()), ("zip", pa.int32()),
                                   ("geo", pa.struct([("lat", pa.float64()), ("lon", pa.float64())]))])),
            ("code", pa.string()),
            ("label", pa.string()),
            ("amount", pa.decimal128(38, 9)),
            ("odd-name", pa.string()),
            ("day", pa.date32()),
        ]
    )  # fmt: skip
    table = pa.Table.from_pylist([TYPED_ROW], schema=schema)
    buffer = io.BytesIO()
    (pq.write_table if storage == "parquet" else orc.write_table)(table, buffer)
    return buffer.getvalue()


@pytest.mark.parametrize("storage", ["parquet", "orc"])
def test_nested_types_decimal_char_varchar_and_odd_names_read_as_written(lake: Lake, storage: str) -> None:
    database = f"types_{storage}"
    lake.project({f"{database}/database.yaml": f"location: s3://lake/{database}/\n",
                  f"{database}/tables/typed.yaml": TYPES.format(storage=storage)})  # fmt: skip
    lake.apply()
    lake.put(f"{database}/typed/part-0", _typed_file(storage))
    (row,) = lake.query(
        'SELECT tags, attrs, address.city, address.zip, address.geo.lat, code, label, amount, "odd-name", day'
        f" FROM hive.{database}.typed"
    )
    assert row == [["a", "b"], {"x": 1}, "Oslo", 150, 59.9, "NO ", "north",
                   Decimal("12345678901234567890.123456789"), "odd", datetime.date(2024, 2, 29)]  # fmt: skip
    columns = {name: kind for name, kind, *_ in lake.query(f"DESCRIBE hive.{database}.typed")}
    assert columns["code"] == "char(3)" and columns["label"] == "varchar(10)"
    assert columns["address"] == "row(city varchar, zip integer, geo row(lat double, lon double))"
