"""Plan <-> JSON, and the masked copy every rendered format shows."""

from __future__ import annotations

import dataclasses
from typing import Any

from gluecat.errors import GluecatError
from gluecat.plan.impact import Finding, Impact
from gluecat.plan.model import (
    FORMAT_VERSION,
    Action,
    Change,
    FieldDiff,
    PartitionChanges,
    PartitionWrite,
    Plan,
)
from gluecat.plan.parameters import MASK, is_secret


def to_json(plan: Plan) -> dict[str, Any]:
    return {
        "format_version": plan.format_version,
        "catalog": plan.catalog,
        "targets": list(plan.targets),
        "summary": plan.summary(),
        "destructive": plan.destructive,
        "impact": plan.impact.value,
        "notes": list(plan.notes),
        "changes": [
            {
                "address": c.address,
                "kind": c.kind,
                "action": c.action.value,
                "destructive": c.destructive,
                "database": c.database,
                "table": c.table,
                "reason": c.reason,
                "diffs": [dataclasses.asdict(d) for d in c.diffs],
                "live_version": c.live_version,
                "format": c.format,
                "drops": c.drops,
                "impact": c.impact.value,
                "findings": [{**dataclasses.asdict(f), "impact": f.impact.value} for f in c.findings],
                "allow_breaking": c.allow_breaking,
                "desired": c.desired,
            }
            for c in plan.changes
        ],
        "partitions": [
            {
                "database": p.database,
                "table": p.table,
                "keys": list(p.keys),
                "storage": p.storage,
                "live_fingerprints": [{"values": list(v), "fingerprint": f} for v, f in p.live_fingerprints.items()],
                "create": [_write(w) for w in p.creates],
                "update": [{**_write(w), "before": w.before, "live": w.live} for w in p.updates],
                "delete": [list(v) for v in p.deletes],
                "follow": [list(v) for v in p.follows],
                "impact": p.impact.value,
            }
            for p in plan.partitions
        ],
    }


def from_json(data: dict[str, Any]) -> Plan:
    if data.get("format_version") != FORMAT_VERSION:
        raise GluecatError(
            f"plan format_version {data.get('format_version')!r} is not {FORMAT_VERSION}:"
            " make the plan again with this gluecat"
        )
    try:
        changes = tuple(
            Change(
                address=c["address"],
                kind=c["kind"],
                action=Action(c["action"]),
                database=c["database"],
                table=c["table"],
                desired=c["desired"],
                diffs=tuple(FieldDiff(**d) for d in c["diffs"]),
                live_version=c["live_version"],
                reason=c["reason"],
                format=c.get("format", "hive"),
                drops=c.get("drops", False),
                findings=tuple(Finding(f["rule"], Impact(f["impact"]), f["message"]) for f in c.get("findings", [])),
                allow_breaking=c.get("allow_breaking"),
            )
            for c in data["changes"]
        )
        partitions = tuple(
            PartitionChanges(
                database=p["database"],
                table=p["table"],
                keys=tuple(p["keys"]),
                storage=p["storage"],
                creates=tuple(PartitionWrite(tuple(w["values"]), w["location"], own=w.get("own")) for w in p["create"]),
                updates=tuple(
                    PartitionWrite(tuple(w["values"]), w["location"], w["before"], w["live"], w.get("own"))
                    for w in p["update"]
                ),
                deletes=tuple(tuple(v) for v in p["delete"]),
                live_fingerprints={tuple(g["values"]): g["fingerprint"] for g in p["live_fingerprints"]},
                follows=tuple(tuple(v) for v in p.get("follow", [])),
            )
            for p in data["partitions"]
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise GluecatError(f"the plan file is not a gluecat plan: {exc!r}") from exc
    return Plan(
        data["catalog"],
        changes,
        partitions,
        tuple(data.get("notes", ())),
        targets=tuple(data.get("targets", ())),
    )


def masked(plan: Plan) -> Plan:
    """The plan with values of secret-looking keys replaced, for every rendered format."""
    changes = tuple(
        dataclasses.replace(
            c,
            diffs=tuple(_mask_diff(d) for d in c.diffs),
            desired=_mask_shape(c.desired) if c.desired else c.desired,
        )
        for c in plan.changes
    )
    partitions = tuple(dataclasses.replace(p, storage=_mask_shape(p.storage)) for p in plan.partitions)
    return dataclasses.replace(plan, changes=changes, partitions=partitions)


def _mask_diff(diff: FieldDiff) -> FieldDiff:
    key = diff.path.rsplit(".", 1)[-1]
    if diff.path.startswith(("parameters.", "serde.parameters.")) and is_secret(key):
        return FieldDiff(
            diff.path,
            MASK if diff.before is not None else None,
            MASK if diff.after is not None else None,
        )
    return diff


def _mask_shape(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: (MASK if k != "Parameters" and isinstance(v, str) and is_secret(k) else _mask_shape(v))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_mask_shape(v) for v in value]
    return value


def _write(write: PartitionWrite) -> dict[str, Any]:
    """A partition to write; `own` only when it holds something beyond its table's template."""
    shape: dict[str, Any] = {"values": list(write.values), "location": write.location}
    if write.own:
        shape["own"] = write.own
    return shape
