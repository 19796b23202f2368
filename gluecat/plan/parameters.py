"""Which parameters gluecat owns, which engines own, and which values are secret."""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping

from gluecat.redact import MASK as MASK
from gluecat.redact import is_secret_key

# Keys that engines, crawlers and statistics jobs write: never diffed, never written.
ENGINE_OWNED = (
    "metadata_location",
    "previous_metadata_location",
    "transient_lastDdlTime",
    "last_modified_by",
    "last_modified_time",
    "spark.sql.statistics.*",
    "spark.sql.create.version",
    "spark.sql.sources.schema*",
    "numFiles",
    "numFilesErasureCoded",
    "numRows",
    "rawDataSize",
    "totalSize",
    "COLUMN_STATS_ACCURATE",
    "UPDATED_BY_CRAWLER",
    "CrawlerSchemaDeserializerVersion",
    "CrawlerSchemaSerializerVersion",
    "averageRecordSize",
    "objectCount",
    "recordCount",
    "sizeKey",
    "compressionType",
    "typeOfData",
)


def is_engine_owned(key: str, ignore: Iterable[str] = ()) -> bool:
    return any(fnmatch.fnmatchcase(key, pattern) for pattern in (*ENGINE_OWNED, *ignore))


def managed(parameters: Mapping[str, str], ignore: Iterable[str] = ()) -> dict[str, str]:
    """The declared parameters gluecat may write: engine-owned keys dropped."""
    patterns = tuple(ignore)
    return {k: v for k, v in parameters.items() if not is_engine_owned(k, patterns)}


def is_secret(key: str) -> bool:
    return is_secret_key(key)
