"""The catalog model: what the YAML files say, as frozen pydantic models."""

from gluecat.model.catalog import CatalogConfig, Environment, SparkSettings
from gluecat.model.database import Database
from gluecat.model.partitions import PartitionEntry, PartitionGenerator, Range
from gluecat.model.table import (
    TABLE_MODELS,
    Column,
    DeltaTable,
    HiveTable,
    IcebergColumn,
    IcebergTable,
    Serde,
    Table,
    ViewTable,
)

__all__ = [
    "TABLE_MODELS",
    "CatalogConfig",
    "Column",
    "Database",
    "DeltaTable",
    "Environment",
    "HiveTable",
    "IcebergColumn",
    "IcebergTable",
    "PartitionEntry",
    "PartitionGenerator",
    "Range",
    "Serde",
    "SparkSettings",
    "Table",
    "ViewTable",
]
