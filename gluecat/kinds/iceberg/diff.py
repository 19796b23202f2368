"""The pure Iceberg diff: desired table vs live Iceberg metadata -> ordered operations.

Operations are plain data (they travel in saved plans) and are carried out as
Iceberg commits. Changes Iceberg cannot make safely are refusals, with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pyiceberg.table.metadata import TableMetadata
from pyiceberg.transforms import UnknownTransform

from gluecat.backends.iceberg_meta import COMMENT, FORMAT_VERSION, Op, live_sort, live_spec
from gluecat.changes.model import FieldDiff
from gluecat.kinds.iceberg.format_version import downgrade_refusal
from gluecat.kinds.iceberg.schema import schema_changes
from gluecat.model import IcebergTable


@dataclass
class IcebergDiff:
    ops: list[Op] = field(default_factory=list)
    diffs: list[FieldDiff] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    destructive: bool = False
    renames: dict[str, str] = field(default_factory=dict)  # a column's earlier path -> its new name
    likely_renames: dict[str, str] = field(default_factory=dict)  # dropped -> added at its place, same type
    moves: list[str] = field(default_factory=list)  # the structs whose fields move ("columns": the table's)
    upgrade: int | None = None  # the format-version to upgrade to: its own change, never among `ops`


def desired_properties(table: IcebergTable) -> dict[str, str | None]:
    properties = dict(table.properties)
    if table.description is not None:
        properties[COMMENT] = table.description
    return properties


def creation_ops(table: IcebergTable) -> list[Op]:
    """What a new table needs after its schema: spec fields, sort order (in one transaction)."""
    ops: list[Op] = []
    if table.partition_spec:
        ops.append(
            {
                "op": "spec",
                "remove": [],
                "add": [_spec_entry(f.column, f.transform, f.name) for f in table.partition_spec],
            }
        )
    if table.sort_order:
        ops.append({"op": "sort_order", "fields": [f.model_dump() for f in table.sort_order]})
    return ops


def diff_iceberg(table: IcebergTable, live: TableMetadata) -> IcebergDiff:
    result = IcebergDiff()
    schema_changes(result, live.schema().as_struct(), table.columns)
    _spec(result, table, live)
    _sort_order(result, table, live)
    _properties(result, table, live)
    return result


# partition spec and sort order


def _spec_entry(column: str, transform: str, name: str | None) -> dict[str, Any]:
    return {"column": column, "transform": transform, "name": name}


def _spec(result: IcebergDiff, table: IcebergTable, live: TableMetadata) -> None:
    """Compared by meaning: the same fields with the same transforms are no change, whatever order
    Iceberg keeps them in (it appends a new field after the kept ones; a v1 table keeps a removed
    field as `void`)."""
    have = [(c, t, n) for c, t, n in live_spec(live) if t != "void"]
    want = [(f.column, f.transform) for f in table.partition_spec]
    held = [(c, t) for c, t, _ in have]
    if sorted(held) == sorted(want):
        return
    unreadable = [
        f"{getattr(f.transform, '_transform', f.transform)}({column})"
        for f, (column, _, _) in zip(live.spec().fields, live_spec(live), strict=True)
        if isinstance(f.transform, UnknownTransform)
    ]
    if unreadable:  # removing it is no safe change: pyiceberg cannot even write the spec back
        result.refusals.append(
            f"its live partition spec holds {', '.join(unreadable)}, a transform gluecat cannot read or change:"
            " leave its partitioning to the engine that wrote it (gluecat import keeps such a table as a registration)"
        )
        return
    remove = [name for column, transform, name in have if (column, transform) not in want]
    added = [f for f in table.partition_spec if (f.column, f.transform) not in held]
    result.ops.append(
        {"op": "spec", "remove": remove, "add": [_spec_entry(f.column, f.transform, f.name) for f in added]}
    )
    reached = [field for field in held if field in want] + [(f.column, f.transform) for f in added]
    after = _spec_text(reached)
    if reached != want:  # the YAML's order cannot be had: Iceberg appends; plans compare by meaning
        after += " (Iceberg appends new fields after the kept ones; the YAML's order is no change)"
    result.diffs.append(FieldDiff("partition_spec", _spec_text(held), after))


def _spec_text(fields: list[tuple[str, str]]) -> str:
    return ", ".join(f"{transform}({column})" for column, transform in fields) or "(unpartitioned)"


def _sort_order(result: IcebergDiff, table: IcebergTable, live: TableMetadata) -> None:
    want = [f.model_dump() for f in table.sort_order]
    have = live_sort(live)
    if want != have:
        result.ops.append({"op": "sort_order", "fields": want})
        result.diffs.append(FieldDiff("sort_order", _sort_text(have), _sort_text(want)))


def _sort_text(fields: list[dict[str, Any]]) -> str:
    return (
        ", ".join(f"{f['transform']}({f['column']}) {f['direction']} {f['null_order']}" for f in fields) or "(unsorted)"
    )


# properties


def _properties(result: IcebergDiff, table: IcebergTable, live: TableMetadata) -> None:
    wanted = desired_properties(table)
    version = wanted.pop(FORMAT_VERSION, None)
    if version is not None and version.strip() not in ("1", "2", "3"):
        result.refusals.append(f"format-version {version} does not exist: Iceberg has 1, 2 and 3")
    elif version is not None and int(version) != live.format_version:
        if int(version) < live.format_version:
            result.refusals.append(downgrade_refusal(live.format_version, version.strip()))
        else:
            result.upgrade = int(version)
    to_set = {k: v for k, v in wanted.items() if v is not None and live.properties.get(k) != v}
    to_remove = [k for k, v in wanted.items() if v is None and k in live.properties]
    if to_set:
        result.ops.append({"op": "set_properties", "properties": to_set})
    if to_remove:
        result.ops.append({"op": "remove_properties", "keys": to_remove})
    for key in sorted(to_set):
        path = "description" if key == COMMENT else f"properties.{key}"
        result.diffs.append(FieldDiff(path, live.properties.get(key), to_set[key]))
    for key in to_remove:
        result.diffs.append(FieldDiff(f"properties.{key}", live.properties[key], None))
