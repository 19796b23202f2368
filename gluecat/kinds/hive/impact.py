"""Impact of a change to a Hive-format table, judged by how its storage format maps columns.

Engines read existing files with the table's new columns. Positional formats (CSV/TSV/text, ORC
by index, Parquet with `parquet.column.index.access=true`) match the n-th column to the n-th
field; by-name formats (Parquet, JSON, Avro, ORC with `orc.column.index.access=false`) match by
name. The rules follow Athena's "Handling schema updates" pages and Spark's readers.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gluecat.changes.impact import ENGINES, Finding, Impact
from gluecat.model.hivetype import HiveTypeError, Primitive, Varchar, normalise, parse, same_type

Shape = Mapping[str, Any]
Column = tuple[str, str]

WIDENINGS = {
    ("tinyint", "smallint"),
    ("tinyint", "int"),
    ("tinyint", "bigint"),
    ("smallint", "int"),
    ("smallint", "bigint"),
    ("int", "bigint"),
    ("float", "double"),
}
TEXT_FORMATS = ("csv", "tsv", "text", "json")
DELIMITED = ("csv", "tsv", "text")  # one SerDe (LazySimpleSerDe), told apart by its delimiter


@dataclass(frozen=True)
class Storage:
    name: str  # csv, tsv, text, json, parquet, orc, avro, or the SerDe's class name
    by_position: bool
    # Engines that read the files by name although the table says by position: Spark's native ORC
    # reader matches the field names ORC files carry (Athena and Trino match by index).
    by_name_anyway: tuple[str, ...] = ()

    @property
    def mapping(self) -> str:
        return "by position" if self.by_position else "by name"


def storage_of(table: Shape) -> Storage:
    descriptor = table.get("StorageDescriptor") or {}
    serde = descriptor.get("SerdeInfo") or {}
    library = (serde.get("SerializationLibrary") or "").lower()
    formats = f"{library} {(descriptor.get('InputFormat') or '').lower()}"
    options = {**(table.get("Parameters") or {}), **(serde.get("Parameters") or {})}
    if "parquet" in formats:
        return Storage("parquet", _flag(options, "parquet.column.index.access", default=False))
    if "orc" in formats:
        by_index = _flag(options, "orc.column.index.access", default=True)
        return Storage("orc", by_index, ("spark",) if by_index else ())
    if "avro" in formats:
        return Storage("avro", False)
    if "json" in formats:
        return Storage("json", False)
    if "opencsv" in library:
        return Storage("csv", True)
    if "lazysimpleserde" in library:
        delimiter = (serde.get("Parameters") or {}).get("field.delim")
        return Storage({",": "csv", "\t": "tsv"}.get(delimiter or "", "text"), True)
    # An unknown SerDe (regex, custom): judged as positional, the stricter reading.
    return Storage(library.rsplit(".", 1)[-1] or "unknown", True)


def _flag(options: Mapping[str, str], key: str, default: bool) -> bool:
    value = options.get(key)
    return default if value is None else value.strip().lower() == "true"


def columns_of(table: Shape) -> list[Column]:
    descriptor = table.get("StorageDescriptor") or {}
    return [(c["Name"], c.get("Type", "")) for c in descriptor.get("Columns") or []]


def hive_findings(live: Shape, desired: Shape) -> list[Finding]:
    before, after = storage_of(live), storage_of(desired)
    findings = _storage_findings(live, desired, before, after)
    live_columns, twice = _once(columns_of(live))
    findings += [_held_twice(twice)] if twice else []
    findings += column_findings(live_columns, _once(columns_of(desired))[0], after)
    return findings


def _once(columns: Sequence[Column]) -> tuple[list[Column], list[str]]:
    """Each column name once, whatever its case (the first one kept), and the names seen again."""
    seen: set[str] = set()
    kept, again = [], []
    for name, column_type in columns:
        if name.lower() in seen:
            again.append(name)
        else:
            seen.add(name.lower())
            kept.append((name, column_type))
    return kept, again


def _held_twice(names: list[str]) -> Finding:
    return Finding(
        "duplicate-live-column",
        Impact.BREAKING,
        f"the live table holds the column name {_names(names)} twice (in one case or another); engines read"
        " column names without case and refuse such a table: apply keeps the declared columns only",
    )


def _storage_findings(live: Shape, desired: Shape, before: Storage, after: Storage) -> list[Finding]:
    live_sd, want_sd = live.get("StorageDescriptor") or {}, desired.get("StorageDescriptor") or {}
    live_serde, want_serde = live_sd.get("SerdeInfo") or {}, want_sd.get("SerdeInfo") or {}
    new_library = live_serde.get("SerializationLibrary") != want_serde.get("SerializationLibrary")
    delimiter_only = before.name in DELIMITED and after.name in DELIMITED  # serde-parameters, below
    if new_library or (before.name != after.name and not delimiter_only):
        return [
            Finding(
                "storage-change",
                Impact.BREAKING,
                f"the storage format changes ({before.name} -> {after.name}): files already written as"
                f" {before.name} are read with the {after.name} reader, which fails or misreads them",
            )
        ]
    findings = []
    if before.by_position != after.by_position:
        findings.append(
            Finding(
                "column-mapping-switch",
                Impact.BREAKING,
                f"{after.name} now reads columns {after.mapping} instead of {before.mapping}: every existing"
                " file's columns are matched anew",
            )
        )
    if after.name in DELIMITED and _text_options(live_serde) != _text_options(want_serde):
        findings.append(
            Finding(
                "serde-parameters",
                Impact.BREAKING,
                f"the {after.name} SerDe parameters change: existing files are split into fields differently",
            )
        )
    live_location = (live_sd.get("Location") or "").rstrip("/")
    want_location = (want_sd.get("Location") or "").rstrip("/")
    if want_location and live_location != want_location:
        findings.append(
            Finding(
                "location-change",
                Impact.BREAKING,
                f"the location moves ({live_location} -> {want_location}): readers see only the files at the new"
                " location",
            )
        )
    return findings


def _text_options(serde: Shape) -> dict[str, str]:
    parameters = serde.get("Parameters") or {}
    keys = ("field.delim", "serialization.format", "separatorChar", "quoteChar", "escapeChar", "line.delim")
    return {k: parameters[k] for k in keys if k in parameters}


def column_findings(live: Sequence[Column], desired: Sequence[Column], storage: Storage) -> list[Finding]:
    """The findings for the engines that read the files as the table says, and, where some engines
    read them by name instead, those engines' own findings beside them."""
    if not storage.by_name_anyway:
        return _column_findings(live, desired, storage)
    positional = [f for f in ENGINES if f not in storage.by_name_anyway]
    findings = [_only(f, positional) for f in _column_findings(live, desired, storage)]
    by_name = _column_findings(live, desired, dataclasses.replace(storage, by_position=False))
    shown = {(f.rule, f.message) for f in findings}
    findings += [_only(f, storage.by_name_anyway) for f in by_name if (f.rule, f.message) not in shown]
    return findings


def _only(finding: Finding, engines: Sequence[str]) -> Finding:
    """The finding as it holds for these engines (a breaking one breaks only them)."""
    held = tuple(e for e in finding.engines if e in engines)
    return dataclasses.replace(finding, engines=held) if finding.impact is not Impact.SAFE else finding


def _column_findings(live: Sequence[Column], desired: Sequence[Column], storage: Storage) -> list[Finding]:
    live_names = [n for n, _ in live]
    want_names = [n for n, _ in desired]
    renames = _likely_renames(live, desired)
    dropped = [n for n in live_names if n not in want_names and n not in renames]
    added = [n for n in want_names if n not in live_names and n not in renames.values()]
    findings = [_rename(old, new, storage) for old, new in renames.items()]
    findings += [_added(name, want_names, live_names, storage) for name in added]
    findings += [_dropped(name, live_names, want_names, storage) for name in dropped]
    findings += _reorder(live_names, want_names, storage)
    live_types = dict(live)
    findings += [
        finding
        for name, wanted in desired
        if name in live_types and not same_type(live_types[name], wanted)
        for finding in [type_finding(name, live_types[name], wanted, storage)]
    ]
    return findings


def _likely_renames(live: Sequence[Column], desired: Sequence[Column]) -> dict[str, str]:
    """A column dropped and another added at the same position with the same type: a rename."""
    live_names = {n for n, _ in live}
    want_names = {n for n, _ in desired}
    renames = {}
    for index, (name, column_type) in enumerate(live):
        if name in want_names or index >= len(desired):
            continue
        new_name, new_type = desired[index]
        if new_name not in live_names and same_type(column_type, new_type):
            renames[name] = new_name
    return renames


def _rename(old: str, new: str, storage: Storage) -> Finding:
    likely = f"`{old}` -> `{new}` (likely a rename: `{old}` dropped, `{new}` added at its position with its type)"
    if storage.by_position:
        return Finding(
            "rename-by-position",
            Impact.SAFE,
            f"{likely}: {storage.name} reads columns by position, so `{new}` reads the values `{old}` held",
        )
    return Finding(
        "rename-by-name",
        Impact.BREAKING,
        f"{likely}: {storage.name} reads columns by name, so `{new}` reads NULL in every existing file"
        f" and `{old}`'s values are no longer read",
    )


def _added(name: str, want_names: list[str], live_names: list[str], storage: Storage) -> Finding:
    after = [n for n in want_names[want_names.index(name) + 1 :] if n in live_names]
    if not after:
        return Finding("add-at-end", Impact.SAFE, f"`{name}` is added at the end: it reads NULL in existing files")
    if not storage.by_position:
        return Finding(
            "add-by-name",
            Impact.SAFE,
            f"{storage.name} reads columns by name: `{name}` reads NULL in existing files, the others are unmoved",
        )
    return Finding(
        "insert-by-position",
        Impact.BREAKING,
        f"{storage.name} reads columns by position: inserting `{name}` before `{after[0]}` shifts"
        f" {_names(after)} in every existing file",
    )


def _dropped(name: str, live_names: list[str], want_names: list[str], storage: Storage) -> Finding:
    if not storage.by_position:
        return Finding(
            "drop-by-name",
            Impact.BREAKING,
            f"`{name}` is dropped: queries that name it fail; its values stay in the files and come back"
            " if it is added again",
        )
    after = [n for n in live_names[live_names.index(name) + 1 :] if n in want_names]
    if not after:
        return Finding(
            "drop-by-position",
            Impact.BREAKING,
            f"{storage.name} reads columns by position: dropping the last column `{name}` leaves its field"
            " in every existing file, and a column added later at the end reads those values",
        )
    return Finding(
        "drop-by-position",
        Impact.BREAKING,
        f"{storage.name} reads columns by position: dropping `{name}` shifts {_names(after)} onto the"
        " wrong fields in every existing file",
    )


def _reorder(live_names: list[str], want_names: list[str], storage: Storage) -> list[Finding]:
    kept_live = [n for n in live_names if n in want_names]
    kept_want = [n for n in want_names if n in live_names]
    if kept_live == kept_want:
        return []
    moved = [n for n, m in zip(kept_live, kept_want, strict=True) if n != m]
    if not storage.by_position:
        return [Finding("reorder-by-name", Impact.SAFE, f"{storage.name} reads columns by name: reordering is safe")]
    return [
        Finding(
            "reorder-by-position",
            Impact.BREAKING,
            f"{storage.name} reads columns by position: reordering makes {_names(moved)} read each other's"
            " values in every existing file",
        )
    ]


def type_finding(name: str, before: str, after: str, storage: Storage) -> Finding:
    change = f"`{name}` {before} -> {after}"
    widening = (_primitive(before), _primitive(after)) in WIDENINGS
    if storage.name in TEXT_FORMATS:
        if widening or _is_text(after):
            return Finding("type-change-text", Impact.SAFE, f"{change}: {storage.name} stores text, every value parses")
        return Finding(
            "type-change-text",
            Impact.BREAKING,
            f"{change}: values in existing {storage.name} files that do not parse as {after} read NULL",
        )
    if widening and storage.name == "parquet":
        return Finding(
            "type-widen-parquet",
            Impact.BREAKING,
            f"{change}: Athena reads the old Parquet files as {after} (as Trino does), but Spark's vectorized"
            " Parquet reader fails on them (Spark 3.x); rewrite the files or set"
            " spark.sql.parquet.enableVectorizedReader=false",
            ("spark",),
        )
    if storage.name == "orc" and _is_text(after):
        return Finding(
            "type-change",
            Impact.BREAKING,
            f"{change}: Trino and Spark read the stored ORC values as their text, but Athena's documentation"
            " lists ORC column type changes as unsupported",
            ("athena",),
        )
    if widening:
        return Finding("type-widen", Impact.SAFE, f"{change}: {storage.name} readers widen the stored values")
    return Finding(
        "type-change",
        Impact.BREAKING,
        f"{change}: existing {storage.name} files hold {before}; reading them as {after} fails"
        " (HIVE_BAD_DATA in Athena, a schema error in Spark)",
    )


def _primitive(text: str) -> str | None:
    try:
        parsed = normalise(parse(text))
    except HiveTypeError:
        return None
    return parsed.name if isinstance(parsed, Primitive) else None


def _is_text(text: str) -> bool:
    try:
        parsed = parse(text)
    except HiveTypeError:
        return False
    return isinstance(parsed, Varchar) or (isinstance(parsed, Primitive) and parsed.name == "string")


def _names(names: Sequence[str]) -> str:
    quoted = [f"`{n}`" for n in names]
    if len(quoted) > 4:
        return ", ".join(quoted[:3]) + f" and {len(quoted) - 3} more"
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
