"""HiveTable ↔ TableInput and PartitionInput."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gluecat.convert.columns import column_shapes, columns_from_glue
from gluecat.convert.extra import TABLE_KEYS, VIEW_TEXTS, extra_from_glue, merge_extra
from gluecat.convert.partitions import created
from gluecat.convert.projection import projection_parameters, split_projection
from gluecat.convert.storage import resolve_storage, storage_keys
from gluecat.model import HiveTable

if TYPE_CHECKING:
    from mypy_boto3_glue.type_defs import (
        PartitionInputTypeDef,
        StorageDescriptorTypeDef,
        TableInputTypeDef,
    )


def storage_descriptor(table: HiveTable, location: str | None) -> StorageDescriptorTypeDef:
    storage = resolve_storage(table)
    descriptor: StorageDescriptorTypeDef = {
        "Columns": column_shapes(table.columns),
        "InputFormat": storage.input_format,
        "OutputFormat": storage.output_format,
        "SerdeInfo": {
            "SerializationLibrary": storage.serde_library,
            "Parameters": storage.serde_parameters,
        },
    }
    if table.serde and table.serde.name:
        descriptor["SerdeInfo"]["Name"] = table.serde.name
    legacy = (table.extra.get("StorageDescriptor") or {}).get("Parameters") or {}
    parameters = {**legacy, **table.storage_parameters}
    if parameters:
        descriptor["Parameters"] = parameters
    if location:
        descriptor["Location"] = location
    return descriptor


def hive_table_input(table: HiveTable, location: str | None) -> TableInputTypeDef:
    assert table.name is not None
    shape: TableInputTypeDef = {
        "Name": table.name,
        "StorageDescriptor": storage_descriptor(table, location),
        "PartitionKeys": column_shapes(table.partition_keys),
        "Parameters": _parameters(table),
    }
    if table.table_type:
        shape["TableType"] = table.table_type
    if table.description:
        shape["Description"] = table.description
    merge_extra(shape, _extra_but_storage_parameters(table.extra))  # type: ignore[arg-type]
    return shape


def _extra_but_storage_parameters(extra: Mapping[str, Any]) -> dict[str, Any]:
    """`extra` of older imports may hold StorageDescriptor parameters: they join `storage_parameters`."""
    descriptor = extra.get("StorageDescriptor")
    if not isinstance(descriptor, Mapping) or "Parameters" not in descriptor:
        return dict(extra)
    return {**extra, "StorageDescriptor": {k: v for k, v in descriptor.items() if k != "Parameters"}}


def _parameters(table: HiveTable) -> dict[str, str]:
    if table.projection is None:
        return dict(table.parameters)
    return {**table.parameters, **projection_parameters(table.projection)}


def partition_input(table: HiveTable, values: Sequence[str], location: str) -> PartitionInputTypeDef:
    """A partition as Athena and Hive add it: the table's storage, its own location."""
    return partition_shape(storage_descriptor(table, None), values, location)


def partition_shape(storage: Mapping[str, Any], values: Sequence[str], location: str) -> PartitionInputTypeDef:
    """A PartitionInput from a table's storage descriptor (its template) and the partition's location."""
    return created(storage, values, location, None)  # type: ignore[return-value]


def hive_table_from_glue(live: Mapping[str, Any]) -> HiveTable:
    descriptor = live.get("StorageDescriptor") or {}
    serde_info = descriptor.get("SerdeInfo") or {}
    keys = storage_keys(
        descriptor.get("InputFormat", ""),
        descriptor.get("OutputFormat", ""),
        serde_info.get("SerializationLibrary", ""),
        serde_info.get("Parameters") or {},
        serde_info.get("Name") or None,
    )
    projection, parameters = split_projection(live.get("Parameters") or {})
    return HiveTable(
        name=live["Name"],
        description=live.get("Description") or None,
        table_type=live.get("TableType") or None,
        location=descriptor.get("Location") or "",
        columns=columns_from_glue(descriptor.get("Columns") or []),
        partition_keys=columns_from_glue(live.get("PartitionKeys") or []),
        storage=keys.storage,
        input_format=keys.input_format,
        output_format=keys.output_format,
        serde=keys.serde,
        storage_parameters=descriptor.get("Parameters") or {},
        parameters=parameters,
        projection=projection,
        extra=extra_from_glue(live, table_keys=(*TABLE_KEYS, *VIEW_TEXTS)),
    )
