"""What each change of a saved plan must carry for apply to send it: the payload types of
`changes/payloads.py`, chosen by the change's kind (and for a table, by the writer its kind picks).

Glue, Lake Formation and the table formats judge the rest of what is sent; a key apply itself reads
(an Iceberg table's `location`, an index's `IndexName`, a tag's `key`) must be there and be of its
type, or a forged or damaged plan would fail half-applied with an internal error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ConfigDict, TypeAdapter, ValidationError, with_config
from typing_extensions import TypedDict

from gluecat.changes.model import Action
from gluecat.changes.payloads import (
    AdminsChange,
    DeltaWrite,
    GrantChanges,
    IcebergCreate,
    IcebergRegister,
    IcebergUpdate,
    NamedInput,
    OptimizerWrite,
    TagAssignment,
    TagKeyChange,
)
from gluecat.kinds.base import Writer
from gluecat.kinds.registry import kind_named
from gluecat.model.words import a
from gluecat.text.plain import pydantic_plain

Shape = dict[str, Any]


@with_config(ConfigDict(extra="allow", strict=True))
class _IndexInput(TypedDict):  # Glue's PartitionIndex: apply reads its name
    IndexName: str


_WRITES = (Action.CREATE, Action.UPDATE, Action.REPLACE, Action.REGISTER)

# What apply reads of a table change's payload, by the writer its kind chooses (`Kind.writer`).
_TABLE_WRITES: dict[Writer, Any] = {
    Writer.CATALOG: NamedInput,
    Writer.ICEBERG: IcebergUpdate,
    Writer.ICEBERG_REGISTER: IcebergRegister,
    Writer.DELTA: DeltaWrite,
}
_OTHERS: dict[str, Any] = {
    "index": _IndexInput,
    "lf_tag": TagKeyChange,
    "tag_assignment": TagAssignment,
    "grant": GrantChanges,
    "lf_admins": AdminsChange,
    "optimizer": OptimizerWrite,
}
_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}


def _shape(kind: str, table_kind: str | None, action: Action, desired: Mapping[str, object] | None) -> Any:
    """The payload type `desired` must fit; None where apply reads nothing of it (a table or database
    delete). A table's kind says what apply writes it with (ValueError for a payload it never plans)."""
    if kind == "table":
        writer = Writer.CATALOG if table_kind is None else kind_named(table_kind).writer(action, desired)
        if action is Action.DELETE:
            return None
        if writer is Writer.ICEBERG and action is Action.CREATE:
            return IcebergCreate
        return _TABLE_WRITES[writer]
    if kind == "database" and action is Action.DELETE:
        return None
    return _OTHERS.get(kind, NamedInput)


def _adapter(shape: Any) -> TypeAdapter[Any]:
    if shape not in _ADAPTERS:
        _ADAPTERS[shape] = TypeAdapter(shape)
    return _ADAPTERS[shape]


def desired_problem(
    kind: str, table_kind: str | None, action: Action, desired: Mapping[str, object] | None
) -> str | None:
    """Why apply could not send `desired` as this change, or None when it can."""
    try:
        shape = _shape(kind, table_kind, action, desired)
    except ValueError as exc:
        return str(exc)
    if shape is None:
        return None
    if desired is None:
        return f"{a(kind)} {action.value} carries nothing to write"
    try:
        _adapter(shape).validate_python(desired)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in ("desired", *first["loc"]))
        return f"{where}: {pydantic_plain(first['msg'])}"
    if shape is TagAssignment and desired.get("value") is None and desired.get("held") is None:
        return "desired: an assignment that removes a tag names the value it removes (`held`)"
    if shape is OptimizerWrite and action in _WRITES and "TableOptimizerConfiguration" not in desired:
        return "desired.TableOptimizerConfiguration: Field required"
    return None
