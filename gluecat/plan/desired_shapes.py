"""What each change of a saved plan must carry for apply to send it: the keys apply reads from a
change's `desired`, by its kind (and what a table's kind writes it with), each of the type apply uses it as.

Glue, Lake Formation and the table formats judge the rest of what is sent; a key apply itself reads
(an Iceberg table's `location`, an index's `IndexName`, a tag's `key`) must be there and be of its
type, or a forged or damaged plan would fail half-applied with an internal error.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from gluecat.changes.model import Action
from gluecat.kinds.base import Writer
from gluecat.kinds.registry import kind_named
from gluecat.model.words import a
from gluecat.text.plain import pydantic_plain

Shape = dict[str, Any]


class _Desired(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)


class _Input(_Desired):  # a database's or table's Glue input
    Name: str


class _IcebergCreate(_Desired):
    location: str
    columns: list[Shape]
    properties: dict[str, str]
    ops: list[Shape]


class _IcebergRegister(_Desired):
    metadata_location: str
    ops: list[Shape]


class _IcebergUpdate(_Desired):
    ops: list[Shape]


class _Delta(_Desired):
    location: str
    delta: Shape
    glue: _Input


class _Index(_Desired):
    IndexName: str


class _Optimizer(_Desired):
    Type: Literal["compaction", "retention", "orphan_file_deletion"]


class _OptimizerWrite(_Optimizer):
    TableOptimizerConfiguration: Shape


class _Tag(_Desired):
    key: str
    add: list[str] = []
    delete: list[str] = []
    delete_key: bool = False


class _Assignment(_Desired):
    resource: Shape
    key: str
    value: str | None
    held: str | None = None

    @model_validator(mode="after")
    def _removes_what_is_held(self) -> _Assignment:
        if self.value is None and self.held is None:
            raise ValueError("an assignment that removes a tag names the value it removes (`held`)")
        return self


class _Grants(_Desired):
    grant: list[Shape] = []
    revoke: list[Shape] = []


class _Admins(_Desired):
    admins: list[str]


_WRITES = (Action.CREATE, Action.UPDATE, Action.REPLACE, Action.REGISTER)


# What apply reads of a table change's payload, by the writer its kind chooses (`Kind.writer`).
_TABLE_WRITES: dict[Writer, type[_Desired]] = {
    Writer.CATALOG: _Input,
    Writer.ICEBERG: _IcebergUpdate,
    Writer.ICEBERG_REGISTER: _IcebergRegister,
    Writer.DELTA: _Delta,
}


def _model(kind: str, table_kind: str | None, action: Action, desired: Shape | None) -> type[_Desired] | None:
    """The model `desired` must fit; None where apply reads nothing of it (a table or database delete).
    A table's kind says what apply writes it with (ValueError for a payload the kind never plans)."""
    if kind == "table":
        writer = Writer.CATALOG if table_kind is None else kind_named(table_kind).writer(action, desired)
        if action is Action.DELETE:
            return None
        if writer is Writer.ICEBERG and action is Action.CREATE:
            return _IcebergCreate
        return _TABLE_WRITES[writer]
    if kind == "database" and action is Action.DELETE:
        return None
    access: dict[str, type[_Desired]] = {
        "index": _Index, "lf_tag": _Tag, "tag_assignment": _Assignment, "grant": _Grants, "lf_admins": _Admins,
    }  # fmt: skip
    if kind == "optimizer":
        return _OptimizerWrite if action in _WRITES else _Optimizer
    return access.get(kind, _Input)


def desired_problem(kind: str, table_kind: str | None, action: Action, desired: Shape | None) -> str | None:
    """Why apply could not send `desired` as this change, or None when it can."""
    try:
        model = _model(kind, table_kind, action, desired)
    except ValueError as exc:
        return str(exc)
    if model is None:
        return None
    if desired is None:
        return f"{a(kind)} {action.value} carries nothing to write"
    try:
        model.model_validate(desired)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in ("desired", *first["loc"]))
        return f"{where}: {pydantic_plain(first['msg'])}"
    return None
