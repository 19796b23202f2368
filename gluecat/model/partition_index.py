"""Glue partition indexes: named lists of partition keys that GetPartitions (and Athena) filter through."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from gluecat.model.base import MAX_NAME_BYTES, Strict, at_most

MAX_INDEXES = 3  # per table (AWS Glue quotas)
# Glue indexes string, numeric and date keys only ("Creating partition indexes", AWS Glue guide).
INDEXABLE_TYPES = ("string", "char", "varchar", "tinyint", "smallint", "int", "bigint", "date")

IndexName = Annotated[str, Field(min_length=1), AfterValidator(at_most(MAX_NAME_BYTES, "the index name"))]


class PartitionIndex(Strict):
    name: IndexName = Field(description="The index name (IndexName)")
    keys: list[str] = Field(
        min_length=1, description="Partition keys the index orders partitions by, in the order given"
    )
