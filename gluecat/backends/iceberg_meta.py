"""What gluecat reads from live Iceberg metadata: its fingerprint, spec and sort order, and the
operations vocabulary commits are made of (plain data: they travel in saved plans)."""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pyiceberg is loaded only where an Iceberg table is read
    from pyiceberg.table.metadata import TableMetadata

Op = dict[str, Any]
COMMENT = "comment"  # the Iceberg table property Spark and Trino use for a table's description
FORMAT_VERSION = "format-version"


def fingerprint(live: TableMetadata) -> str:
    """Changes when schema, spec, sort order or properties change — not when data is appended."""
    order = live.sort_order_by_id(live.default_sort_order_id)
    parts = [
        live.schema().model_dump_json(),
        live.spec().model_dump_json(),
        order.model_dump_json() if order else "",
        json.dumps(live.properties, sort_keys=True),
        str(live.format_version),
    ]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]


def live_spec(live: TableMetadata) -> list[tuple[str, str, str]]:
    schema = live.schema()
    return [(schema.find_column_name(f.source_id) or "?", str(f.transform), f.name) for f in live.spec().fields]


def live_sort(live: TableMetadata) -> list[dict[str, Any]]:
    order = live.sort_order_by_id(live.default_sort_order_id)
    schema = live.schema()
    if order is None:
        return []
    return [
        {
            "column": schema.find_column_name(f.source_id),
            "transform": str(f.transform),
            "direction": f.direction.value,
            "null_order": f.null_order.value,
        }
        for f in order.fields
    ]
