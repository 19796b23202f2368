"""The plan: plain frozen data that renderers read and apply executes."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

from gluecat.changes.impact import ENGINES, Finding, Impact, impact_of, worst

FORMAT_VERSION = 2
Kind = Literal["database", "table", "index", "optimizer", "lf_tag", "tag_assignment", "grant", "lf_admins"]
# Lake Formation's changes: a removal revokes access (impact `access`), never data.
ACCESS_KINDS = ("lf_admins", "lf_tag", "tag_assignment", "grant")


class Action(StrEnum):
    CREATE = "create"
    REGISTER = "register"  # a table's existing files get their Glue entry back: nothing new is made
    UPDATE = "update"
    REPLACE = "replace"
    DELETE = "delete"

    @property
    def glyph(self) -> str:
        return {"create": "+", "register": "+=", "update": "~", "replace": "-/+", "delete": "-"}[self.value]

    @property
    def destructive(self) -> bool:
        return self in (Action.REPLACE, Action.DELETE)

    @property
    def past(self) -> str:
        return "registered" if self is Action.REGISTER else f"{self.value.removesuffix('e')}ed"


@dataclass(frozen=True)
class FieldDiff:
    """`columns.amount.type: int -> bigint`; None on a side means absent."""

    path: str
    before: Any
    after: Any


@dataclass(frozen=True)
class Change:
    """One database or table to create, update, replace or delete."""

    address: str
    kind: Kind
    action: Action
    database: str
    table: str | None
    desired: dict[str, Any] | None
    diffs: tuple[FieldDiff, ...] = ()
    live_version: str | None = None
    reason: str = ""
    format: str = "hive"
    drops: bool = False  # an update that drops something (an Iceberg column)
    findings: tuple[Finding, ...] = ()
    allow_breaking: str | None = None  # the table's stated reason for a deliberate breaking change

    @property
    def destructive(self) -> bool:
        if self.kind in ("index", "optimizer") or self.kind in ACCESS_KINDS:  # they hold no data
            return False
        return self.action.destructive or self.drops

    @property
    def impact(self) -> Impact:
        return worst((impact_of(self.findings), Impact.DESTRUCTIVE if self.destructive else Impact.SAFE))

    @property
    def gated_impact(self) -> Impact:
        return self.gated_impact_for(ENGINES)

    def gated_impact_for(self, readers: Iterable[str]) -> Impact:
        """The impact the CI gate counts: on the catalog's readers only, and a breaking change the
        table allows counts as safe."""
        on_readers = worst((impact_of(self.findings, readers), Impact.DESTRUCTIVE if self.destructive else Impact.SAFE))
        if on_readers is Impact.BREAKING and self.allow_breaking:
            return Impact.SAFE
        return on_readers


@dataclass(frozen=True)
class PartitionWrite:
    values: tuple[str, ...]
    location: str
    before: str | None = None  # the live location, for updates
    live: dict[str, Any] | None = None  # the live PartitionInput an update starts from (safety rule 6)
    own: dict[str, Any] | None = None  # what the partition holds beyond the table's template (partial input)

    @property
    def moves(self) -> bool:
        return self.before is not None and self.before.rstrip("/") != self.location.rstrip("/")

    @property
    def change_text(self) -> str:
        """`old -> new` for a move; for a partition that stays, what changes on it."""
        if self.moves:
            return f"{self.before} -> {self.location}"
        return f"{self.location}: its own parameters or descriptor"


DOWNSTREAM_VIEWS = "downstream-views"
VIEWS_SHOWN = 20  # views named in a finding; the rest are counted


def views_reading(views: tuple[str, ...]) -> str:
    """The downstream-views finding's message: the views that read a table at risk."""
    named = ", ".join(views[:VIEWS_SHOWN]) + (
        f" and {len(views) - VIEWS_SHOWN} more" if len(views) > VIEWS_SHOWN else ""
    )
    return f"{len(views)} view{'s' if len(views) > 1 else ''} read{'' if len(views) > 1 else 's'} this table: {named}"


@dataclass(frozen=True)
class PartitionChanges:
    """All partition changes of one table. The storage template is the table's descriptor
    (without location) that every partition copies, as Athena and Hive write them."""

    database: str
    table: str
    keys: tuple[str, ...]
    storage: dict[str, Any]
    creates: tuple[PartitionWrite, ...] = ()
    updates: tuple[PartitionWrite, ...] = ()
    deletes: tuple[tuple[str, ...], ...] = ()
    # What each partition to update or delete looked like when planned (values, digest): apply
    # re-checks it. Pairs, not a dict keyed by values, so that masking reaches the values too.
    live_fingerprints: tuple[tuple[tuple[str, ...], str], ...] = ()
    # partition_schema: follow — live partitions whose columns and SerDe apply sets to the table's
    follows: tuple[tuple[str, ...], ...] = ()
    # prune off: how many live partitions the YAML does not declare (left alone), and the first few
    left_alone: int = 0
    left_alone_first: tuple[tuple[str, ...], ...] = ()
    # the views that read the table, directly or not, when partitions move or go (from the lineage)
    downstream_views: tuple[str, ...] = ()

    @property
    def count(self) -> int:
        return len(self.creates) + len(self.updates) + len(self.deletes) + len(self.follows)

    @property
    def findings(self) -> tuple[Finding, ...]:
        """A partition that moves is read from its new location only, as a table that moves is."""
        moved = [w for w in self.updates if w.moves]
        found: tuple[Finding, ...] = ()
        if moved:
            first = moved[0]
            more = f" and {len(moved) - 1:,} more" if len(moved) > 1 else ""
            message = (
                f"{len(moved):,} partition location{'s' if len(moved) > 1 else ''} move"
                f"{'' if len(moved) > 1 else 's'} ({self.address(first.values)}: {first.before} -> {first.location}"
                f"{more}): readers see only the files at the new location"
            )
            found = (Finding("location-change", Impact.BREAKING, message),)
        at_risk = worst((impact_of(found), Impact.DESTRUCTIVE if self.deletes else Impact.SAFE))
        if self.downstream_views and at_risk in (Impact.BREAKING, Impact.DESTRUCTIVE):
            found += (Finding(DOWNSTREAM_VIEWS, at_risk, views_reading(self.downstream_views)),)
        return found

    @property
    def impact(self) -> Impact:
        return worst((impact_of(self.findings), Impact.DESTRUCTIVE if self.deletes else Impact.SAFE))

    def address(self, values: tuple[str, ...]) -> str:
        inner = ",".join(f"{k}={v}" for k, v in zip(self.keys, values, strict=True))
        return f"{self.database}.{self.table}[{inner}]"


@dataclass(frozen=True)
class Plan:
    catalog: str
    changes: tuple[Change, ...] = ()
    partitions: tuple[PartitionChanges, ...] = ()
    notes: tuple[str, ...] = ()
    format_version: int = FORMAT_VERSION
    targets: tuple[str, ...] = field(default_factory=tuple)
    env: str | None = None  # the catalog.yaml environment it was made in
    undeclared: tuple[str, ...] = ()  # live tables the YAML leaves out, left alone (prune is off)
    unmanaged_databases: tuple[str, ...] = ()  # live databases the YAML leaves out (never changed)

    @property
    def has_changes(self) -> bool:
        return bool(self.changes) or any(p.count for p in self.partitions)

    @property
    def destructive(self) -> bool:
        return any(c.destructive for c in self.changes) or any(p.deletes for p in self.partitions)

    @property
    def impact(self) -> Impact:
        """The worst impact of any change: what a reviewer must weigh first."""
        return worst([*(c.impact for c in self.changes), *(p.impact for p in self.partitions)])

    @property
    def gated_impact(self) -> Impact:
        return worst([*(c.gated_impact for c in self.changes), *(p.impact for p in self.partitions)])

    def summary(self) -> dict[str, int]:
        counts = {action.value: 0 for action in Action}
        for change in self.changes:
            counts[change.action.value] += 1
        for group in self.partitions:
            counts["create"] += len(group.creates)
            counts["update"] += len(group.updates) + len(group.follows)
            counts["delete"] += len(group.deletes)
        return counts
