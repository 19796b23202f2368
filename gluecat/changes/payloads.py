"""What a change carries for apply to write: one payload type per writer, the union `Payload`.

The planner builds them as plain dicts (a plan of a million partitions costs nothing more), mypy holds
every producer and consumer to their keys, and a saved plan's payloads are checked against the same
definitions (`plan/desired_shapes.py`) before apply believes them. Glue's own inputs (a database's,
a table's, a partition index's) are Glue's shape: Glue judges them, apply reads only their `Name`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, TypeVar, cast

from pydantic import AfterValidator, ConfigDict, with_config
from typing_extensions import TypedDict  # the one pydantic reads on Python 3.11

Shape = dict[str, Any]
GlueInput = dict[str, Any]  # DatabaseInput, TableInput, PartitionIndex: as Glue takes them
OptimizerType = Literal["compaction", "retention", "orphan_file_deletion"]

# A payload may hold more than apply reads (a forged plan's extra keys are Glue's to refuse);
# what apply reads must be there, of its type.
_PAYLOAD = ConfigDict(extra="allow", strict=True)
P = TypeVar("P")


@with_config(_PAYLOAD)
class NamedInput(TypedDict):
    """What apply reads of Glue's input: the name it writes."""

    Name: str


@with_config(_PAYLOAD)
class IcebergCreate(TypedDict):
    """A new Iceberg table: where it lives, its schema and properties, then the commits that shape it."""

    location: str
    columns: list[Shape]
    properties: dict[str, str]
    ops: list[Shape]


@with_config(_PAYLOAD)
class IcebergUpdate(TypedDict):
    """Commits to an Iceberg table's metadata, in order (schema, spec, sort, properties, version)."""

    ops: list[Shape]


@with_config(_PAYLOAD)
class IcebergRegister(TypedDict):
    """A table whose files outlived its catalog entry: registered at its metadata file, then updated."""

    metadata_location: str
    ops: list[Shape]


def _named(glue: GlueInput) -> GlueInput:
    """What apply reads of a Glue input it sends inside another payload: its name."""
    if not isinstance(glue.get("Name"), str):
        raise ValueError("a Glue input names what it writes: `Name` should be a string")
    return glue


@with_config(_PAYLOAD)
class DeltaWrite(TypedDict):
    """A Delta table: its location, what its log is given (a creation spec or operations), its Glue entry."""

    location: str
    delta: Any  # {"create": spec} for a new log, {} to register one, a list of operations for an update
    glue: Annotated[GlueInput, AfterValidator(_named)]  # the Glue entry it registers


@with_config(_PAYLOAD)
class OptimizerWrite(TypedDict):
    """A table optimizer of one type; its configuration when it is created or updated."""

    Type: OptimizerType
    TableOptimizerConfiguration: NotRequired[Shape]


@with_config(_PAYLOAD)
class TagKeyChange(TypedDict):
    """An LF-tag key: the values it gains and loses, or the whole key deleted."""

    key: str
    add: NotRequired[list[str]]
    delete: NotRequired[list[str]]
    delete_key: NotRequired[bool]


@with_config(_PAYLOAD)
class TagAssignment(TypedDict):
    """One LF-tag key's value on one resource; `held` is the value a removal takes away."""

    resource: Shape
    key: str
    value: str | None
    held: NotRequired[str | None]


@with_config(_PAYLOAD)
class GrantChanges(TypedDict):
    """Lake Formation entries to grant and to revoke, as the batch calls take them."""

    grant: NotRequired[list[Shape]]
    revoke: NotRequired[list[Shape]]


@with_config(_PAYLOAD)
class AdminsChange(TypedDict):
    """The data lake administrators, whole."""

    admins: list[str]


Payload = (
    GlueInput
    | IcebergCreate
    | IcebergUpdate
    | IcebergRegister
    | DeltaWrite
    | OptimizerWrite
    | TagKeyChange
    | TagAssignment
    | GrantChanges
    | AdminsChange
)


def as_payload(payload: Payload | None, shape: type[P]) -> P:
    """`payload` read as the writer that was chosen for it reads it: the kind chose the writer from
    the change, and a saved plan's payload was checked against `shape` before apply began."""
    assert payload is not None, "a write carries its payload"
    return cast(P, payload)


def glue_input(payload: Payload | None) -> GlueInput:
    """`payload` as Glue's own input (a database's, a table's, a partition index's)."""
    return as_payload(payload, dict)
