"""Partition indexes <-> Glue's shapes: CreateTable's `PartitionIndexes`, GetPartitionIndexes' descriptors."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gluecat.model.partition_index import PartitionIndex

Shape = dict[str, Any]


def index_input(index: PartitionIndex) -> Shape:
    """A PartitionIndex as CreateTable and CreatePartitionIndex take it."""
    return {"IndexName": index.name, "Keys": list(index.keys)}


def index_from_glue(descriptor: Mapping[str, Any]) -> PartitionIndex:
    """A GetPartitionIndexes descriptor (keys as {Name, Type}) as the YAML declares it."""
    return PartitionIndex(name=descriptor["IndexName"], keys=[key["Name"] for key in descriptor.get("Keys") or []])


def indexes_from_glue(descriptors: Iterable[Mapping[str, Any]]) -> list[PartitionIndex]:
    """What a table holds, in name order; an index on its way out (DELETING) no longer counts."""
    kept = [d for d in descriptors if d.get("IndexStatus") != "DELETING"]
    return sorted((index_from_glue(d) for d in kept), key=lambda index: index.name)


# A table to create carries its indexes next to its TableInput: CreateTable takes both.
CREATE_KEY = "PartitionIndexes"


def with_indexes(table_input: Shape, indexes: Iterable[PartitionIndex] | None) -> Shape:
    listed = [index_input(index) for index in indexes or ()]
    return {**table_input, CREATE_KEY: listed} if listed else table_input


def split_indexes(desired: Mapping[str, Any]) -> tuple[Shape, list[Shape]]:
    """(the TableInput, the indexes CreateTable creates with it)."""
    table_input = {k: v for k, v in desired.items() if k != CREATE_KEY}
    return table_input, list(desired.get(CREATE_KEY) or [])
