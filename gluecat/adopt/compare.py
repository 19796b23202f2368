"""A file already in the project, compared by meaning with the one import would write.

Both are read as a plan reads them — parsed, `${var.…}`/`${env.…}` resolved, validated into the
model — and compared as the model holds them, so formatting, key order, comments, quoting and
defaults spelled out (or left out) do not count. What a plan resolves the same way counts as
equal too: a location left to its default, the `storage` shorthand or the formats it stands for,
a column name's case (Glue folds it), volatile and ignored parameters. What says how gluecat
treats the table rather than what Glue holds (`lint`, `allow_breaking`, `partition_schema`, `skip_archive`) is
the reviewer's, never compared; `partitions` are compared only when import read them.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from gluecat.adopt.access import grants_by_meaning
from gluecat.adopt.table import reason_of
from gluecat.adopt.yamlout import KEY_ORDER
from gluecat.convert.locations import slashless
from gluecat.convert.parameters import managed
from gluecat.errors import SpecError
from gluecat.kinds.registry import kind_of
from gluecat.model import TABLE_MODELS, Database
from gluecat.model.table import Table, as_table
from gluecat.project.interpolate import Context, interpolate
from gluecat.project.source import read_yaml
from gluecat.secrets import redact
from gluecat.secrets.values import PLACEHOLDER

# How gluecat treats the object, not what Glue holds: import cannot read it, a reviewer wrote it.
DIRECTIVES = ("lint", "allow_breaking", "partition_schema", "skip_archive")
_RANK = {key: index for index, key in enumerate(KEY_ORDER)}
_SHOWN = 60  # characters of a value a message quotes
M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class Reading:
    """How both files are read: in the environment import runs in, as a plan would read them."""

    variables: Mapping[str, str]
    warehouse: str | None = None
    ignore: tuple[str, ...] = ()
    partitions: bool = False  # import read the live partitions: compare them

    def context(self) -> Context:
        # An unset ${env.X} reads as its placeholder, which matches whatever Glue holds there (`_same`).
        return Context(self.variables, dict(os.environ), secrets_required=False)


@dataclass(frozen=True)
class Difference:
    """The first field in which the file's meaning differs from what import would write."""

    field: str
    in_file: Any = None
    live: Any = None
    problem: str | None = None  # why it could not be compared: it does not load

    def __str__(self) -> str:
        if self.problem is not None:
            return self.problem
        have, want = _side(self.field, self.in_file, self.live), _side(self.field, self.live, self.in_file)
        return f"it differs from the live catalog ({self.field}: {have} in the file, {want} live)"


def read_database(path: Path, reading: Reading) -> Database | Difference:
    """The database a `database.yaml` declares, or why it does not load."""
    data = _read(path, reading)
    if isinstance(data, Difference):
        return data
    return _validated(Database, data, path.parent.name)


def database_difference(path: Path, wanted: dict[str, Any], reading: Reading) -> Difference | None:
    """None when the file at `path` means the database import would write as `wanted`."""
    have = read_database(path, reading)
    if isinstance(have, Difference):
        return have
    want = _validated(Database, wanted, path.parent.name)
    if isinstance(want, Difference):
        return _unreadable(want)
    return _first(_database_meaning(have, reading), _database_meaning(want, reading))


def table_difference(path: Path, wanted: dict[str, Any], database: Database, reading: Reading) -> Difference | None:
    """None when the table file at `path` means the table import would write as `wanted`; table
    locations left to their default are placed under `database`."""
    data = _read(path, reading)
    if isinstance(data, Difference):
        return data
    have = _table(data, path.stem)
    if isinstance(have, Difference):
        return have
    want = _table(wanted, path.stem)
    if isinstance(want, Difference):
        return _unreadable(want)
    return _first(_table_meaning(have, database, reading), _table_meaning(want, database, reading))


def _read(path: Path, reading: Reading) -> dict[str, Any] | Difference:
    try:
        source = read_yaml(path)
    except SpecError as exc:
        return _not_loading(str(exc))
    result = interpolate(source, reading.context())
    if result.errors:
        return _not_loading(str(result.errors[0]))
    data: dict[str, Any] = result.source.data
    return data


def _table(data: dict[str, Any], name: str) -> Table | Difference:
    kind = data.get("format", "hive")
    model = TABLE_MODELS.get(kind) if isinstance(kind, str) else None
    if model is None:
        return _not_loading(f"unknown format {kind!r}")
    validated = _validated(model, data, name)
    if isinstance(validated, Difference):
        return validated
    table = as_table(validated)
    return table if table is not None else _not_loading("it is not a table")


def _validated(model: type[M], data: dict[str, Any], name: str) -> M | Difference:
    given = data.get("name")
    if given is not None and given != name:
        return _not_loading(f"name '{given}' must be '{name}'")
    try:
        return model.model_validate({**data, "name": name})
    except ValidationError as exc:
        return _not_loading(reason_of(exc))


def _database_meaning(database: Database, reading: Reading) -> dict[str, Any]:
    data = database.model_dump(mode="json", by_alias=True)
    for key in DIRECTIVES:
        data.pop(key, None)
    data["location"] = slashless(database.location)
    data["parameters"] = managed(database.parameters, reading.ignore)
    return grants_by_meaning(data)


def _table_meaning(table: Table, database: Database, reading: Reading) -> dict[str, Any]:
    data = table.model_dump(mode="json", by_alias=True)
    for key in DIRECTIVES:
        data.pop(key, None)
    meaning = kind_of(table).meaning(table, database, reading.warehouse, reading.ignore, reading.partitions)
    return grants_by_meaning({**data, **meaning})


def _first(have: Any, want: Any, path: str = "") -> Difference | None:
    """The first difference in file order (the order import writes keys in)."""
    if isinstance(have, dict) and isinstance(want, dict):
        for key in sorted(have.keys() | want.keys(), key=lambda k: (_RANK.get(k, len(_RANK)), k)):
            found = _first(have.get(key), want.get(key), f"{path}.{key}" if path else str(key))
            if found is not None:
                return found
        return None
    if isinstance(have, list) and isinstance(want, list):
        for index in range(max(len(have), len(want))):
            item_have = have[index] if index < len(have) else None
            item_want = want[index] if index < len(want) else None
            found = _first(item_have, item_want, f"{path}{_item(item_have, item_want, index)}")
            if found is not None:
                return found
        return None
    return None if _same(have, want) else Difference(path, have, want)


def _same(have: Any, want: Any) -> bool:
    """Equal; or the file's text names a secret that is not set here (`${env.X}`, read as its
    placeholder), and the rest of it matches: what the variable will hold cannot be told apart."""
    if have == want:
        return True
    if not (isinstance(have, str) and isinstance(want, str) and PLACEHOLDER.search(have)):
        return False
    parts = PLACEHOLDER.split(have)  # text, name, text, name, ..., text
    pattern = "".join(re.escape(part) if index % 2 == 0 else ".*" for index, part in enumerate(parts))
    return re.fullmatch(pattern, want, re.DOTALL) is not None


def _item(have: Any, want: Any, index: int) -> str:
    """`columns.amount` where both sides name the item alike, else `columns[2]`."""
    names = {item.get("name") for item in (have, want) if isinstance(item, dict)}
    names.discard(None)
    return f".{names.pop()}" if len(names) == 1 else f"[{index}]"


def _not_loading(why: str) -> Difference:
    return Difference("", problem=f"it does not load ({why})")


def _unreadable(want: Difference) -> Difference:
    """What import would write does not validate (a bug, not the file's): it cannot be compared."""
    return Difference("", problem=f"what import would write does not validate: {want.problem}")


def _side(field: str, value: Any, other: Any) -> str:
    """One side of a difference, short and with secrets masked (by the key's name and by known values):
    `absent`, `present` (a mapping or list against nothing), or the value quoted."""
    if value is None:
        return "absent"
    if isinstance(value, dict | list) and other is None:
        return "present"
    key = field.rsplit(".", 1)[-1]
    if any(redact.mask_value(key, side) != side for side in (value, other)):
        return repr(redact.MASK)  # either side a secret: the other may be its old value
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)
    return repr(text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…")
