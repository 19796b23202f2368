"""The keys Glue accepts in its *Input shapes: what a read answer may be written back with."""

from __future__ import annotations

TABLE_INPUT_KEYS = (
    "Name", "Description", "Owner", "LastAccessTime", "LastAnalyzedTime", "Retention",
    "StorageDescriptor", "PartitionKeys", "ViewOriginalText", "ViewExpandedText", "TableType",
    "Parameters", "TargetTable", "ViewDefinition",
)  # fmt: skip
DATABASE_INPUT_KEYS = (
    "Name", "Description", "LocationUri", "Parameters", "CreateTableDefaultPermissions",
    "TargetDatabase", "FederatedDatabase",
)  # fmt: skip
PARTITION_INPUT_KEYS = ("Values", "StorageDescriptor", "Parameters")
