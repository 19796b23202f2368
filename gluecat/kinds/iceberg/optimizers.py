"""An Iceberg table's Glue optimizers, diffed by type: each create, update or delete is its own change.

Compared by meaning, never by text: a value the YAML leaves out equals Glue's documented
default (binpack, 100 input files, 1 delete, every 24 hours, orphans kept 3 days, the
table's own location for orphans), so an optimizer made by the console with the defaults
written out plans clean, and so does one gluecat just applied. Only tables whose file has
`optimizers:` get here; under it, a type left out is deleted.

Impact: an optimizer holds no data, so no change to one is destructive (apply brings a
deleted one back). Snapshot retention is breaking when it starts or tightens: Glue then
expires snapshots, and time travel or a rollback to them stops working.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from typing import Any

from gluecat.changes.impact import Finding, Impact
from gluecat.changes.model import Action, Change, FieldDiff, Kind
from gluecat.changes.payloads import OptimizerWrite
from gluecat.convert.locations import slashless
from gluecat.kinds.glue_diff import ABSENT
from gluecat.model.optimizers import OPTIMIZER_TYPES, Optimizers, OptimizerType

KIND: Kind = "optimizer"
Shape = dict[str, Any]

SECTIONS: dict[str, str] = {
    "compaction": "compactionConfiguration",
    "retention": "retentionConfiguration",
    "orphan_file_deletion": "orphanFileDeletionConfiguration",
}
# YAML name -> the Iceberg configuration's field, per type.
FIELDS: dict[str, dict[str, str]] = {
    "compaction": {
        "strategy": "strategy",
        "min_input_files": "minInputFiles",
        "delete_file_threshold": "deleteFileThreshold",
    },
    "retention": {
        "snapshot_retention_days": "snapshotRetentionPeriodInDays",
        "snapshots_to_retain": "numberOfSnapshotsToRetain",
        "clean_expired_files": "cleanExpiredFiles",
        "run_rate_hours": "runRateInHours",
    },
    "orphan_file_deletion": {
        "retention_days": "orphanFileRetentionPeriodInDays",
        "location": "location",
        "run_rate_hours": "runRateInHours",
    },
}
# Glue's documented defaults for a value left out (the retention ones follow the table's properties).
DEFAULTS: dict[str, dict[str, Any]] = {
    "compaction": {"strategy": "binpack", "min_input_files": 100, "delete_file_threshold": 1},
    "retention": {"run_rate_hours": 24},
    "orphan_file_deletion": {"retention_days": 3, "run_rate_hours": 24},
}
_REMOVED = {
    "compaction": "small files are no longer compacted",
    "retention": "snapshots are no longer expired: metadata and storage grow",
    "orphan_file_deletion": "files no snapshot references are no longer deleted",
}


def optimizer_address(database: str, table: str, kind: str) -> str:
    return f"{database}.{table}:{kind}"


def configuration(declared: Optimizers, kind: OptimizerType) -> Shape:
    """The TableOptimizerConfiguration a create or update sends for one type."""
    own = declared.of(kind)
    assert own is not None
    shape: Shape = {"enabled": own.enabled, "roleArn": declared.role_for(kind)}
    vpc = declared.vpc_for(kind)
    if vpc:
        shape["vpcConfiguration"] = {"glueConnectionName": vpc}
    iceberg = {api: value for name, api in FIELDS[kind].items() if (value := getattr(own, name)) is not None}
    shape[SECTIONS[kind]] = {"icebergConfiguration": iceberg}
    return shape


def meaning(shape: Mapping[str, Any], kind: str, table_location: str | None) -> dict[str, Any]:
    """One optimizer's configuration as YAML names, Glue's defaults filled in. An optimizer Glue holds
    without `enabled` is not enabled (an unset boolean of the API): import writes `enabled: false`
    for it, and a plan compares it with a file's `enabled` as false, so either re-plans clean."""
    iceberg = (shape.get(SECTIONS[kind]) or {}).get("icebergConfiguration") or {}
    meant: dict[str, Any] = {
        "enabled": shape.get("enabled") is True,
        "role_arn": shape.get("roleArn"),
        "vpc_connection": (shape.get("vpcConfiguration") or {}).get("glueConnectionName"),
    }
    for name, api in FIELDS[kind].items():
        value = iceberg.get(api)
        meant[name] = DEFAULTS[kind].get(name) if value is None else value
    if kind == "orphan_file_deletion":
        meant["location"] = slashless(meant["location"] or table_location)
    return meant


def optimizers_meaning(declared: Optimizers, table_location: str | None) -> dict[str, Any]:
    """What a whole block means, type by type (import compares a file already there by it)."""
    return {kind: meaning(configuration(declared, kind), kind, table_location) for kind in declared.declared()}


def fingerprint(shape: Mapping[str, Any] | None) -> str:
    """What a saved plan and a fresh apply re-check: the optimizer's configuration as planned."""
    if shape is None:
        return ABSENT
    return hashlib.sha256(json.dumps(shape, sort_keys=True, default=str).encode()).hexdigest()[:16]


def optimizer_changes(
    database: str, table: str, declared: Optimizers, live: Mapping[str, Shape], table_location: str | None
) -> Iterator[Change]:
    """Creates, updates and deletes that bring the table's live optimizers to the declared ones."""
    wanted = declared.declared()
    for kind in OPTIMIZER_TYPES:
        before = live.get(kind)
        address = optimizer_address(database, table, kind)
        if kind not in wanted:
            if before is not None:
                yield Change(
                    address, KIND, Action.DELETE, database, table, OptimizerWrite(Type=kind),
                    live_version=fingerprint(before),
                    reason="not under optimizers:", findings=(Finding("optimizer-removed", Impact.SAFE,
                    f"Glue stops running {kind} on this table: {_REMOVED[kind]}"),),
                )  # fmt: skip
            continue
        desired = configuration(declared, kind)
        after = meaning(desired, kind, table_location)
        was = None if before is None else meaning(before, kind, table_location)
        diffs = tuple(
            FieldDiff(name, None if was is None else was[name], value)
            for name, value in after.items()
            if ((value is not None) if was is None else was[name] != value)
        )
        if was is not None and not diffs:
            continue
        action = Action.CREATE if before is None else Action.UPDATE
        yield Change(
            address, KIND, action, database, table, OptimizerWrite(Type=kind, TableOptimizerConfiguration=desired),
            diffs,
            live_version=fingerprint(before), findings=tuple(_findings(kind, was, after)),
        )  # fmt: skip


def _findings(kind: str, was: Mapping[str, Any] | None, after: Mapping[str, Any]) -> Iterator[Finding]:
    if kind == "retention" and after["enabled"] and _expires_more(was, after):
        days = after["snapshot_retention_days"] or "the table's history.expire.max-snapshot-age-ms (else 5)"
        count = after["snapshots_to_retain"] or "the table's history.expire.min-snapshots-to-keep (else 1)"
        yield Finding(
            "snapshot-expiry",
            Impact.BREAKING,
            f"Glue expires snapshots older than {days} days beyond the newest {count}:"
            " time travel and rollback to them stop working",
        )
    if kind == "orphan_file_deletion" and after["enabled"] and (was is None or not was["enabled"]):
        yield Finding(
            "orphan-file-deletion",
            Impact.SAFE,
            f"Glue deletes files under {after['location'] or 'the table location'} that no snapshot references"
            f" once they are {after['retention_days']} days old",
        )


def _expires_more(was: Mapping[str, Any] | None, after: Mapping[str, Any]) -> bool:
    """Whether retention starts, or keeps fewer days or fewer snapshots than before."""
    if was is None or not was["enabled"]:
        return True
    return any(
        after[name] is not None and (was[name] is None or after[name] < was[name])
        for name in ("snapshot_retention_days", "snapshots_to_retain")
    )


def optimizers_block(live: Mapping[str, Shape], table_location: str | None) -> dict[str, Any] | None:
    """The `optimizers:` block that declares these live optimizers (import); None when there are none.
    A role or VPC connection every optimizer shares is written once, for the block."""
    kinds = [kind for kind in OPTIMIZER_TYPES if kind in live]
    if not kinds:
        return None
    meant = {kind: meaning(live[kind], kind, table_location) for kind in kinds}
    block: dict[str, Any] = {}
    shared = {key for key in ("role_arn", "vpc_connection") if len({meant[k][key] for k in kinds}) == 1}
    for key in sorted(shared):
        if meant[kinds[0]][key] is not None:
            block[key] = meant[kinds[0]][key]
    for kind in kinds:
        entry: dict[str, Any] = {} if meant[kind]["enabled"] is not False else {"enabled": False}
        entry.update({k: meant[kind][k] for k in ("role_arn", "vpc_connection") if k not in shared and meant[kind][k]})
        for name in FIELDS[kind]:
            value = meant[kind][name]
            default = slashless(table_location) if name == "location" else DEFAULTS[kind].get(name)
            if value is not None and value != default:
                entry[name] = value
        block[kind] = entry
    return block
