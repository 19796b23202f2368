"""The plan: plain frozen data that renderers read and apply executes, and the one definition of the
record a saved plan holds.

The dataclasses are built by the planner as plain Python (nothing here validates then); the pydantic
annotations on them (aliases, computed fields, validators) say how the record is written as JSON and
what a plan file must hold before apply believes a word of it: `plan/document.py` reads and writes
through them, so the record, its JSON and its check cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import InitVar, dataclass, field
from enum import StrEnum
from itertools import chain
from typing import Annotated, Any, Literal

from pydantic import (
    AliasPath,
    BeforeValidator,
    Field,
    PlainSerializer,
    computed_field,
    model_validator,
)

from gluecat.changes.impact import ENGINES, Finding, Impact, impact_of, worst
from gluecat.changes.payloads import Payload
from gluecat.model.words import a

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
    desired: Payload | None  # what apply writes: the payload type its writer reads (changes/payloads.py)
    diffs: tuple[FieldDiff, ...] = ()
    live_version: str | None = None
    reason: str = ""
    # The kind of table a table change is for (the `format:` its file declares, which the kinds
    # registry resolves): the kind decides how apply writes it. None for what is not a table.
    table_kind: str | None = None
    drops: bool = False  # an update that drops something (an Iceberg column)
    findings: tuple[Finding, ...] = ()
    allow_breaking: str | None = None  # the table's stated reason for a deliberate breaking change
    format: InitVar[str | None] = None  # the old spelling of `table_kind`, still accepted

    def __post_init__(self, format: str | None) -> None:
        if format is not None:
            object.__setattr__(self, "table_kind", format)

    @model_validator(mode="after")
    def _what_apply_relies_on(self) -> Change:
        if self.kind in ("table", "index", "optimizer") and not self.table:
            raise ValueError(f"{self.address}: {a(self.kind)} change names no table")
        if self.action is not Action.DELETE and self.desired is None:
            raise ValueError(f"{self.address}: {a(self.action.value)} carries nothing to write")
        return self

    @computed_field  # type: ignore[prop-decorator]
    @property
    def destructive(self) -> bool:
        if self.kind in ("index", "optimizer") or self.kind in ACCESS_KINDS:  # they hold no data
            return False
        return self.action.destructive or self.drops

    @computed_field  # type: ignore[prop-decorator]
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


def _absent(value: object) -> bool:
    return value is None


def _empty(value: object) -> bool:
    return not value


@dataclass(frozen=True)
class PartitionWrite:
    """One partition to write: a create carries its values and location; an update also what it
    moves from and the live input it starts from. Keys a write does not use are left out of the record."""

    values: tuple[str, ...]
    location: str
    # the live location, for updates
    before: Annotated[str | None, Field(exclude_if=_absent)] = None
    # the live PartitionInput an update starts from (safety rule 6)
    live: Annotated[dict[str, Any] | None, Field(exclude_if=_absent)] = None
    # what the partition holds beyond the table's template (partial input)
    own: Annotated[dict[str, Any] | None, Field(exclude_if=_empty)] = None

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


def _pairs(records: Any) -> Any:
    """The record's `[{values, fingerprint}]` as the (values, digest) pairs the plan holds."""
    if not isinstance(records, list | tuple):
        return records  # the tuple's own check says what is wrong
    if not all(isinstance(r, dict) and r.keys() >= {"values", "fingerprint"} for r in records):
        raise ValueError("each live fingerprint is {values, fingerprint}")
    return [(r["values"], r["fingerprint"]) for r in records]


def _fingerprint_records(pairs: tuple[tuple[tuple[str, ...], str], ...]) -> list[dict[str, Any]]:
    return [{"values": list(values), "fingerprint": digest} for values, digest in pairs]


@dataclass(frozen=True)
class PartitionChanges:
    """All partition changes of one table. The storage template is the table's descriptor
    (without location) that every partition copies, as Athena and Hive write them."""

    database: str
    table: str
    keys: tuple[str, ...]
    storage: dict[str, Any]
    creates: Annotated[tuple[PartitionWrite, ...], Field(alias="create")] = ()
    updates: Annotated[tuple[PartitionWrite, ...], Field(alias="update")] = ()
    deletes: Annotated[tuple[tuple[str, ...], ...], Field(alias="delete")] = ()
    # What each partition to update or delete looked like when planned (values, digest): apply
    # re-checks it. Pairs, not a dict keyed by values, so that masking reaches the values too.
    live_fingerprints: Annotated[
        tuple[tuple[tuple[str, ...], str], ...], BeforeValidator(_pairs), PlainSerializer(_fingerprint_records)
    ] = ()
    # partition_schema: follow — live partitions whose columns and SerDe apply sets to the table's
    follows: Annotated[tuple[tuple[str, ...], ...], Field(alias="follow")] = ()
    # prune off: how many live partitions the YAML does not declare (left alone), and the first few
    left_alone: int = 0
    left_alone_first: Annotated[tuple[tuple[str, ...], ...], Field(exclude=True)] = ()
    # the views that read the table, directly or not, when partitions move or go (from the lineage)
    downstream_views: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _values_match_keys(self) -> PartitionChanges:
        width, name = len(self.keys), f"{self.database}.{self.table}"
        unread = next((w.values for w in self.updates if w.live is None), None)
        if unread is not None:
            raise ValueError(f"{name}: the update of partition {list(unread)} carries no `live` input")
        every = chain(
            (w.values for w in self.creates),
            (w.values for w in self.updates),
            self.deletes,
            self.follows,
            (values for values, _ in self.live_fingerprints),
        )
        wrong = next((v for v in every if len(v) != width), None)
        if wrong is not None:
            raise ValueError(f"{name}: partition {list(wrong)} does not match keys {list(self.keys)}")
        return self

    @property
    def count(self) -> int:
        return len(self.creates) + len(self.updates) + len(self.deletes) + len(self.follows)

    @computed_field  # type: ignore[prop-decorator]
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

    @computed_field  # type: ignore[prop-decorator]
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
    # live tables the YAML leaves out, left alone (prune is off); recorded under `unmanaged`
    undeclared: Annotated[tuple[str, ...], Field(validation_alias=AliasPath("unmanaged", "tables"), exclude=True)] = ()
    # live databases the YAML leaves out (never changed); recorded under `unmanaged`
    unmanaged_databases: Annotated[
        tuple[str, ...], Field(validation_alias=AliasPath("unmanaged", "databases"), exclude=True)
    ] = ()

    @computed_field  # type: ignore[prop-decorator]
    @property
    def unmanaged(self) -> dict[str, list[str]]:
        """What the live catalog holds beyond the YAML: never a change, recorded so it is not nowhere."""
        return {"databases": list(self.unmanaged_databases), "tables": list(self.undeclared)}

    @computed_field(alias="summary")  # type: ignore[prop-decorator]
    @property
    def counts(self) -> dict[str, int]:
        return self.summary()

    @property
    def has_changes(self) -> bool:
        return bool(self.changes) or any(p.count for p in self.partitions)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def destructive(self) -> bool:
        return any(c.destructive for c in self.changes) or any(p.deletes for p in self.partitions)

    @computed_field  # type: ignore[prop-decorator]
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
