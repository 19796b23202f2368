"""A Hive table's file from its live entry (`import`): Glue holds it whole, and its partitions, read
page by page, are folded into the generator syntax as each page arrives."""

from __future__ import annotations

from typing import Any

from gluecat.backends.base import Catalog
from gluecat.convert.hive import hive_table_from_glue
from gluecat.convert.parameters import managed
from gluecat.convert.partition_index import indexes_from_glue
from gluecat.convert.partitions import OwnReader
from gluecat.kinds.base import AdoptContext, Shape, typed_columns
from gluecat.kinds.hive.partition_fold import PartitionFolder
from gluecat.model.base import model_data

EXPECTED_PARTITIONS = 10_000  # unknown before reading: enough parallel segments for a large table


def hive_data(live: Shape, context: AdoptContext) -> Shape:
    typed_columns(live)
    database = context.database.name
    table = hive_table_from_glue(live)
    # Only a partitioned table can hold indexes; one without any leaves the key out (and unmanaged).
    indexes = (
        indexes_from_glue(context.connection.catalog.partition_indexes(database, live["Name"]))
        if table.partition_keys
        else []
    )
    table = table.model_copy(
        update={
            "parameters": managed(table.parameters, context.ignore),
            "storage_parameters": managed(table.storage_parameters, context.ignore),
            "partition_indexes": indexes or None,
        }
    )
    data = model_data(table)
    if table.table_type is None:  # Glue holds none: say so, or the default would add one
        data["table_type"] = None
    if context.partitions and table.partition_keys and not _projected(data):
        keys = [k.name for k in table.partition_keys]
        data["partitions"] = _partitions(context.connection.catalog, database, live, keys, context.ignore)
    if context.partitions and _projected(data):
        context.notes.append(
            "left `partitions` out: the table uses partition projection, so Athena ignores registered"
            " partitions, and a `partitions` list under `prune: true` would delete those added later"
        )
    return data


def _projected(data: dict[str, Any]) -> bool:
    projection = data.get("projection")
    return isinstance(projection, dict) and projection.get("enabled", True) is not False


def _partitions(
    catalog: Catalog, database: str, live: Shape, keys: list[str], ignore: tuple[str, ...]
) -> list[dict[str, Any]]:
    """Read page by page and folded as each page arrives, then dropped."""
    template = live.get("StorageDescriptor") or {}
    folder = PartitionFolder(keys, template.get("Location"))
    own_of = OwnReader(template, ignore)

    def fold(page: list[Shape]) -> None:
        locations = [(p.get("StorageDescriptor") or {}).get("Location", "") for p in page]
        folder.add([p["Values"] for p in page], locations, [own_of(p) for p in page])

    catalog.each_partition_page(database, live["Name"], EXPECTED_PARTITIONS, fold)
    return folder.items()
