"""Which Glue parameters engines own, and how: volatile ones gluecat never touches, durable ones it keeps.

Volatile keys change without anyone editing the table — statistics, timestamps, the
crawler's bookkeeping, Iceberg's pointer to its current metadata file — so they are never
imported, diffed or written. Durable keys that engines and crawlers write and later rely
on (`classification`, `typeOfData`, `compressionType` for crawlers and Glue ETL;
`spark.sql.sources.provider`, `spark.sql.create.version` for Spark) are ordinary
parameters: imported, diffed when declared and written back.

Spark's schema copy (`spark.sql.sources.schema*`) is durable but gluecat rewrites it itself
when it changes a table's columns: it is imported and written when gluecat creates a
table, never diffed, and on an update the live copy wins over the declared one.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping
from typing import TypeVar

Value = TypeVar("Value", str, str | None)

# The set measured on crawler, Hive/Athena, Spark and Iceberg output (see docs/how-to/adopt.md,
# "Rebuilding a catalog from its YAML").
VOLATILE = (
    # Iceberg's current and previous metadata files: every commit moves them.
    "metadata_location",
    "previous_metadata_location",
    # Hive, Athena and Spark: when and by whom the DDL last ran, and statistics.
    "transient_lastDdlTime",
    "last_modified_by",
    "last_modified_time",
    "numFiles",
    "numFilesErasureCoded",
    "numRows",
    "rawDataSize",
    "totalSize",
    "COLUMN_STATS_ACCURATE",
    "STATS_GENERATED",
    "STATS_GENERATED_VIA_STATS_TASK",
    "spark.sql.statistics.*",
    # Glue crawlers: which crawler ran last, its serializer versions, and what it counted.
    "UPDATED_BY_CRAWLER",
    "CrawlerSchemaDeserializerVersion",
    "CrawlerSchemaSerializerVersion",
    "averageRecordSize",
    "objectCount",
    "recordCount",
    "sizeKey",
)
SCHEMA_COPY = ("spark.sql.sources.schema*",)


def _matches(key: str, patterns: Iterable[str]) -> bool:
    return any(fnmatch.fnmatchcase(key, pattern) for pattern in patterns)


def is_volatile(key: str, ignore: Iterable[str] = ()) -> bool:
    """Never imported, diffed or written: an engine changes it, or `ignore_parameters` names it."""
    return _matches(key, (*VOLATILE, *ignore))


def is_schema_copy(key: str) -> bool:
    return _matches(key, SCHEMA_COPY)


def managed(parameters: Mapping[str, Value], ignore: Iterable[str] = ()) -> dict[str, Value]:
    """The parameters gluecat may import and write: volatile keys dropped."""
    patterns = tuple(ignore)
    return {k: v for k, v in parameters.items() if not is_volatile(k, patterns)}


def diffed(parameters: Mapping[str, str]) -> dict[str, str]:
    """The declared parameters a plan compares: Spark's schema copy is kept in step by gluecat, not diffed."""
    return {k: v for k, v in parameters.items() if not is_schema_copy(k)}
