"""What changed between two versions of a table, in the field paths a plan shows.

A plan compares what the YAML declares with what Glue holds, so it names only declared keys; two
versions are compared whole, so a parameter or column one of them lacks counts as added or removed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from gluecat.changes.model import FieldDiff
from gluecat.convert import presto_view
from gluecat.convert.locations import slashless
from gluecat.kinds.glue_diff import column_diffs, scalar_diffs
from gluecat.secrets import redact

Shape = dict[str, Any]


def version_diffs(before: Shape, after: Shape) -> list[FieldDiff]:
    """`before` -> `after`, both Glue Table shapes (a version's `Table`)."""
    live_sd, want_sd = before.get("StorageDescriptor") or {}, after.get("StorageDescriptor") or {}
    live_serde, want_serde = live_sd.get("SerdeInfo") or {}, want_sd.get("SerdeInfo") or {}
    diffs = list(
        scalar_diffs(
            {
                "description": (before.get("Description"), after.get("Description")),
                "table_type": (before.get("TableType"), after.get("TableType")),
                "owner": (before.get("Owner"), after.get("Owner")),
                "location": (slashless(live_sd.get("Location")), slashless(want_sd.get("Location"))),
                "input_format": (live_sd.get("InputFormat"), want_sd.get("InputFormat")),
                "output_format": (live_sd.get("OutputFormat"), want_sd.get("OutputFormat")),
                "serde.library": (live_serde.get("SerializationLibrary"), want_serde.get("SerializationLibrary")),
                "serde.name": (live_serde.get("Name"), want_serde.get("Name")),
            }
        )
    )
    diffs += view_diffs(before, after)
    diffs += both_ways("serde.parameters", live_serde.get("Parameters") or {}, want_serde.get("Parameters") or {})
    diffs += both_ways("storage_parameters", live_sd.get("Parameters") or {}, want_sd.get("Parameters") or {})
    diffs += column_diffs(live_sd.get("Columns") or [], want_sd.get("Columns") or [])
    diffs += (
        FieldDiff(f"partition_{d.path}", d.before, d.after)
        for d in column_diffs(before.get("PartitionKeys") or [], after.get("PartitionKeys") or [])
    )
    diffs += both_ways("parameters", before.get("Parameters") or {}, after.get("Parameters") or {})
    return diffs


def view_diffs(before: Shape, after: Shape) -> list[FieldDiff]:
    """A view's text as a plan shows it: an Athena view's `sql` and what else its JSON says (never the
    base64 it is stored as), a Spark view's `sql`; other texts as Glue holds them."""
    original = (before.get("ViewOriginalText"), after.get("ViewOriginalText"))
    expanded = (before.get("ViewExpandedText"), after.get("ViewExpandedText"))
    decoded = (presto_view.decode(original[0]), presto_view.decode(original[1]))
    if decoded[0] is not None and decoded[1] is not None:
        return list(_presto_diffs(decoded[0], decoded[1])) + list(scalar_diffs({"view_expanded_text": expanded}))
    if original[0] == expanded[0] and original[1] == expanded[1]:  # a Spark view: one text, its SQL
        return list(scalar_diffs({"sql": original}))
    return list(scalar_diffs({"view_original_text": original, "view_expanded_text": expanded}))


_PRESTO_FIELDS = {"originalSql": "sql", "catalog": "view.catalog", "schema": "view.schema"}


def _presto_diffs(before: Mapping[str, Any], after: Mapping[str, Any]) -> Iterator[FieldDiff]:
    for key in sorted(set(before) | set(after), key=lambda k: (k not in _PRESTO_FIELDS, k)):
        old, new = before.get(key), after.get(key)
        if key == "columns":
            old, new = _columns(old), _columns(new)
        if old != new:
            yield FieldDiff(_PRESTO_FIELDS.get(key, f"view.{key}"), old, new)


def _columns(columns: Any) -> str | None:
    if not isinstance(columns, list):
        return None
    return ", ".join(f"{c.get('name')} {c.get('type')}" if isinstance(c, dict) else str(c) for c in columns)


def both_ways(prefix: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> Iterator[FieldDiff]:
    for key in sorted(set(before) | set(after)):
        if before.get(key) != after.get(key):
            yield FieldDiff(f"{prefix}.{key}", before.get(key), after.get(key))


_KEYED = ("serde.parameters.", "storage_parameters.", "parameters.")


def masked(diff: FieldDiff) -> FieldDiff:
    """The diff as it may be shown: a secret-looking parameter's values masked, every value scrubbed."""
    prefix = next((p for p in _KEYED if diff.path.startswith(p)), None)
    key = diff.path.removeprefix(prefix) if prefix else diff.path.partition(".parameters.")[2]
    return FieldDiff(diff.path, redact.mask_value(key, diff.before), redact.mask_value(key, diff.after))
