"""The pure Delta diff: the YAML table vs the Delta log. Only additive changes are made."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gluecat.backends.delta import DeltaLog
from gluecat.backends.delta_types import comparable
from gluecat.changes.model import FieldDiff
from gluecat.model import DeltaTable


@dataclass
class DeltaDiff:
    ops: dict[str, Any] = field(default_factory=dict)
    diffs: list[FieldDiff] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)


def creation_spec(table: DeltaTable) -> dict[str, Any]:
    return {
        "columns": [c.model_dump() for c in table.columns],
        "partition_columns": list(table.partition_columns),
        "properties": dict(table.properties),
        "description": table.description,
    }


def diff_delta(table: DeltaTable, log: DeltaLog) -> DeltaDiff:
    result = DeltaDiff()
    declared = {c.name: c for c in table.columns}
    for name, live_type in log.columns.items():
        column = declared.get(name)
        if column is None:
            result.refusals.append(f"column {name} is in the Delta log but not in the YAML: Delta cannot drop it here")
        elif comparable(column) != live_type:
            result.refusals.append(
                f"column {name}: the Delta log holds {live_type}; changing it to {column.type} rewrites data"
            )
    added = [c for c in table.columns if c.name not in log.columns]
    if added:
        result.ops["add_columns"] = [c.model_dump() for c in added]
        result.diffs.extend(FieldDiff(f"columns.{c.name}", None, c.type) for c in added)
    if list(table.partition_columns) != log.partition_columns:
        result.refusals.append(
            f"partition columns {log.partition_columns} cannot change to {list(table.partition_columns)}"
            " without rewriting the table"
        )
    to_set = {k: v for k, v in table.properties.items() if log.configuration.get(k) != v}
    if to_set:
        result.ops["set_properties"] = to_set
        result.diffs.extend(
            FieldDiff(f"properties.{k}", log.configuration.get(k), v) for k, v in sorted(to_set.items())
        )
    if table.description is not None and table.description != log.description:
        result.ops["description"] = table.description
        result.diffs.append(FieldDiff("description", log.description, table.description))
    return result


def log_matches(table: DeltaTable, log: DeltaLog) -> list[str]:
    """Why an existing log cannot be registered as declared (empty when it can)."""
    result = diff_delta(table, log)
    reasons = list(result.refusals)
    reasons += [f"{d.path}: the log has {d.before!r}, the YAML {d.after!r}" for d in result.diffs]
    return reasons
