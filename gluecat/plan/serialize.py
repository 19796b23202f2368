"""Plan <-> JSON, and the masked copy every rendered format shows."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from gluecat.changes.impact import ENGINES, Finding, Impact
from gluecat.changes.model import (
    FORMAT_VERSION,
    Action,
    Change,
    FieldDiff,
    PartitionChanges,
    PartitionWrite,
    Plan,
)
from gluecat.errors import GluecatError
from gluecat.secrets import redact
from gluecat.secrets.values import PLACEHOLDER, mask_data, restore_data


def to_json(plan: Plan) -> dict[str, Any]:
    return {
        "format_version": plan.format_version,
        "catalog": plan.catalog,
        "env": plan.env,
        "targets": list(plan.targets),
        "summary": plan.summary(),
        "destructive": plan.destructive,
        "impact": plan.impact.value,
        "notes": list(plan.notes),
        # What the live catalog holds beyond the YAML: never a change, shown so it is not nowhere.
        "unmanaged": {"databases": list(plan.unmanaged_databases), "tables": list(plan.undeclared)},
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
                "live_fingerprints": [{"values": list(v), "fingerprint": f} for v, f in p.live_fingerprints],
                "create": [_write(w) for w in p.creates],
                "update": [{**_write(w), "before": w.before, "live": w.live} for w in p.updates],
                "delete": [list(v) for v in p.deletes],
                "follow": [list(v) for v in p.follows],
                "impact": p.impact.value,
                "findings": [{**dataclasses.asdict(f), "impact": f.impact.value} for f in p.findings],
                "left_alone": p.left_alone,
                "downstream_views": list(p.downstream_views),
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
    from gluecat.plan import document  # the saved plan's schema (~20 ms of models) loads only to read one

    document.check(data)
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
                findings=tuple(
                    Finding(f["rule"], Impact(f["impact"]), f["message"], tuple(f.get("engines", ENGINES)))
                    for f in c.get("findings", [])
                ),
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
                live_fingerprints=tuple((tuple(g["values"]), g["fingerprint"]) for g in p["live_fingerprints"]),
                follows=tuple(tuple(v) for v in p.get("follow", [])),
                downstream_views=tuple(p.get("downstream_views", [])),
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
        env=data.get("env"),
        undeclared=tuple((data.get("unmanaged") or {}).get("tables", ())),
        unmanaged_databases=tuple((data.get("unmanaged") or {}).get("databases", ())),
    )


def masked(plan: Plan) -> Plan:
    """The plan with secrets masked (secret-looking keys, URL passwords, remembered values), for every
    rendered format: field diffs before and after, desired shapes, partitions, reasons and findings."""
    changes = tuple(
        dataclasses.replace(
            c,
            diffs=tuple(_mask_diff(d) for d in c.diffs),
            desired=redact.mask_any(c.desired) if c.desired else c.desired,
            reason=redact.scrub(c.reason),
            findings=tuple(dataclasses.replace(f, message=redact.scrub(f.message)) for f in c.findings),
        )
        for c in plan.changes
    )
    partitions = tuple(_mask_partitions(p) for p in plan.partitions)
    notes = tuple(redact.scrub(n) for n in plan.notes)
    return dataclasses.replace(plan, changes=changes, partitions=partitions, notes=notes)


def without_env_secrets(plan: Plan) -> Plan:
    """`plan` as it may be printed or saved: every `${env.NAME}` value is `(sensitive:NAME)`, and so is
    the old value it replaces (apply reads the values from the environment again)."""
    return hide_replaced(on_values(plan, mask_data))


def with_env_secrets(plan: Plan) -> Plan:
    """A saved plan's values put back from the environment, in exactly the fields masking walked."""
    return on_values(plan, restore_data)


def on_values(plan: Plan, each: Callable[[Any], Any]) -> Plan:
    """`each` (masking, restoring) applied to what the plan writes and says about values, never to its
    own words: kinds, actions, formats, rules, addresses and versions are how a saved plan is read
    before anything is restored, so a secret whose text is part of one (`able` in `table`) must leave
    them as they are, and a placeholder planted in a name is never restored."""
    changes = tuple(
        dataclasses.replace(
            c,
            desired=each(c.desired),
            diffs=each(c.diffs),
            reason=each(c.reason),
            allow_breaking=each(c.allow_breaking),
            findings=tuple(dataclasses.replace(f, message=each(f.message)) for f in c.findings),
        )
        for c in plan.changes
    )
    partitions = tuple(
        dataclasses.replace(
            p,
            storage=each(p.storage),
            creates=each(p.creates),
            updates=each(p.updates),
            deletes=each(p.deletes),
            live_fingerprints=each(p.live_fingerprints),
            follows=each(p.follows),
            left_alone_first=each(p.left_alone_first),
        )
        for p in plan.partitions
    )
    return dataclasses.replace(plan, changes=changes, partitions=partitions, notes=each(plan.notes))


def hide_replaced(plan: Plan) -> Plan:
    """`plan` (its secrets already masked) with the old value of every field whose new value holds a
    `${env.NAME}` secret masked too: that old value is the secret being replaced (a rotated password,
    in a parameter whose key does not look secret), and is no more printable than the new one."""
    changes = tuple(
        dataclasses.replace(c, diffs=tuple(_hide_before(d) for d in c.diffs))
        if any(_holds_secret(d.after) for d in c.diffs)
        else c
        for c in plan.changes
    )
    partitions = tuple(
        dataclasses.replace(p, updates=tuple(_hide_moved_from(w) for w in p.updates))
        if any(_holds_secret(w.location) for w in p.updates)
        else p
        for p in plan.partitions
    )
    return dataclasses.replace(plan, changes=changes, partitions=partitions)


def _holds_secret(value: Any) -> bool:
    return value is not None and bool(PLACEHOLDER.search(value if isinstance(value, str) else repr(value)))


def _hide_before(diff: FieldDiff) -> FieldDiff:
    if diff.before is None or not _holds_secret(diff.after):
        return diff
    return dataclasses.replace(diff, before=redact.MASK)


def _hide_moved_from(write: PartitionWrite) -> PartitionWrite:
    if write.before is None or not _holds_secret(write.location):
        return write
    return dataclasses.replace(write, before=redact.MASK)


# Diff paths whose last part is a key users and engines name freely (parameters, properties, extra fields).
_KEYED_PATHS = ("parameters.", "serde.parameters.", "storage_parameters.", "properties.", "extra.")


def _diff_key(diff: FieldDiff) -> str:
    prefix = next((p for p in _KEYED_PATHS if diff.path.startswith(p)), None)
    return diff.path.removeprefix(prefix) if prefix else diff.path.partition(".parameters.")[2]  # a column's


def _mask_diff(diff: FieldDiff) -> FieldDiff:
    key = _diff_key(diff)
    return FieldDiff(diff.path, redact.mask_value(key, diff.before), redact.mask_value(key, diff.after))


def live_side_masked(diff: FieldDiff) -> FieldDiff:
    """`diff` with its old (live) side masked as every rendered format masks it: a saved plan needs
    only what it writes, and the value a changed secret replaces (a rotated key) must not travel."""
    before = redact.mask_value(_diff_key(diff), diff.before)
    return diff if before == diff.before else dataclasses.replace(diff, before=before)


def _mask_partitions(group: PartitionChanges) -> PartitionChanges:
    """Partition locations are derived from the table's, so only remembered values and URL passwords
    can hide in them; one scan over all of them spares a million partitions a copy each."""
    creates = group.creates
    locations = "\n".join(w.location for w in creates)
    if redact.scrub_known(locations) != locations or any(w.own for w in creates):
        creates = tuple(_mask_write(w) for w in creates)
    return dataclasses.replace(
        group,
        storage=redact.mask_any(group.storage),
        creates=creates,
        updates=tuple(_mask_write(w) for w in group.updates),
    )


def _mask_write(write: PartitionWrite) -> PartitionWrite:
    return dataclasses.replace(
        write,
        location=redact.scrub_known(write.location),
        before=redact.mask_any(write.before),
        live=redact.mask_any(write.live),
        own=redact.mask_any(write.own),
    )


def _write(write: PartitionWrite) -> dict[str, Any]:
    """A partition to write; `own` only when it holds something beyond its table's template."""
    shape: dict[str, Any] = {"values": list(write.values), "location": write.location}
    if write.own:
        shape["own"] = write.own
    return shape
