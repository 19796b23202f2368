"""Plan <-> JSON, and the masked copy every rendered format shows."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from gluecat.changes.model import (
    FORMAT_VERSION,
    FieldDiff,
    PartitionChanges,
    PartitionWrite,
    Plan,
)
from gluecat.errors import GluecatError
from gluecat.secrets import redact
from gluecat.secrets.values import PLACEHOLDER, mask_data, restore_data


def to_json(plan: Plan) -> dict[str, Any]:
    """The plan's JSON record (`--format json`, the body of a saved plan)."""
    from gluecat.plan import document  # the record's adapter (~20 ms of schema) loads only to write or read one

    return document.record(plan)


def from_json(data: dict[str, Any]) -> Plan:
    """The plan a JSON record holds, checked whole; one line when it is not a plan apply can carry out."""
    if data.get("format_version") != FORMAT_VERSION:
        raise GluecatError(
            f"plan format_version {data.get('format_version')!r} is not {FORMAT_VERSION}:"
            " make the plan again with this gluecat"
        )
    from gluecat.plan import document

    return document.read(data)


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
