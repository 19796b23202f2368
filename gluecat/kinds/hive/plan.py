"""The Hive-format table diff: the Glue table, its partition indexes and its partitions."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gluecat.changes import impact
from gluecat.changes.fingerprint import fingerprint
from gluecat.changes.impact import Finding, Impact
from gluecat.changes.model import Action, Change, FieldDiff, PartitionChanges, PartitionWrite
from gluecat.convert.hive import hive_table_input as hive_shape
from gluecat.convert.locations import table_location
from gluecat.convert.parameters import managed
from gluecat.convert.partition_index import with_indexes
from gluecat.kinds.base import LiveCatalog
from gluecat.kinds.glue_diff import ABSENT, column_metadata, hive_diffs, merge_table_input, version_of
from gluecat.kinds.hive.impact import hive_findings, storage_of
from gluecat.kinds.hive.index_diff import index_changes
from gluecat.kinds.hive.live_partitions import DeclaredPartitions, LivePartitions
from gluecat.kinds.hive.spark_schema import has_schema_copy, rewritten
from gluecat.model import CatalogConfig, Database, HiveTable
from gluecat.model.partitions import partition_count
from gluecat.project.load import LoadedDatabase, LoadedTable

Shape = dict[str, Any]


def hive_table_input(table: HiveTable, database: Database, ignore: tuple[str, ...]) -> Shape:
    shape: Shape = dict(hive_shape(table, table_location(table, database)))
    shape["Parameters"] = managed(shape["Parameters"], ignore)
    return shape


def hive_changes(
    database: LoadedDatabase,
    table: LoadedTable,
    model: HiveTable,
    live: Shape | None,
    replaced: tuple[str, Finding] | None,
    live_catalog: LiveCatalog,
    ignore: tuple[str, ...],
    prune: bool,
) -> Iterator[Change | PartitionChanges]:
    address = f"{database.name}.{table.name}"
    location = table_location(model, database.model)
    desired = hive_table_input(model, database.model, ignore)
    partitions: LivePartitions | None = None
    follows: tuple[tuple[str, ...], ...] = ()
    created = with_indexes(desired, model.partition_indexes)  # CreateTable makes them with the table
    if live is None:
        yield Change(
            address, "table", Action.CREATE, database.name, table.name, created, live_version=ABSENT, table_kind="hive"
        )
    elif replaced is not None:
        # A view becomes a table: deleted and created, never an update that keeps the view's texts.
        reason, finding = replaced
        yield Change(
            address, "table", Action.REPLACE, database.name, table.name, created,
            (FieldDiff("table_type", live.get("TableType"), desired.get("TableType")),),
            live_version=version_of(live), table_kind="hive", reason=reason, findings=(finding,),
        )  # fmt: skip
    elif _partition_keys(live) != _partition_keys(desired):
        before, after = _keys_text(live), _keys_text(desired)
        yield Change(
            address, "table", Action.REPLACE, database.name, table.name, created,
            (FieldDiff("partition_keys", before, after),),
            live_version=version_of(live), table_kind="hive", reason=f"partition keys change: {before} -> {after}",
            findings=(impact.table_replace(before, after),),
        )  # fmt: skip
    else:
        read = live_catalog.partitions.get((database.name, table.name))
        partitions = read if isinstance(read, LivePartitions) else None
        follow = model.partition_schema == "follow"
        diffs = tuple(hive_diffs(live, desired))
        drift = partitions.drift() if partitions is not None else None
        drift_finding = drift.finding(storage_of(desired), follow) if drift is not None else None
        follows = drift.drifted if follow and drift is not None else ()
        if diffs:
            yield _hive_update(address, database.name, table.name, live, desired, diffs, drift_finding)
        if model.partition_indexes is not None:
            parameters = {**(live.get("Parameters") or {}), **desired["Parameters"]}
            live_indexes = live_catalog.indexes.get((database.name, table.name), [])
            yield from index_changes(database.name, table.name, model.partition_indexes, live_indexes, parameters)
    if location and (model.partitions is not None or follows):
        yield _partition_changes(database.name, table.name, model, desired, location, partitions, prune, follows)


def partition_sink(
    model: HiveTable, database: LoadedDatabase, live: Shape, config: CatalogConfig, replaced: bool
) -> LivePartitions | None:
    """What the table's live partitions are folded into as they are read; None where the plan
    needs none (partition keys change, or `replaced`, a view becoming the table: it is created with
    its declared partitions)."""
    location = table_location(model, database.model)
    desired = hive_table_input(model, database.model, tuple(config.ignore_parameters))
    if _partition_keys(live) != _partition_keys(desired) or replaced:
        return None  # replaced: created with its declared partitions
    declared = None
    if model.partitions is not None and location:
        declared = DeclaredPartitions(model.partitions, tuple(k.name for k in model.partition_keys), location)
    # Drift costs a look at every partition's columns: only for `follow`, or when this plan moves the schema.
    judge = model.partition_schema == "follow" or any(_moves_partition_schema(d) for d in hive_diffs(live, desired))
    if declared is None and not judge:
        return None
    against = (desired["StorageDescriptor"], storage_of(desired)) if judge else None
    columns = declared is not None and declared.declares_columns
    return LivePartitions(declared, against, prune=config.prune, columns=columns)


def _moves_partition_schema(diff: FieldDiff) -> bool:
    return diff.path.startswith(("columns", "serde.")) and not column_metadata(diff.path) and diff.path != "serde.name"


def _hive_update(
    address: str,
    database: str,
    name: str,
    live: Shape,
    desired: Shape,
    diffs: tuple[FieldDiff, ...],
    drift_finding: Finding | None,
) -> Change:
    merged = merge_table_input(live, desired)
    findings = hive_findings(live, merged) or [impact.METADATA_ONLY]
    findings += [drift_finding] if drift_finding else []
    if any(d.path.startswith("columns") for d in diffs) and has_schema_copy(live.get("Parameters") or {}):
        descriptor = merged["StorageDescriptor"]
        merged["Parameters"] = rewritten(merged["Parameters"], descriptor["Columns"], merged.get("PartitionKeys") or [])
        findings.append(
            Finding(
                "spark-schema-copy",
                Impact.SAFE,
                "Spark reads its own copy of the schema (spark.sql.sources.schema.*), not the Glue columns:"
                " it is rewritten from the new columns so Spark sees the change",
            )
        )
    return Change(address, "table", Action.UPDATE, database, name, merged, diffs,
                  live_version=version_of(live), table_kind="hive", findings=tuple(findings))  # fmt: skip


def _partition_changes(
    database: str,
    table: str,
    model: HiveTable,
    desired: Shape,
    location: str,
    live: LivePartitions | None,
    prune: bool,
    follows: tuple[tuple[str, ...], ...],
) -> PartitionChanges:
    keys = tuple(k.name for k in model.partition_keys)
    creates: list[PartitionWrite] = []
    updates: list[PartitionWrite] = []
    if model.partitions is None:  # not declared: live partitions are left alone but for `follow`
        prune = False
    # The generators expand once, here; the live side is what the pages left behind.
    declared = DeclaredPartitions(model.partitions or [], keys, location)
    # Every partition read is a declared one; when as many were found in place as the items can
    # declare at most, none is missing or moved and the generators need no expanding.
    all_in_place = live is not None and not live.moved and len(live.seen) == partition_count(model.partitions or [])
    for values, explicit, own in () if all_in_place else declared:
        if live is None or values not in live.seen:
            creates.append(PartitionWrite(values, declared.location(values, explicit), own=own))
        elif (moved := live.moved.get(values)) is not None:
            wanted = declared.location(values, explicit)
            updates.append(PartitionWrite(values, wanted, moved.live_location, moved.shape, own))
    deletes = tuple(sorted(live.undeclared)) if prune and live is not None else ()
    fingerprints = {w.values: fingerprint(w.live) for w in updates if w.live is not None}
    if live is not None:
        fingerprints.update((v, _known(live.undeclared[v])) for v in deletes)
    storage = {k: v for k, v in desired["StorageDescriptor"].items() if k != "Location"}
    return PartitionChanges(
        database, table, keys, storage, tuple(creates), tuple(updates), deletes,
        live_fingerprints=tuple(fingerprints.items()),
        follows=follows,  # a moved partition is moved first, then brought in step
        left_alone=live.left_alone if live is not None and model.partitions is not None else 0,
        left_alone_first=tuple(live.left_alone_first) if live is not None and model.partitions is not None else (),
    )  # fmt: skip


def _known(digest: str | None) -> str:
    assert digest is not None, "read_live completes every partition read without its columns"
    return digest


def _partition_keys(table: Shape) -> list[tuple[str, str]]:
    return [(c["Name"].lower(), c.get("Type", "")) for c in table.get("PartitionKeys") or []]


def _keys_text(table: Shape) -> str:
    return ", ".join(f"{n} {t}" for n, t in _partition_keys(table)) or "(none)"
