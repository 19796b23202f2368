"""Sample rows, and the bytes each storage preset holds them as, written the way the format's own
writers do (pyarrow for Parquet and ORC, fastavro for Avro, plain text for the rest)."""

from __future__ import annotations

import datetime
import io
import json
from decimal import Decimal
from typing import Any

import fastavro
import pyarrow as pa
import pyarrow.orc as orc
import pyarrow.parquet as pq

COLUMNS = """\
  - {name: id, type: bigint}
  - {name: name, type: string}
  - {name: price, type: "decimal(10,2)"}
  - {name: seen, type: timestamp}
"""
PARTITION_KEYS = """\
partition_keys:
  - {name: region, type: string}
  - {name: bucket, type: int}
  - {name: day, type: date}
"""

Row = tuple[int, str, Decimal, datetime.datetime]


def rows(seed: int) -> list[Row]:
    """Two rows that differ per seed, so a partition read from the wrong place shows."""
    base = datetime.datetime(2024, 1, 1, 10, 30, 0)
    return [
        (seed * 10 + 1, f"alpha{seed}", Decimal(f"{seed}.50"), base + datetime.timedelta(days=seed)),
        (seed * 10 + 2, f"beta{seed}", Decimal(f"{seed + 1}.25"), base + datetime.timedelta(days=seed, hours=1)),
    ]


ARROW_SCHEMA = pa.schema(
    [("id", pa.int64()), ("name", pa.string()), ("price", pa.decimal128(10, 2)), ("seen", pa.timestamp("ms"))]
)
AVRO_SCHEMA = fastavro.parse_schema(
    {
        "type": "record",
        "name": "row",
        "fields": [
            {"name": "id", "type": ["null", "long"]},
            {"name": "name", "type": ["null", "string"]},
            {
                "name": "price",
                "type": ["null", {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}],
            },
            {"name": "seen", "type": ["null", {"type": "long", "logicalType": "timestamp-millis"}]},
        ],
    }
)


def _arrow(data: list[Row]) -> pa.Table:
    return pa.Table.from_pylist([dict(zip(ARROW_SCHEMA.names, row, strict=True)) for row in data], schema=ARROW_SCHEMA)


def _text(data: list[Row], separator: str) -> bytes:
    return "".join(separator.join(_plain(row)) + "\n" for row in data).encode()


def _plain(row: Row) -> list[str]:
    return [str(row[0]), row[1], str(row[2]), row[3].strftime("%Y-%m-%d %H:%M:%S")]


def _json(data: list[Row]) -> bytes:
    keys = ("id", "name", "price", "seen")
    return "".join(json.dumps(dict(zip(keys, [row[0], *_plain(row)[1:]], strict=True))) + "\n" for row in data).encode()


def encode(storage: str, data: list[Row]) -> bytes:
    buffer = io.BytesIO()
    if storage == "parquet":
        pq.write_table(_arrow(data), buffer)
    elif storage == "orc":
        orc.write_table(_arrow(data), buffer)
    elif storage == "avro":
        records: list[dict[str, Any]] = [dict(zip(ARROW_SCHEMA.names, row, strict=True)) for row in data]
        fastavro.writer(buffer, AVRO_SCHEMA, records)
    elif storage in ("csv", "regex"):
        return _text(data, ",")
    elif storage == "tsv":
        return _text(data, "\t")
    elif storage == "text":
        return _text(data, "\x01")
    elif storage == "opencsv":
        return "".join(",".join(f'"{v}"' for v in _plain(row)) + "\n" for row in data).encode()
    elif storage in ("json", "hive-json"):
        return _json(data)
    else:
        raise AssertionError(storage)
    return buffer.getvalue()
