"""What each change of a saved plan must carry for apply to send it: the keys apply reads from a
change's `desired`, by its kind (and a table's format), each of the type apply uses it as.

Glue, Lake Formation and the table formats judge the rest of what is sent; a key apply itself reads
(an Iceberg table's `location`, an index's `IndexName`, a tag's `key`) must be there and be of its
type, or a forged or damaged plan would fail half-applied with an internal error.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from gluecat.changes.model import Action
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


def _model(kind: str, table_format: str, action: Action) -> type[_Desired] | None:
    """The model `desired` must fit; None where apply reads nothing of it (a table or database delete)."""
    if kind in ("database", "table") and action is Action.DELETE:
        return None
    if kind == "table" and table_format == "iceberg" and action is not Action.REPLACE:
        iceberg: dict[Action, type[_Desired]] = {Action.CREATE: _IcebergCreate, Action.REGISTER: _IcebergRegister}
        return iceberg.get(action, _IcebergUpdate)
    if kind == "table" and table_format == "delta" and action in (Action.CREATE, Action.UPDATE):
        return _Delta
    access: dict[str, type[_Desired]] = {
        "index": _Index, "lf_tag": _Tag, "tag_assignment": _Assignment, "grant": _Grants, "lf_admins": _Admins,
    }  # fmt: skip
    if kind == "optimizer":
        return _OptimizerWrite if action in _WRITES else _Optimizer
    return access.get(kind, _Input)


def desired_problem(kind: str, table_format: str, action: Action, desired: Shape | None) -> str | None:
    """Why apply could not send `desired` as this change, or None when it can."""
    model = _model(kind, table_format, action)
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
