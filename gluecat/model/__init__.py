"""The catalog model: what the YAML files say, as frozen pydantic models."""

from gluecat.model.catalog import CatalogConfig, Environment, SparkSettings
from gluecat.model.database import Database
from gluecat.model.lint_policy import LintPolicy
from gluecat.model.partitions import PartitionEntry, PartitionGenerator, Range
from gluecat.model.table import (
    TABLE_MODELS,
    Column,
    DeltaTable,
    HiveTable,
    IcebergColumn,
    IcebergTable,
    RegistrationTable,
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
    "LintPolicy",
    "PartitionEntry",
    "PartitionGenerator",
    "Range",
    "RegistrationTable",
    "Serde",
    "SparkSettings",
    "Table",
    "ViewTable",
]
