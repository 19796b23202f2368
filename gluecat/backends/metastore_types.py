"""Column type changes a Hive Metastore refuses, said by the plan before apply tries.

By default (`hive.metastore.disallow.incompatible.col.type.changes=true`, on in 2.3, 3.1
and 4.0) a metastore refuses an alter that changes a column's type to one its values
cannot be read as: allowed are the same type (parameters aside), a change within the
string family (string, varchar, char), numeric widening (tinyint < smallint < int <
bigint < float < double < decimal), and any primitive to the string family.
"""

from __future__ import annotations

from gluecat.changes.model import Change, Plan
from gluecat.model.hivetype import same_type

STRINGS = ("string", "varchar", "char")
NUMBERS = ("tinyint", "smallint", "int", "bigint", "float", "double", "decimal")
TO_STRING = (*NUMBERS, "date", "timestamp", "boolean", *STRINGS)


def _base(type_text: str) -> str:
    return type_text.strip().lower().split("(")[0].split("<")[0].strip()


def compatible(old: str, new: str) -> bool:
    before, after = _base(old), _base(new)
    if same_type(old, new) or (before == after and before in (*STRINGS, "decimal")):
        return True
    if before in STRINGS and after in STRINGS:
        return True
    if before in NUMBERS and after in NUMBERS:
        return NUMBERS.index(before) <= NUMBERS.index(after)
    return after in STRINGS and before in TO_STRING


def refused_type_changes(change: Change) -> list[str]:
    """`amount decimal(12,2) -> int` for each column type change of `change` a metastore refuses."""
    return [
        f"{d.path.removeprefix('columns.').removesuffix('.type')} {d.before} -> {d.after}"
        for d in change.diffs
        if d.path.startswith("columns.") and d.path.endswith(".type")
        if isinstance(d.before, str) and isinstance(d.after, str) and not compatible(d.before, d.after)
    ]


def metastore_note(plan: Plan) -> str | None:
    found = [
        f"{c.address}: {', '.join(r)}" for c in plan.changes if c.format == "hive" if (r := refused_type_changes(c))
    ]
    if not found:
        return None
    return (
        "a Hive Metastore refuses these column type changes unless it sets"
        " hive.metastore.disallow.incompatible.col.type.changes=false, so apply would fail on them: "
        + "; ".join(found)
        + " (add a new column instead)"
    )
