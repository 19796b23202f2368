"""The pure Iceberg diff: desired table vs live Iceberg metadata -> ordered operations.

Operations are plain data (they travel in saved plans) and are carried out as
Iceberg commits. Changes Iceberg cannot make safely are refusals, with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pyiceberg.table.metadata import TableMetadata
from pyiceberg.transforms import UnknownTransform
from pyiceberg.types import ListType, MapType, NestedField, StructType

from gluecat.backends.iceberg_meta import COMMENT, FORMAT_VERSION, Op, live_sort, live_spec
from gluecat.backends.iceberg_types import promotion_allowed, schema_of, type_text
from gluecat.changes.model import FieldDiff
from gluecat.model import IcebergTable
from gluecat.model.hivetype import parse


@dataclass
class IcebergDiff:
    ops: list[Op] = field(default_factory=list)
    diffs: list[FieldDiff] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    destructive: bool = False


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
    _struct(result, (), live.schema().as_struct(), schema_of(table.columns).as_struct())
    _spec(result, table, live)
    _sort_order(result, table, live)
    _properties(result, table, live)
    return result


# schema


def _struct(result: IcebergDiff, path: tuple[str, ...], live: StructType, want: StructType) -> None:
    live_by_name = {f.name: f for f in live.fields}
    wanted = {f.name for f in want.fields}
    for desired in want.fields:
        here = (*path, desired.name)
        have = live_by_name.get(desired.name)
        if have is None:
            _add(result, here, desired)
        else:
            _field(result, here, have, desired, top_level=not path)
    for have in live.fields:
        if have.name not in wanted:
            here = (*path, have.name)
            result.ops.append({"op": "delete_column", "path": list(here)})
            result.diffs.append(FieldDiff(f"columns.{'.'.join(here)}", type_text(have.field_type), None))
            result.destructive = True


def _add(result: IcebergDiff, path: tuple[str, ...], desired: NestedField) -> None:
    dotted = ".".join(path)
    if desired.required:
        result.refusals.append(
            f"column {dotted}: a new column cannot be required (rows already written have no value); add it as optional"
        )
        return
    text = type_text(desired.field_type)
    result.ops.append({"op": "add_column", "path": list(path), "type": text, "doc": desired.doc})
    result.diffs.append(FieldDiff(f"columns.{dotted}", None, text))


def _field(result: IcebergDiff, path: tuple[str, ...], have: NestedField, want: NestedField, top_level: bool) -> None:
    dotted = ".".join(path)
    _types(result, path, have.field_type, want.field_type)
    if have.required and not want.required:
        result.ops.append({"op": "update_column", "path": list(path), "required": False})
        result.diffs.append(FieldDiff(f"columns.{dotted}.required", True, False))
    elif want.required and not have.required:
        result.refusals.append(
            f"column {dotted}: an optional column cannot be made required (rows may already hold nulls)"
        )
    if top_level and want.doc is not None and want.doc != have.doc:
        result.ops.append({"op": "update_column", "path": list(path), "doc": want.doc})
        result.diffs.append(FieldDiff(f"columns.{dotted}.comment", have.doc, want.doc))


def _types(result: IcebergDiff, path: tuple[str, ...], have: Any, want: Any) -> None:
    if isinstance(have, StructType) and isinstance(want, StructType):
        _struct(result, path, have, want)
    elif isinstance(have, ListType) and isinstance(want, ListType):
        _types(result, (*path, "element"), have.element_type, want.element_type)
    elif (
        isinstance(have, MapType) and isinstance(want, MapType) and type_text(have.key_type) == type_text(want.key_type)
    ):
        _types(result, (*path, "value"), have.value_type, want.value_type)
    elif type_text(have) != type_text(want):
        before, after = type_text(have), type_text(want)
        dotted = ".".join(path)
        if promotion_allowed(parse(before, iceberg=True), parse(after, iceberg=True)):
            result.ops.append({"op": "update_column", "path": list(path), "type": after})
            result.diffs.append(FieldDiff(f"columns.{dotted}.type", before, after))
        else:
            result.refusals.append(
                f"column {dotted}: Iceberg cannot change {before} to {after} without rewriting data"
                " (safe: int -> bigint, float -> double, a wider decimal precision)"
            )


# partition spec and sort order


def _spec_entry(column: str, transform: str, name: str | None) -> dict[str, Any]:
    return {"column": column, "transform": transform, "name": name}


def _spec(result: IcebergDiff, table: IcebergTable, live: TableMetadata) -> None:
    have = live_spec(live)
    want = [(f.column, f.transform) for f in table.partition_spec]
    if [(c, t) for c, t, _ in have] == want:
        return
    unreadable = [
        f"{getattr(f.transform, '_transform', f.transform)}({column})"
        for f, (column, _, _) in zip(live.spec().fields, have, strict=True)
        if isinstance(f.transform, UnknownTransform)
    ]
    if unreadable:  # removing it is no safe change: pyiceberg cannot even write the spec back
        result.refusals.append(
            f"its live partition spec holds {', '.join(unreadable)}, a transform gluecat cannot read or change:"
            " leave its partitioning to the engine that wrote it (gluecat import keeps such a table as a registration)"
        )
        return
    remove = [name for column, transform, name in have if (column, transform) not in want]
    add = [
        _spec_entry(f.column, f.transform, f.name)
        for f in table.partition_spec
        if (f.column, f.transform) not in [(c, t) for c, t, _ in have]
    ]
    result.ops.append({"op": "spec", "remove": remove, "add": add})
    result.diffs.append(FieldDiff("partition_spec", _spec_text([(c, t) for c, t, _ in have]), _spec_text(want)))


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
    if version is not None and int(version) != live.format_version:
        if int(version) < live.format_version:
            result.refusals.append(f"format-version {live.format_version} cannot go down to {version}")
        else:
            result.ops.append({"op": "upgrade_format_version", "version": int(version)})
            result.diffs.append(FieldDiff("properties.format-version", str(live.format_version), version))
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
