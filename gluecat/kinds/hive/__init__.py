"""Hive-format tables (`format: hive`): Glue holds the table whole — columns, storage, partition
keys, partitions, projection, partition indexes."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from gluecat.changes.impact import kind_change
from gluecat.changes.model import Action, Change, PartitionChanges
from gluecat.kinds.base import AdoptContext, Kind, PartitionSink, PlanContext, Reads, Rule, Writer, allowing
from gluecat.kinds.hive import rules
from gluecat.kinds.hive.meaning import hive_meaning
from gluecat.kinds.hive.plan import hive_changes, hive_table_input, partition_sink
from gluecat.model import CatalogConfig, Database, HiveTable
from gluecat.model.partitions import partition_count
from gluecat.model.table import Table
from gluecat.project import checks
from gluecat.project.load import LoadedDatabase, LoadedTable

Shape = dict[str, Any]


class HiveKind:
    format = "hive"
    model = HiveTable
    spark_catalog: str | None = "hive"
    evolves = True
    noun = "a table"
    view = False

    def claims(self, live: Shape) -> bool:
        return True  # a Glue or metastore table no other kind claims: asked last

    def writer(self, action: Action, desired: Mapping[str, object] | None) -> Writer:
        return Writer.CATALOG

    def table_input(self, table: HiveTable, database: Database, ignore: tuple[str, ...]) -> Shape:
        return hive_table_input(table, database, ignore)

    def reads(self, table: HiveTable, database: LoadedDatabase, config: CatalogConfig) -> Reads:
        return Reads(
            partitions=table.partitions is not None or table.partition_schema == "follow",
            expected_partitions=partition_count(table.partitions or []),
            partition_indexes=table.partition_indexes is not None,
        )

    def sink(
        self, table: HiveTable, database: LoadedDatabase, live: Shape, config: CatalogConfig, was: Kind[Any]
    ) -> PartitionSink | None:
        return partition_sink(table, database, live, config, kind_change(live, was, self) is not None)

    def changes(
        self, table: HiveTable, loaded: LoadedTable, database: LoadedDatabase, context: PlanContext
    ) -> Iterator[Change | PartitionChanges]:
        live = context.live_table(database.name, loaded.name)
        replaced = kind_change(live, context.recognise(live), self) if live is not None else None
        changes = hive_changes(
            database, loaded, table, live, replaced, context.live, context.ignore, context.config.prune
        )
        for change in changes:
            if isinstance(change, Change):
                yield allowing(change, table)
            elif change.count or change.left_alone:
                yield change

    def rules(self) -> tuple[Rule, ...]:
        return (
            checks.table_name, checks.column_names, rules.partition_key_names,
            checks.duplicate_columns, rules.partition_key_is_column, rules.duplicate_partition_keys,
            rules.duplicate_partitions, checks.location, rules.partition_values, rules.hive_location,
            rules.opencsv_types, rules.trino, rules.projection, rules.partition_indexes,
        )  # fmt: skip

    def engine_features(self, table: HiveTable) -> frozenset[str]:
        projected = table.projection is not None and table.projection.enabled
        return frozenset({"projection"}) if projected else frozenset()

    def meaning(
        self, table: HiveTable, database: Database, warehouse: str | None, ignore: tuple[str, ...], partitions: bool
    ) -> dict[str, Any]:
        return hive_meaning(table, database, ignore, partitions)

    def adopt(self, live: Shape, context: AdoptContext) -> Shape:
        from gluecat.kinds.hive.adopt import hive_data  # import's own: loaded when it runs

        return hive_data(live, context)


def hive_model(table: Table) -> HiveTable | None:
    """The table, when Spark DDL can describe it (Iceberg, Delta and views are left to their catalogs)."""
    return table if isinstance(table, HiveTable) else None


HIVE = HiveKind()
