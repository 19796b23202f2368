"""The pure diff: loaded project + live catalog -> Plan. No I/O here."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from gluecat.changes import impact
from gluecat.changes.fingerprint import fingerprint
from gluecat.changes.impact import Finding, Impact
from gluecat.changes.model import Action, Change, FieldDiff, PartitionChanges, PartitionWrite, Plan
from gluecat.convert.database import database_input
from gluecat.convert.extra import STORAGE_KEYS, TABLE_KEYS, VIEW_STORAGE_KEYS, declared_extra
from gluecat.convert.locations import lake_location, table_location
from gluecat.convert.parameters import diffed, managed
from gluecat.convert.partition_index import with_indexes
from gluecat.convert.shapes import DATABASE_INPUT_KEYS, TABLE_INPUT_KEYS
from gluecat.convert.table import desired_table_input
from gluecat.errors import PlanError
from gluecat.formats.spark_schema import has_schema_copy, rewritten
from gluecat.model import DeltaTable, HiveTable, IcebergTable, RegistrationTable, ViewTable
from gluecat.model.hivetype import same_type
from gluecat.plan.hive_impact import hive_findings, storage_of
from gluecat.plan.index_diff import index_changes
from gluecat.plan.live import LiveCatalog
from gluecat.plan.live_partitions import DeclaredPartitions, LivePartitions, slashless
from gluecat.plan.projection_diff import declares_projection, projection_diffs, unowned
from gluecat.plan.view_diff import view_owned_free, view_text_diffs
from gluecat.project.load import LoadedDatabase, LoadedTable, Project
from gluecat.project.targets import Targets

if TYPE_CHECKING:  # pyiceberg and deltalake load only for plans that hold such tables (~0.5 s)
    from pyiceberg.table.metadata import TableMetadata

    from gluecat.backends.delta import DeltaLog

Shape = dict[str, Any]
ABSENT = "absent"


def build_plan(project: Project, live: LiveCatalog, targets: Targets) -> Plan:
    changes: list[Change] = []
    partitions: list[PartitionChanges] = []
    refusals: list[str] = []
    undeclared: list[str] = []
    ignore = tuple(project.config.ignore_parameters)
    prune = project.config.prune
    for database in project.databases:
        if not targets.touches(database.name):
            continue
        live_db = live.databases.get(database.name)
        if targets.database(database.name) or live_db is None:  # a targeted table needs its database
            change = _database_change(database, live_db, ignore)
            if change:
                changes.append(change)
        live_tables = live.tables.get(database.name, {}) if live_db else {}
        for table in database.tables:
            if not targets.table(database.name, table.name):
                continue
            allow = table.model.allow_breaking
            if isinstance(table.model, IcebergTable):
                key = (database.name, table.name)
                live_table = live_tables.get(table.name)
                warehouse = project.config.warehouse
                orphan = live.iceberg_orphans.get(key)
                if live_table is None and orphan:
                    changes.append(_allowing(_iceberg_register(database, table.model, *orphan, refusals), allow))
                    continue
                iceberg = _iceberg_change(database, table.model, live_table, live.iceberg.get(key), warehouse, refusals)
                changes.extend([_allowing(iceberg, allow)] if iceberg else [])
                continue
            if isinstance(table.model, RegistrationTable):
                if table.name not in live_tables:
                    changes.append(_registration_create(database.name, table.name, table.model))
                continue
            if isinstance(table.model, ViewTable):
                view = _view_change(database, table.model, live_tables.get(table.name), ignore)
                changes.extend([_allowing(view, allow)] if view else [])
                continue
            if isinstance(table.model, DeltaTable):
                log = live.delta.get((database.name, table.name))
                delta = _delta_change(database, table.model, live_tables.get(table.name), log, ignore, refusals)
                changes.extend([_allowing(delta, allow)] if delta else [])
                continue
            table_changes = list(
                _table_changes(database, table, table.model, live_tables.get(table.name), live, ignore, prune)
            )
            changes.extend(_allowing(c, allow) for c in table_changes if isinstance(c, Change))
            partitions.extend(p for p in table_changes if isinstance(p, PartitionChanges) and p.count)
        if live_db and targets.database(database.name):
            declared = {t.name for t in database.tables}
            unlisted = sorted(name for name in live_tables if name not in declared)
            if project.config.prune:
                changes.extend(_delete_table(database.name, name, live_tables[name]) for name in unlisted)
            else:
                undeclared.extend(f"{database.name}.{name}" for name in unlisted)
    if refusals:
        raise PlanError("the plan holds changes that cannot be made safely:\n  " + "\n  ".join(refusals))
    plan = Plan(str(project.root), tuple(changes), tuple(partitions), targets=targets.texts())
    if not undeclared:
        return plan
    return dataclasses.replace(plan, notes=(_undeclared_note(undeclared),), undeclared=tuple(undeclared))


def _undeclared_note(names: list[str]) -> str:
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    return (
        f"{len(names)} live table{'s' if len(names) != 1 else ''} not in the YAML, left alone (prune is off):"
        f" {shown}; `gluecat import` writes them, `prune: true` would delete them"
    )


def _allowing(change: Change, reason: str | None) -> Change:
    return dataclasses.replace(change, allow_breaking=reason) if reason else change


# views


def _view_change(
    database: LoadedDatabase, model: ViewTable, live: Shape | None, ignore: tuple[str, ...]
) -> Change | None:
    assert model.name is not None
    address = f"{database.name}.{model.name}"
    desired = desired_table_input(model, database.model, ignore)
    assert desired is not None
    if live is None:
        return Change(address, "table", Action.CREATE, database.name, model.name, desired, live_version=ABSENT)
    pairs = {"table_type": (live.get("TableType"), "VIRTUAL_VIEW")}
    if model.description is not None and model.dialect != "athena":  # an Athena view's is in its JSON
        pairs["description"] = (live.get("Description"), model.description)
    live_columns = (live.get("StorageDescriptor") or {}).get("Columns") or []
    diffs = [
        *_scalar_diffs(pairs),
        *view_text_diffs(model, database.name, live),
        *column_diffs(live_columns, desired["StorageDescriptor"]["Columns"]),
        *_parameter_diffs(
            "parameters", live.get("Parameters") or {}, diffed(view_owned_free(model, desired["Parameters"]))
        ),
        *_extra_diffs(live, desired, VIEW_STORAGE_KEYS),
    ]
    if not diffs:
        return None
    merged = _carry_over(live, TABLE_INPUT_KEYS, desired)
    merged.update({k: v for k, v in desired.items() if k not in ("Parameters", "StorageDescriptor")})
    if model.dialect == "athena":
        merged.pop("Description", None)
    live_sd = dict(live.get("StorageDescriptor") or {})
    live_sd["Columns"] = _merge_columns(live_columns, desired["StorageDescriptor"]["Columns"])
    live_sd.update({k: v for k, v in desired["StorageDescriptor"].items() if k in VIEW_STORAGE_KEYS})
    merged["StorageDescriptor"] = live_sd
    findings = [
        *impact.view_definition(d.path for d in diffs if d.path in impact.VIEW_DEFINITION),
        *impact.view_columns(_column_name(d.path) for d in diffs if _is_column_shape(d)),
    ] or [impact.METADATA_ONLY]
    return Change(address, "table", Action.UPDATE, database.name, model.name, merged, tuple(diffs),
                  live_version=version_of(live), findings=tuple(findings))  # fmt: skip


def _column_name(path: str) -> str:
    return path.removeprefix("columns.").removesuffix(".type").removeprefix("columns ")


def _is_column_shape(diff: FieldDiff) -> bool:
    """Column added, dropped, retyped or moved (not a comment or a column parameter)."""
    return diff.path.startswith("columns") and not _column_metadata(diff.path)


def _column_metadata(path: str) -> bool:
    return path.endswith(".comment") or ".parameters." in path


def _dropped_columns(diffs: Iterable[FieldDiff]) -> list[str]:
    suffixes = (".comment", ".required", ".type")
    return [
        d.path.removeprefix("columns.")
        for d in diffs
        if d.path.startswith("columns.") and d.after is None and d.before is not None and not d.path.endswith(suffixes)
    ]


# registrations and re-registrations


def _registration_create(database: str, name: str, model: RegistrationTable) -> Change:
    """A registration is created exactly as carried, and never changed once Glue holds it."""
    desired = {**model.table_input, "Name": name}
    return Change(f"{database}.{name}", "table", Action.CREATE, database, name, desired, live_version=ABSENT,
                  format="registration", reason="carried verbatim from `table_input`")  # fmt: skip


def _iceberg_register(
    database: LoadedDatabase, model: IcebergTable, metadata_location: str, metadata: TableMetadata, refusals: list[str]
) -> Change:
    """Glue lost the entry, the location kept the table: register it, then commit what the YAML adds."""
    from gluecat.formats.iceberg_diff import diff_iceberg  # pyiceberg loads only when a plan needs it

    assert model.name is not None
    result = diff_iceberg(model, metadata)
    refusals.extend(f"{database.name}.{model.name}: {reason}" for reason in result.refusals)
    desired = {"metadata_location": metadata_location, "ops": result.ops}
    return Change(
        f"{database.name}.{model.name}", "table", Action.REGISTER, database.name, model.name, desired,
        tuple(result.diffs), live_version=ABSENT, format="iceberg", drops=result.destructive,
        reason=f"registers the Iceberg table its location holds ({metadata_location}); its rows stay",
        findings=tuple(impact.lake_column_drops("iceberg", _dropped_columns(result.diffs))),
    )  # fmt: skip


# delta


def _delta_change(
    database: LoadedDatabase,
    model: DeltaTable,
    live: Shape | None,
    log: DeltaLog | None,
    ignore: tuple[str, ...],
    refusals: list[str],
) -> Change | None:
    from gluecat.formats.delta_diff import creation_spec, diff_delta, log_matches

    assert model.name is not None and model.location is not None  # lint requires the location
    address = f"{database.name}.{model.name}"
    glue = desired_table_input(model, database.model, ignore)
    assert glue is not None
    if log is None:
        if live is not None:
            refusals.append(f"{address}: registered in Glue, but there is no Delta log at {model.location}")
            return None
        desired = {"location": model.location, "delta": {"create": creation_spec(model)}, "glue": glue}
        return Change(address, "table", Action.CREATE, database.name, model.name, desired,
                      live_version=ABSENT, format="delta")  # fmt: skip
    if live is None:
        mismatches = log_matches(model, log)
        if mismatches:
            refusals.append(f"{address}: the Delta log at {model.location} differs from the YAML and is never"
                            " overwritten: " + "; ".join(mismatches))  # fmt: skip
            return None
        desired = {"location": model.location, "delta": {}, "glue": glue}
        return Change(address, "table", Action.CREATE, database.name, model.name, desired, live_version=ABSENT,
                      format="delta", reason="registers the existing Delta log")  # fmt: skip
    result = diff_delta(model, log)
    refusals.extend(f"{address}: {reason}" for reason in result.refusals)
    # The log holds the description; the Glue copy follows it on the next write, never forces one.
    shown = {d.path for d in result.diffs} | {"description"}
    glue_diffs = [d for d in _hive_diffs(live, glue) if d.path not in shown]
    if not result.ops and not glue_diffs:
        return None
    desired = {"location": model.location, "delta": result.ops, "glue": merge_table_input(live, glue)}
    findings = impact.lake_column_drops("delta", _dropped_columns(result.diffs))
    return Change(address, "table", Action.UPDATE, database.name, model.name, desired,
                  (*result.diffs, *glue_diffs), live_version=version_of(live), format="delta",
                  findings=tuple(findings))  # fmt: skip


# iceberg


def _iceberg_change(
    database: LoadedDatabase,
    model: IcebergTable,
    live: Shape | None,
    metadata: TableMetadata | None,
    warehouse: str | None,
    refusals: list[str],
) -> Change | None:
    from gluecat.backends.iceberg_meta import fingerprint as iceberg_fingerprint
    from gluecat.formats.iceberg_diff import creation_ops, desired_properties, diff_iceberg

    assert model.name is not None
    address = f"{database.name}.{model.name}"
    location = lake_location(model, database.model, warehouse)
    if live is None:
        if location is None:
            refusals.append(f"{address}: no location: set `location`, the catalog's `warehouse` or the database's")
            return None
        desired = {
            "location": location,
            "columns": [c.model_dump() for c in model.columns],
            "properties": {k: v for k, v in desired_properties(model).items() if v is not None},
            "ops": creation_ops(model),
        }
        return Change(address, "table", Action.CREATE, database.name, model.name, desired,
                      live_version=ABSENT, format="iceberg")  # fmt: skip
    if metadata is None:
        refusals.append(f"{address}: exists in Glue but is not an Iceberg table; gluecat will not convert it")
        return None
    if model.location and slashless(model.location) != slashless(metadata.location):
        refusals.append(f"{address}: an Iceberg table cannot move ({metadata.location} -> {model.location})")
    result = diff_iceberg(model, metadata)
    refusals.extend(f"{address}: {reason}" for reason in result.refusals)
    if not result.ops:
        return None
    return Change(
        address, "table", Action.UPDATE, database.name, model.name, {"ops": result.ops}, tuple(result.diffs),
        live_version=iceberg_fingerprint(metadata), format="iceberg", drops=result.destructive,
        findings=tuple(impact.lake_column_drops("iceberg", _dropped_columns(result.diffs))),
    )  # fmt: skip


# databases


def _database_change(database: LoadedDatabase, live: Shape | None, ignore: tuple[str, ...]) -> Change | None:
    desired: Shape = dict(database_input(database.model))
    desired["Parameters"] = managed(database.model.parameters, ignore)
    if live is None:
        return Change(
            database.name,
            "database",
            Action.CREATE,
            database.name,
            None,
            desired,
            live_version=ABSENT,
        )
    diffs = list(_scalar_diffs({"description": (live.get("Description"), desired.get("Description"))}))
    diffs += _scalar_diffs({"location": (live.get("LocationUri"), desired.get("LocationUri"))})
    diffs += _parameter_diffs("parameters", live.get("Parameters") or {}, desired["Parameters"])
    if not diffs:
        return None
    merged = _carry_over(live, DATABASE_INPUT_KEYS, desired)
    merged.update({k: v for k, v in desired.items() if k != "Parameters"})
    return Change(
        database.name,
        "database",
        Action.UPDATE,
        database.name,
        None,
        merged,
        tuple(diffs),
        fingerprint(live),
    )


# tables


def _table_changes(
    database: LoadedDatabase,
    table: LoadedTable,
    model: HiveTable,
    live: Shape | None,
    live_catalog: LiveCatalog,
    ignore: tuple[str, ...],
    prune: bool,
) -> Iterator[Change | PartitionChanges]:
    address = f"{database.name}.{table.name}"
    location = table_location(model, database.model)
    desired = desired_table_input(model, database.model, ignore)
    assert desired is not None
    partitions: LivePartitions | None = None
    follows: tuple[tuple[str, ...], ...] = ()
    created = with_indexes(desired, model.partition_indexes)  # CreateTable makes them with the table
    if live is None:
        yield Change(address, "table", Action.CREATE, database.name, table.name, created, live_version=ABSENT)
    elif _partition_keys(live) != _partition_keys(desired):
        before, after = _keys_text(live), _keys_text(desired)
        yield Change(
            address, "table", Action.REPLACE, database.name, table.name, created,
            (FieldDiff("partition_keys", before, after),),
            live_version=version_of(live), reason=f"partition keys change: {before} -> {after}",
            findings=(impact.table_replace(before, after),),
        )  # fmt: skip
    else:
        read = live_catalog.partitions.get((database.name, table.name))
        partitions = read if isinstance(read, LivePartitions) else None
        follow = model.partition_schema == "follow"
        diffs = tuple(_hive_diffs(live, desired))
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


def live_partitions_for(project: Project) -> Callable[[LoadedDatabase, LoadedTable, Shape], LivePartitions | None]:
    """What each table's live partitions are folded into as they are read; None where the plan
    needs none (partition keys change: the table is replaced with its declared partitions)."""
    ignore = tuple(project.config.ignore_parameters)

    def fold_for(database: LoadedDatabase, table: LoadedTable, live: Shape) -> LivePartitions | None:
        model = table.model
        assert isinstance(model, HiveTable)
        location = table_location(model, database.model)
        desired = desired_table_input(model, database.model, ignore)
        assert desired is not None
        if _partition_keys(live) != _partition_keys(desired):
            return None
        declared = None
        if model.partitions is not None and location:
            declared = DeclaredPartitions(model.partitions, tuple(k.name for k in model.partition_keys), location)
        # Drift costs a look at every partition's columns: only for `follow`, or when this plan moves the schema.
        judge = model.partition_schema == "follow" or any(
            _moves_partition_schema(d) for d in _hive_diffs(live, desired)
        )
        if declared is None and not judge:
            return None
        against = (desired["StorageDescriptor"], storage_of(desired)) if judge else None
        columns = declared is not None and declared.declares_columns
        return LivePartitions(declared, against, prune=project.config.prune, columns=columns)

    return fold_for


def _moves_partition_schema(diff: FieldDiff) -> bool:
    return diff.path.startswith(("columns", "serde.")) and not _column_metadata(diff.path) and diff.path != "serde.name"


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
                  live_version=version_of(live), findings=tuple(findings))  # fmt: skip


def _delete_table(database: str, name: str, live: Shape) -> Change:
    return Change(
        f"{database}.{name}", "table", Action.DELETE, database, name, None,
        live_version=version_of(live), reason="not declared in YAML (prune: true)",
        findings=(impact.table_delete(f"{database}.{name}"),),
    )  # fmt: skip


def _hive_diffs(live: Shape, desired: Shape) -> Iterator[FieldDiff]:
    live_sd, want_sd = live.get("StorageDescriptor") or {}, desired["StorageDescriptor"]
    live_serde, want_serde = live_sd.get("SerdeInfo") or {}, want_sd["SerdeInfo"]
    scalars = {
        "table_type": (live.get("TableType"), desired.get("TableType")),
        "location": (slashless(live_sd.get("Location")), slashless(want_sd.get("Location"))),
        "input_format": (live_sd.get("InputFormat"), want_sd.get("InputFormat")),
        "output_format": (live_sd.get("OutputFormat"), want_sd.get("OutputFormat")),
        "serde.library": (
            live_serde.get("SerializationLibrary"),
            want_serde.get("SerializationLibrary"),
        ),
    }
    if "Description" in desired:
        scalars["description"] = (live.get("Description"), desired["Description"])
    if "Name" in want_serde:
        scalars["serde.name"] = (live_serde.get("Name"), want_serde["Name"])
    yield from _scalar_diffs(scalars)
    yield from _parameter_diffs(
        "serde.parameters", live_serde.get("Parameters") or {}, want_serde.get("Parameters") or {}
    )
    yield from _parameter_diffs(
        "storage_parameters", live_sd.get("Parameters") or {}, diffed(want_sd.get("Parameters") or {})
    )
    yield from column_diffs(live_sd.get("Columns") or [], want_sd.get("Columns") or [])
    live_parameters, want_parameters = live.get("Parameters") or {}, desired["Parameters"]
    if declares_projection(want_parameters):
        yield from projection_diffs(live_parameters, want_parameters)
        want_parameters = unowned(want_parameters)
    yield from _parameter_diffs("parameters", live_parameters, diffed(want_parameters))
    yield from _extra_diffs(live, desired)


def _extra_diffs(live: Shape, desired: Shape, storage_keys: tuple[str, ...] = STORAGE_KEYS) -> Iterator[FieldDiff]:
    for path, keys in declared_extra(desired, storage_keys):
        have: Any = live
        want: Any = desired
        for key in keys:
            have = (have or {}).get(key)
            want = want[key]
        if have != want:
            yield FieldDiff(path, have, want)


def column_diffs(live: Iterable[Mapping[str, Any]], desired: Iterable[Mapping[str, Any]]) -> Iterator[FieldDiff]:
    # Glue folds top-level column names to lowercase: `eventVersion` in YAML is `eventversion` live.
    live_by_name = {c["Name"].lower(): c for c in live}
    want_by_name = {c["Name"].lower(): c for c in desired}
    for name, want in want_by_name.items():
        have = live_by_name.get(name)
        if have is None:
            yield FieldDiff(f"columns.{name}", None, want["Type"])
            continue
        if not same_type(have.get("Type", ""), want["Type"]):
            yield FieldDiff(f"columns.{name}.type", have.get("Type"), want["Type"])
        if "Comment" in want and have.get("Comment") != want["Comment"]:
            yield FieldDiff(f"columns.{name}.comment", have.get("Comment"), want["Comment"])
        for key, value in sorted((want.get("Parameters") or {}).items()):
            if (have.get("Parameters") or {}).get(key) != value:
                yield FieldDiff(f"columns.{name}.parameters.{key}", (have.get("Parameters") or {}).get(key), value)
    for name, have in live_by_name.items():
        if name not in want_by_name:
            yield FieldDiff(f"columns.{name}", have.get("Type"), None)
    shared_live = [n for n in live_by_name if n in want_by_name]
    shared_want = [n for n in want_by_name if n in live_by_name]
    if shared_live != shared_want:
        yield FieldDiff("columns (order)", ", ".join(shared_live), ", ".join(shared_want))


def merge_table_input(live: Shape, desired: Shape) -> Shape:
    """Live table with the declared fields laid over it: what the model does not cover stays."""
    merged = _carry_over(live, TABLE_INPUT_KEYS, desired)
    if declares_projection(desired["Parameters"]):
        merged["Parameters"] = {**unowned(live.get("Parameters") or {}), **diffed(desired["Parameters"])}
    for key in ("Name", "Description", "TableType", "PartitionKeys"):
        if key in desired:
            merged[key] = desired[key]
    live_sd, want_sd = dict(live.get("StorageDescriptor") or {}), desired["StorageDescriptor"]
    live_serde = dict(live_sd.get("SerdeInfo") or {})
    live_serde["SerializationLibrary"] = want_sd["SerdeInfo"]["SerializationLibrary"]
    live_serde["Parameters"] = {
        **(live_serde.get("Parameters") or {}),
        **want_sd["SerdeInfo"]["Parameters"],
    }
    if "Name" in want_sd["SerdeInfo"]:
        live_serde["Name"] = want_sd["SerdeInfo"]["Name"]
    live_sd.update(
        Columns=_merge_columns(live_sd.get("Columns") or [], want_sd["Columns"]),
        InputFormat=want_sd["InputFormat"],
        OutputFormat=want_sd["OutputFormat"],
        SerdeInfo=live_serde,
    )
    storage_parameters = {**(live_sd.get("Parameters") or {}), **diffed(want_sd.get("Parameters") or {})}
    if storage_parameters:
        live_sd["Parameters"] = storage_parameters
    if "Location" in want_sd:
        live_sd["Location"] = want_sd["Location"]
    live_sd.update({k: want_sd[k] for k in STORAGE_KEYS if k in want_sd})
    merged.update({k: desired[k] for k in TABLE_KEYS if k in desired})
    merged["StorageDescriptor"] = live_sd
    return merged


def _carry_over(live: Shape, input_keys: tuple[str, ...], desired: Shape) -> Shape:
    """The live object as an *Input shape, with the declared parameters laid over the live ones."""
    merged = {k: live[k] for k in input_keys if k in live}
    # Spark's schema copy: the live one wins on update (gluecat rewrites it when columns change).
    merged["Parameters"] = {**(live.get("Parameters") or {}), **diffed(desired["Parameters"])}
    return merged


def _merge_columns(live: list[Shape], desired: list[Shape]) -> list[Shape]:
    """Declared columns, keeping what Glue holds beyond name/type (a live comment, parameters)."""
    live_by_name = {c["Name"].lower(): c for c in live}
    return [{**live_by_name.get(c["Name"].lower(), {}), **c} for c in desired]


# partitions


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
    for values, explicit, own in declared:
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
        live_fingerprints=fingerprints,
        follows=follows,  # a moved partition is moved first, then brought in step
    )  # fmt: skip


def _known(digest: str | None) -> str:
    assert digest is not None, "read_live completes every partition read without its columns"
    return digest


# helpers


def _scalar_diffs(pairs: Mapping[str, tuple[Any, Any]]) -> Iterator[FieldDiff]:
    for path, (before, after) in pairs.items():
        if (before or None) != (after or None):
            yield FieldDiff(path, before, after)


def _parameter_diffs(prefix: str, live: Mapping[str, str], desired: Mapping[str, str]) -> Iterator[FieldDiff]:
    """Only declared keys are compared: live keys the YAML does not name are kept, not diffed."""
    for key, value in sorted(desired.items()):
        if live.get(key) != value:
            yield FieldDiff(f"{prefix}.{key}", live.get(key), value)


def _partition_keys(table: Shape) -> list[tuple[str, str]]:
    return [(c["Name"].lower(), c.get("Type", "")) for c in table.get("PartitionKeys") or []]


def _keys_text(table: Shape) -> str:
    return ", ".join(f"{n} {t}" for n, t in _partition_keys(table)) or "(none)"


def version_of(live: Shape) -> str:
    version = live.get("VersionId")
    return str(version) if version is not None else fingerprint(live)
