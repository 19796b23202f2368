"""The shape a plan file must have before apply believes a word of it.

A saved plan is checked whole — every change and partition group, their types and the facts
apply relies on (a write has what it writes, a table change names its table, partition values
match their keys) — before anything is sent, so a forged or damaged file (its digest recomputed)
is one line and no write, never a crash after other tables were changed.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from gluecat.changes.model import Action
from gluecat.errors import GluecatError
from gluecat.model.words import a
from gluecat.plan.desired_shapes import desired_problem
from gluecat.text.plain import pydantic_plain

Shape = dict[str, Any]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)


class _FieldDiff(_Strict):
    path: str
    before: Any
    after: Any


class _Finding(_Strict):
    rule: str
    impact: Literal["safe", "breaking", "access", "destructive"]
    message: str


class _Change(_Strict):
    address: str
    kind: Literal["database", "table", "index", "optimizer", "lf_tag", "tag_assignment", "grant", "lf_admins"]
    action: Action
    database: str
    table: str | None
    desired: Shape | None
    diffs: list[_FieldDiff]
    live_version: str | None
    reason: str
    table_kind: str | None = None  # a kind's name (`format:`), which the kinds registry resolves
    format: str | None = None  # what plans saved before `table_kind` called it
    findings: list[_Finding] = []

    model_config = ConfigDict(extra="ignore", strict=False)

    @model_validator(mode="after")
    def _what_apply_relies_on(self) -> _Change:
        if self.kind in ("table", "index", "optimizer") and not self.table:
            raise ValueError(f"{self.address}: {a(self.kind)} change names no table")
        if self.action is not Action.DELETE and self.desired is None:
            raise ValueError(f"{self.address}: {a(self.action.value)} carries nothing to write")
        named = self.table_kind if self.table_kind is not None else self.format
        # the kind says what apply writes the payload with (an Iceberg update carries `ops`)
        problem = desired_problem(self.kind, named, self.action, self.desired)
        if problem is not None:
            raise ValueError(f"{self.address}: {problem}")
        return self


class _Write(_Strict):
    values: list[str]
    location: str
    own: Shape | None = None


class _Update(_Write):
    before: str | None
    live: Shape


class _Fingerprint(_Strict):
    values: list[str]
    fingerprint: str


class _Group(_Strict):
    database: str
    table: str
    keys: list[str]
    storage: Shape
    create: list[_Write]
    update: list[_Update]
    delete: list[list[str]]
    follow: list[list[str]] = []
    live_fingerprints: list[_Fingerprint] = []

    @model_validator(mode="after")
    def _values_match_keys(self) -> _Group:
        width = len(self.keys)
        every = [w.values for w in (*self.create, *self.update)] + self.delete + self.follow
        every += [f.values for f in self.live_fingerprints]
        wrong = next((v for v in every if len(v) != width), None)
        if wrong is not None:
            raise ValueError(f"{self.database}.{self.table}: partition {wrong} does not match keys {self.keys}")
        return self


class _Unmanaged(_Strict):
    databases: list[str] = []
    tables: list[str] = []


class _Plan(_Strict):
    catalog: str
    env: str | None = None
    targets: list[str] = []
    notes: list[str] = []
    unmanaged: _Unmanaged = _Unmanaged()
    changes: list[_Change]
    partitions: list[_Group]


class _Binding(_Strict):
    root: str
    catalog: str
    region: str
    endpoint: str

    model_config = ConfigDict(extra="forbid", strict=True)


class _Saved(_Strict):
    binding: _Binding
    secrets: dict[str, str] = {}


def check(data: Any) -> None:
    """Raise one line when `data` is not a plan apply can carry out as written."""
    try:
        _Plan.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise GluecatError(f"the plan file is not a gluecat plan: {where}: {pydantic_plain(first['msg'])}") from None


def check_saved(data: Any) -> None:
    """Raise one line when a saved plan's binding or recorded secrets are not as gluecat writes them."""
    try:
        _Saved.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise GluecatError(f"the plan file is not a gluecat plan: {where}: {pydantic_plain(first['msg'])}") from None
