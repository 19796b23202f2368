"""What an Iceberg schema change does to readers. Iceberg maps columns by field id: a rename keeps
the values (safe), a drop loses them for good (destructive), even when the same name comes back."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gluecat.changes import impact
from gluecat.changes.impact import Finding, Impact
from gluecat.kinds.glue_diff import dropped_columns

if TYPE_CHECKING:
    from gluecat.kinds.iceberg.diff import IcebergDiff


def column_findings(result: IcebergDiff) -> tuple[Finding, ...]:
    renames = [
        Finding(
            "iceberg-rename",
            Impact.SAFE,
            f"`{old}` is renamed `{new}`: Iceberg keeps its field id, so the rows already written read their"
            f" values under the new name (queries that name `{old}` must change)",
        )
        for old, new in result.renames.items()
    ]
    dropped = dropped_columns(result.diffs)
    likely = [name for name in dropped if name in result.likely_renames]
    drops = impact.lake_column_drops("Iceberg", [name for name in dropped if name not in likely])
    moves = [_moved(struct) for struct in result.moves]
    return (*renames, *(_likely_rename(old, result.likely_renames[old]) for old in likely), *drops, *moves)


def _moved(struct: str) -> Finding:
    fields = "the table's columns" if struct == "columns" else f"the fields of `{struct}`"
    return Finding(
        "iceberg-column-move",
        Impact.SAFE,
        f"{fields} move to the file's order: each keeps its field id and Iceberg reads by id, so the rows"
        " already written read the same; only what reads by position sees the new order (`SELECT *`, an"
        " INSERT without a column list)",
    )


def _likely_rename(old: str, new: str) -> Finding:
    return Finding(
        "iceberg-column-drop",
        Impact.DESTRUCTIVE,
        f"`{old}` is dropped and `{new}` added at its position with its type: likely a rename, planned as a"
        f" drop and an add, so `{new}` starts empty and `{old}`'s values cannot be read back. To keep them,"
        f" write `renamed_from: {old}` on `{new}`",
    )
