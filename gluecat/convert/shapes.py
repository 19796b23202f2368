"""The keys Glue accepts in its *Input shapes: what a read answer may be written back with."""

from __future__ import annotations

TABLE_INPUT_KEYS = (
    "Name", "Description", "Owner", "LastAccessTime", "LastAnalyzedTime", "Retention",
    "StorageDescriptor", "PartitionKeys", "ViewOriginalText", "ViewExpandedText", "TableType",
    "Parameters", "TargetTable", "ViewDefinition",
)  # fmt: skip
# What a registration carries of a live table: its TableInput without the read-time stamps.
CARRIED_TABLE_KEYS = tuple(key for key in TABLE_INPUT_KEYS if key not in ("LastAccessTime", "LastAnalyzedTime"))
DATABASE_INPUT_KEYS = (
    "Name", "Description", "LocationUri", "Parameters", "CreateTableDefaultPermissions",
    "TargetDatabase", "FederatedDatabase",
)  # fmt: skip
PARTITION_INPUT_KEYS = ("Values", "StorageDescriptor", "Parameters")
