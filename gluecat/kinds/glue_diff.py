"""Field diffs over Glue shapes, shared by the kinds Glue describes (Hive-format tables, views, the
Glue side of Delta tables): declared fields compared, live ones the YAML does not name kept."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from gluecat.changes.fingerprint import fingerprint
from gluecat.changes.model import FieldDiff
from gluecat.convert.extra import STORAGE_KEYS, TABLE_KEYS, declared_extra
from gluecat.convert.locations import slashless
from gluecat.convert.parameters import diffed
from gluecat.convert.shapes import TABLE_INPUT_KEYS
from gluecat.kinds.projection_diff import declares_projection, projection_diffs, unowned
from gluecat.model.hivetype import same_type

Shape = dict[str, Any]
ABSENT = "absent"


def version_of(live: Shape) -> str:
    version = live.get("VersionId")
    return str(version) if version is not None else fingerprint(live)


def scalar_diffs(pairs: Mapping[str, tuple[Any, Any]]) -> Iterator[FieldDiff]:
    for path, (before, after) in pairs.items():
        if (before or None) != (after or None):
            yield FieldDiff(path, before, after)


def parameter_diffs(prefix: str, live: Mapping[str, str], desired: Mapping[str, str]) -> Iterator[FieldDiff]:
    """Only declared keys are compared: live keys the YAML does not name are kept, not diffed."""
    for key, value in sorted(desired.items()):
        if live.get(key) != value:
            yield FieldDiff(f"{prefix}.{key}", live.get(key), value)


def by_folded_name(
    columns: Iterable[Mapping[str, Any]],
) -> tuple[dict[str, Mapping[str, Any]], list[Mapping[str, Any]]]:
    """Columns by their lowercase name (Glue folds top-level column names: `eventVersion` in YAML is
    `eventversion` live), and the later ones whose name, in any case, came before (`a`, then `A`)."""
    named: dict[str, Mapping[str, Any]] = {}
    again: list[Mapping[str, Any]] = []
    for column in columns:
        folded = str(column.get("Name", "")).lower()
        if folded in named:
            again.append(column)
        else:
            named[folded] = column
    return named, again


def column_diffs(live: Iterable[Mapping[str, Any]], desired: Iterable[Mapping[str, Any]]) -> Iterator[FieldDiff]:
    live_by_name, live_again = by_folded_name(live)
    want_by_name, want_again = by_folded_name(desired)
    # A name held twice (a table some tool wrote with `a` and `A`) is one column too many: shown, not hidden.
    for column in (c for c in live_again if c not in want_again):
        yield FieldDiff(f"columns.{column.get('Name')}", column.get("Type"), None)
    for column in (c for c in want_again if c not in live_again):
        yield FieldDiff(f"columns.{column.get('Name')}", None, column.get("Type"))
    # Either side may be a live version (history compares two): Glue keeps a column without a type.
    for name, want in want_by_name.items():
        have = live_by_name.get(name)
        if have is None:
            yield FieldDiff(f"columns.{name}", None, want.get("Type"))
            continue
        if not same_type(have.get("Type", ""), want.get("Type", "")):
            yield FieldDiff(f"columns.{name}.type", have.get("Type"), want.get("Type"))
        if "Comment" in want and have.get("Comment") != want["Comment"]:
            yield FieldDiff(f"columns.{name}.comment", have.get("Comment"), want["Comment"])
        for key, value in sorted((want.get("Parameters") or {}).items()):
            if (have.get("Parameters") or {}).get(key) != value:
                yield FieldDiff(f"columns.{name}.parameters.{key}", (have.get("Parameters") or {}).get(key), value)
    for name, have in live_by_name.items():
        if name not in want_by_name:
            yield FieldDiff(f"columns.{name}", have.get("Type"), None)
    shared_live = [n for n in live_by_name if n in want_by_name]
    shared_want = [n for n in want_by_name if n in live_by_name]
    if shared_live != shared_want:
        yield FieldDiff("columns (order)", ", ".join(shared_live), ", ".join(shared_want))


def extra_diffs(
    live: Shape, desired: Shape, storage_keys: tuple[str, ...] = STORAGE_KEYS, table_keys: tuple[str, ...] = TABLE_KEYS
) -> Iterator[FieldDiff]:
    for path, keys in declared_extra(desired, storage_keys, table_keys):
        have: Any = live
        want: Any = desired
        for key in keys:
            have = (have or {}).get(key)
            want = want[key]
        if have != want:
            yield FieldDiff(path, have, want)


def merge_table_input(live: Shape, desired: Shape) -> Shape:
    """Live table with the declared fields laid over it: what the model does not cover stays."""
    merged = carry_over(live, TABLE_INPUT_KEYS, desired)
    if declares_projection(desired["Parameters"]):
        merged["Parameters"] = {**unowned(live.get("Parameters") or {}), **diffed(desired["Parameters"])}
    for key in ("Name", "Description", "TableType", "PartitionKeys"):
        if key in desired:
            merged[key] = desired[key]
    live_sd, want_sd = dict(live.get("StorageDescriptor") or {}), desired["StorageDescriptor"]
    live_serde = dict(live_sd.get("SerdeInfo") or {})
    live_serde["SerializationLibrary"] = want_sd["SerdeInfo"]["SerializationLibrary"]
    live_serde["Parameters"] = {
        **(live_serde.get("Parameters") or {}),
        **want_sd["SerdeInfo"]["Parameters"],
    }
    if "Name" in want_sd["SerdeInfo"]:
        live_serde["Name"] = want_sd["SerdeInfo"]["Name"]
    live_sd.update(
        Columns=merge_columns(live_sd.get("Columns") or [], want_sd["Columns"]),
        InputFormat=want_sd["InputFormat"],
        OutputFormat=want_sd["OutputFormat"],
        SerdeInfo=live_serde,
    )
    storage_parameters = {**(live_sd.get("Parameters") or {}), **diffed(want_sd.get("Parameters") or {})}
    if storage_parameters:
        live_sd["Parameters"] = storage_parameters
    if "Location" in want_sd:
        live_sd["Location"] = want_sd["Location"]
    live_sd.update({k: want_sd[k] for k in STORAGE_KEYS if k in want_sd})
    merged.update({k: desired[k] for k in TABLE_KEYS if k in desired})
    merged["StorageDescriptor"] = live_sd
    return merged


def carry_over(live: Shape, input_keys: tuple[str, ...], desired: Shape) -> Shape:
    """The live object as an *Input shape, with the declared parameters laid over the live ones."""
    merged = {k: live[k] for k in input_keys if k in live}
    # Spark's schema copy: the live one wins on update (gluecat rewrites it when columns change).
    merged["Parameters"] = {**(live.get("Parameters") or {}), **diffed(desired["Parameters"])}
    return merged


def merge_columns(live: list[Shape], desired: list[Shape]) -> list[Shape]:
    """Declared columns, keeping what Glue holds beyond name/type (a live comment, parameters)."""
    live_by_name = {c["Name"].lower(): c for c in live}
    return [{**live_by_name.get(c["Name"].lower(), {}), **c} for c in desired]


def hive_diffs(live: Shape, desired: Shape) -> Iterator[FieldDiff]:
    live_sd, want_sd = live.get("StorageDescriptor") or {}, desired["StorageDescriptor"]
    live_serde, want_serde = live_sd.get("SerdeInfo") or {}, want_sd["SerdeInfo"]
    scalars = {
        "table_type": (live.get("TableType"), desired.get("TableType")),
        "location": (slashless(live_sd.get("Location")), slashless(want_sd.get("Location"))),
        "input_format": (live_sd.get("InputFormat"), want_sd.get("InputFormat")),
        "output_format": (live_sd.get("OutputFormat"), want_sd.get("OutputFormat")),
        "serde.library": (
            live_serde.get("SerializationLibrary"),
            want_serde.get("SerializationLibrary"),
        ),
    }
    if "Description" in desired:
        scalars["description"] = (live.get("Description"), desired["Description"])
    if "Name" in want_serde:
        scalars["serde.name"] = (live_serde.get("Name"), want_serde["Name"])
    yield from scalar_diffs(scalars)
    yield from parameter_diffs(
        "serde.parameters", live_serde.get("Parameters") or {}, want_serde.get("Parameters") or {}
    )
    yield from parameter_diffs(
        "storage_parameters", live_sd.get("Parameters") or {}, diffed(want_sd.get("Parameters") or {})
    )
    yield from column_diffs(live_sd.get("Columns") or [], want_sd.get("Columns") or [])
    live_parameters, want_parameters = live.get("Parameters") or {}, desired["Parameters"]
    if declares_projection(want_parameters):
        yield from projection_diffs(live_parameters, want_parameters)
        want_parameters = unowned(want_parameters)
    yield from parameter_diffs("parameters", live_parameters, diffed(want_parameters))
    yield from extra_diffs(live, desired)


def dropped_columns(diffs: Iterable[FieldDiff]) -> list[str]:
    suffixes = (".comment", ".required", ".type")
    return [
        d.path.removeprefix("columns.")
        for d in diffs
        if d.path.startswith("columns.") and d.after is None and d.before is not None and not d.path.endswith(suffixes)
    ]


# registrations and re-registrations


def column_name(path: str) -> str:
    return path.removeprefix("columns.").removesuffix(".type").removeprefix("columns ")


def is_column_shape(diff: FieldDiff) -> bool:
    """Column added, dropped, retyped or moved (not a comment or a column parameter)."""
    return diff.path.startswith("columns") and not column_metadata(diff.path)


def column_metadata(path: str) -> bool:
    return path.endswith(".comment") or ".parameters." in path
