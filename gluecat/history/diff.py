"""What changed between two versions of a table, in the field paths a plan shows.

A plan compares what the YAML declares with what Glue holds, so it names only declared keys; two
versions are compared whole, so a parameter or column one of them lacks counts as added or removed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from gluecat.changes.model import FieldDiff
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
                "view_original_text": (before.get("ViewOriginalText"), after.get("ViewOriginalText")),
                "view_expanded_text": (before.get("ViewExpandedText"), after.get("ViewExpandedText")),
            }
        )
    )
    diffs += both_ways("serde.parameters", live_serde.get("Parameters") or {}, want_serde.get("Parameters") or {})
    diffs += both_ways("storage_parameters", live_sd.get("Parameters") or {}, want_sd.get("Parameters") or {})
    diffs += column_diffs(live_sd.get("Columns") or [], want_sd.get("Columns") or [])
    diffs += (
        FieldDiff(f"partition_{d.path}", d.before, d.after)
        for d in column_diffs(before.get("PartitionKeys") or [], after.get("PartitionKeys") or [])
    )
    diffs += both_ways("parameters", before.get("Parameters") or {}, after.get("Parameters") or {})
    return diffs


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
