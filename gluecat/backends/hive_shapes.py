"""Glue's API shapes to Hive Metastore Thrift objects and back.

gluecat speaks Glue's shapes (TableInput, PartitionInput, DatabaseInput) everywhere
above the backends; a Hive Metastore holds the same things under other names. What
differs, and is mapped here:
- a table's description is its `comment` parameter; an external table is one with
  `EXTERNAL=TRUE` (HMS stores `tableType` alone as MANAGED_TABLE);
- HMS has no column parameters, no partition indexes and no version token (the
  backend compares fingerprints instead);
- partition names are `key=value/...` with Hive's path escaping.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hive_metastore.ttypes import (
    Database,
    FieldSchema,
    Order,
    Partition,
    SerDeInfo,
    SkewedInfo,
    StorageDescriptor,
    Table,
)

Shape = dict[str, Any]
DESCRIPTION = "comment"  # the table parameter Hive, Spark and Trino keep a table's description in
EXTERNAL = "EXTERNAL"
DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__"
# Hive's FileUtils.escapePathName: what a partition name carries %-escaped.
_ESCAPED = set("\"#%'*/:=?\\\x7f{[]^") | {chr(c) for c in range(1, 32)}


# Glue shapes -> Thrift


def database_to_hive(database_input: Mapping[str, Any]) -> Database:
    return Database(
        name=database_input["Name"],
        description=database_input.get("Description"),
        locationUri=database_input.get("LocationUri"),
        parameters=dict(database_input.get("Parameters") or {}),
    )


def table_to_hive(database: str, table_input: Mapping[str, Any]) -> Table:
    parameters = dict(table_input.get("Parameters") or {})
    if table_input.get("Description") is not None:
        parameters[DESCRIPTION] = table_input["Description"]
    table_type = table_input.get("TableType") or "MANAGED_TABLE"
    if table_type == "EXTERNAL_TABLE":
        parameters[EXTERNAL] = "TRUE"
    return Table(
        tableName=table_input["Name"],
        dbName=database,
        owner=table_input.get("Owner"),
        retention=int(table_input.get("Retention") or 0),
        sd=_descriptor_to_hive(table_input.get("StorageDescriptor") or {}),
        partitionKeys=[_column_to_hive(c) for c in table_input.get("PartitionKeys") or []],
        parameters=parameters,
        viewOriginalText=table_input.get("ViewOriginalText"),
        viewExpandedText=table_input.get("ViewExpandedText"),
        tableType=table_type,
    )


def partition_to_hive(database: str, table: str, partition_input: Mapping[str, Any]) -> Partition:
    return Partition(
        values=list(partition_input["Values"]),
        dbName=database,
        tableName=table,
        sd=_descriptor_to_hive(partition_input.get("StorageDescriptor") or {}),
        parameters=dict(partition_input.get("Parameters") or {}),
    )


def _descriptor_to_hive(descriptor: Mapping[str, Any]) -> StorageDescriptor:
    serde = descriptor.get("SerdeInfo") or {}
    skewed = descriptor.get("SkewedInfo")
    return StorageDescriptor(
        cols=[_column_to_hive(c) for c in descriptor.get("Columns") or []],
        location=descriptor.get("Location"),
        inputFormat=descriptor.get("InputFormat"),
        outputFormat=descriptor.get("OutputFormat"),
        compressed=bool(descriptor.get("Compressed", False)),
        numBuckets=int(descriptor.get("NumberOfBuckets", -1)),
        serdeInfo=SerDeInfo(
            name=serde.get("Name"),
            serializationLib=serde.get("SerializationLibrary"),
            parameters=dict(serde.get("Parameters") or {}),
        ),
        bucketCols=list(descriptor.get("BucketColumns") or []),
        sortCols=[Order(col=s["Column"], order=s.get("SortOrder", 1)) for s in descriptor.get("SortColumns") or []],
        parameters=dict(descriptor.get("Parameters") or {}),
        skewedInfo=SkewedInfo(
            skewedColNames=list(skewed.get("SkewedColumnNames") or []),
            skewedColValues=[[v] for v in skewed.get("SkewedColumnValues") or []],
            skewedColValueLocationMaps={},
        )
        if skewed
        else None,
        storedAsSubDirectories=bool(descriptor.get("StoredAsSubDirectories", False)),
    )


def _column_to_hive(column: Mapping[str, Any]) -> FieldSchema:
    return FieldSchema(name=column["Name"], type=column.get("Type", ""), comment=column.get("Comment"))


# Thrift -> Glue shapes


def database_from_hive(database: Database) -> Shape:
    shape: Shape = {"Name": database.name, "Parameters": dict(database.parameters or {})}
    if database.description:
        shape["Description"] = database.description
    if database.locationUri:
        shape["LocationUri"] = database.locationUri
    return shape


def table_from_hive(table: Table) -> Shape:
    parameters = dict(table.parameters or {})
    description = parameters.pop(DESCRIPTION, None)
    table_type = table.tableType
    if parameters.get(EXTERNAL, "").upper() == "TRUE":  # kept: Athena's and Spark's Glue tables carry it too
        table_type = "EXTERNAL_TABLE"
    shape: Shape = {
        "Name": table.tableName,
        "DatabaseName": table.dbName,
        "StorageDescriptor": _descriptor_from_hive(table.sd),
        "PartitionKeys": [_column_from_hive(c) for c in table.partitionKeys or []],
        "TableType": table_type,
        "Parameters": parameters,
        "CreateTime": table.createTime,
        "LastAccessTime": table.lastAccessTime,
    }
    if description is not None:
        shape["Description"] = description
    if table.owner:
        shape["Owner"] = table.owner
    if table.retention:
        shape["Retention"] = table.retention
    if table.viewOriginalText is not None:
        shape["ViewOriginalText"] = table.viewOriginalText
    if table.viewExpandedText is not None:
        shape["ViewExpandedText"] = table.viewExpandedText
    return shape


def partition_from_hive(partition: Partition) -> Shape:
    return {
        "Values": list(partition.values or []),
        "DatabaseName": partition.dbName,
        "TableName": partition.tableName,
        "StorageDescriptor": _descriptor_from_hive(partition.sd),
        "Parameters": dict(partition.parameters or {}),
        "CreateTime": partition.createTime,
        "LastAccessTime": partition.lastAccessTime,
    }


def _descriptor_from_hive(descriptor: StorageDescriptor | None) -> Shape:
    if descriptor is None:
        return {}
    serde = descriptor.serdeInfo or SerDeInfo()
    shape: Shape = {
        "Columns": [_column_from_hive(c) for c in descriptor.cols or []],
        "InputFormat": descriptor.inputFormat,
        "OutputFormat": descriptor.outputFormat,
        "Compressed": bool(descriptor.compressed),
        "NumberOfBuckets": descriptor.numBuckets if descriptor.numBuckets is not None else -1,
        "SerdeInfo": {
            "SerializationLibrary": serde.serializationLib,
            "Parameters": dict(serde.parameters or {}),
        },
        "BucketColumns": list(descriptor.bucketCols or []),
        "SortColumns": [{"Column": o.col, "SortOrder": o.order} for o in descriptor.sortCols or []],
        "Parameters": dict(descriptor.parameters or {}),
        "StoredAsSubDirectories": bool(descriptor.storedAsSubDirectories),
    }
    if descriptor.location is not None:
        shape["Location"] = descriptor.location
    if serde.name:
        shape["SerdeInfo"]["Name"] = serde.name
    return shape


def _column_from_hive(column: FieldSchema) -> Shape:
    shape: Shape = {"Name": column.name, "Type": column.type}
    if column.comment:
        shape["Comment"] = column.comment
    return shape


# partition names


def partition_name(keys: Sequence[str], values: Sequence[str]) -> str:
    """`dt=2024-01-01/region=eu`, escaped as Hive escapes it (its partition names are paths)."""
    return "/".join(f"{_escape(k)}={_escape(v) if v else DEFAULT_PARTITION}" for k, v in zip(keys, values, strict=True))


def _escape(text: str) -> str:
    return "".join(f"%{ord(c):02X}" if c in _ESCAPED else c for c in text)
