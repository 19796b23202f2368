"""The saved plan's record, written and read through the plan's own dataclasses: `changes/model.py`
declares the record once (its fields, their JSON names, what is computed, what apply relies on),
and this module is its adapter.

A plan file is checked whole — every change and partition group, their types, the facts apply
relies on (a write has what it writes, a table change names its table, partition values match their
keys) and each payload against what the table's kind writes it with — before anything is sent, so a
forged or damaged file (its digest recomputed) is one line and no write, never a crash after other
tables were changed.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from gluecat.changes.model import Plan
from gluecat.errors import GluecatError
from gluecat.plan.desired_shapes import desired_problem
from gluecat.plan.saved import Binding
from gluecat.text.plain import pydantic_plain

_PLAN = TypeAdapter(Plan)
_BINDING = TypeAdapter(Binding)


class _Secrets(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)

    secrets: dict[str, str] = {}


# A reader of the record sees what it is and what it adds up to before its changes.
_FIRST = ("format_version", "catalog", "env", "targets", "summary", "destructive", "impact", "notes", "unmanaged")


def record(plan: Plan) -> dict[str, Any]:
    """`plan` as the JSON record `--format json` prints and a saved plan holds."""
    written: dict[str, Any] = _PLAN.dump_python(plan, mode="json", by_alias=True)
    return {**{key: written.pop(key) for key in _FIRST}, **written}


def read(data: Any) -> Plan:
    """The plan `data` records; one line when it is not a plan apply can carry out as written."""
    try:
        plan = _PLAN.validate_python(data)
    except ValidationError as exc:
        raise _not_a_plan(exc) from None
    for index, change in enumerate(plan.changes):
        # the table's kind says what apply writes the payload with (an Iceberg update carries `ops`)
        problem = desired_problem(change.kind, change.table_kind, change.action, change.desired)
        if problem is not None:
            raise GluecatError(f"the plan file is not a gluecat plan: changes.{index}: {change.address}: {problem}")
    return plan


def check_saved(data: dict[str, Any]) -> None:
    """Raise one line when a saved plan's binding or recorded secrets are not as gluecat writes them."""
    try:
        _Secrets.model_validate(data)
    except ValidationError as exc:
        raise _not_a_plan(exc) from None
    try:
        _BINDING.validate_python(data.get("binding"))
    except ValidationError as exc:
        raise _not_a_plan(exc, ("binding",)) from None


def _not_a_plan(exc: ValidationError, within: tuple[str, ...] = ()) -> GluecatError:
    first = exc.errors()[0]
    where = ".".join(str(part) for part in (*within, *first["loc"]))
    return GluecatError(f"the plan file is not a gluecat plan: {where}: {pydantic_plain(first['msg'])}")
