"""The Iceberg schema diff: desired columns vs the live schema -> schema operations, by Iceberg's rules.

A column or struct field is matched by name, or by the earlier name its file gives (`renamed_from`,
`renamed_fields`): then it is renamed and keeps its field id, so the rows already written read
under the new name. Operations name fields by their live paths (one schema update applies them
all against the live schema); diffs name them as the YAML does."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pyiceberg.types import ListType, MapType, NestedField, StructType

from gluecat.backends.iceberg_meta import Op
from gluecat.backends.iceberg_types import promotion_allowed, schema_of, type_text
from gluecat.changes.model import FieldDiff
from gluecat.model import IcebergColumn
from gluecat.model.hivetype import parse

if TYPE_CHECKING:
    from gluecat.kinds.iceberg.diff import IcebergDiff

Path = tuple[str, ...]


def schema_changes(result: IcebergDiff, live: StructType, columns: list[IcebergColumn]) -> None:
    renames: dict[Path, str] = {}
    for column in columns:
        if column.renamed_from is not None:
            renames[(column.name,)] = column.renamed_from
        for inner, earlier in column.renamed_fields.items():
            renames[(column.name, *inner.split("."))] = earlier
    _Walk(result, renames).struct((), (), live, schema_of(columns).as_struct())


def _dotted(path: Path) -> str:
    return ".".join(path)


@dataclass
class _Walk:
    result: IcebergDiff
    renames: dict[Path, str]  # a field's path by its new names -> its earlier name

    def struct(self, path: Path, live_path: Path, live: StructType, want: StructType) -> None:
        live_by_name = {f.name: f for f in live.fields}
        wanted = {f.name for f in want.fields}
        renamed: set[str] = set()
        added: list[tuple[int, NestedField]] = []
        live_names: dict[str, str] = {}  # each field this update keeps or adds -> its name in the update
        for index, desired in enumerate(want.fields):
            here = (*path, desired.name)
            have = live_by_name.get(desired.name)
            earlier = self.renames.get(here)
            if have is None and earlier is not None:  # not renamed yet: rename it, or refuse
                have = self._renamed(path, live_path, desired.name, earlier, live_by_name, wanted)
                if have is None:
                    continue
                renamed.add(earlier)
            if have is None:
                if self._add(here, live_path, desired):
                    live_names[desired.name] = desired.name
                added.append((index, desired))
            else:
                live_names[desired.name] = have.name
                self._field(here, (*live_path, have.name), have, desired, top_level=not path)
        dropped = [(i, f) for i, f in enumerate(live.fields) if f.name not in wanted and f.name not in renamed]
        for _, have in dropped:
            self.result.ops.append({"op": "delete_column", "path": [*live_path, have.name]})
            self.result.diffs.append(
                FieldDiff(f"columns.{_dotted((*path, have.name))}", type_text(have.field_type), None)
            )
            self.result.destructive = True
        if not path:
            self._likely_renames(dropped, added)
        self._order(path, live_path, [f.name for f in live.fields], [f.name for f in want.fields], live_names)

    def _order(self, path: Path, live_path: Path, live: list[str], want: list[str], live_names: dict[str, str]) -> None:
        """Fields the file lists in another order than the table holds them: moved, keeping their ids.
        The update holds the kept fields in the table's order, then the added ones; each field out of
        place is moved first or after the one the file puts before it (moves name fields as the update
        knows them: live names, and the added fields' new names)."""
        by_live = {name: wanted for wanted, name in live_names.items()}
        current = [by_live[name] for name in live if name in by_live]
        current += [name for name in want if name in live_names and name not in current]
        target = [name for name in want if name in live_names]
        before = list(current)
        for index, name in enumerate(target):
            if current[index] == name:
                continue
            current.remove(name)
            current.insert(index, name)
            move: Op = {"op": "move_column", "path": [*live_path, live_names[name]], "after": None}
            if index:
                move["after"] = [*live_path, live_names[target[index - 1]]]
            self.result.ops.append(move)
        if current != before:
            where = f"columns.{_dotted(path)}.field_order" if path else "column_order"
            self.result.diffs.append(FieldDiff(where, ", ".join(before), ", ".join(current)))
            self.result.moves.append(_dotted(path) or "columns")

    def _renamed(
        self, path: Path, live_path: Path, name: str, earlier: str, live: dict[str, NestedField], wanted: set[str]
    ) -> NestedField | None:
        """The live field the file says this one was, once it is sure; else a refusal, and None."""
        dotted = _dotted((*path, name))
        if earlier in wanted:
            self.result.refusals.append(
                f"column {dotted}: renamed from `{earlier}`, but `{earlier}` is declared too: a field has one name"
            )
            return None
        have = live.get(earlier)
        if have is None:
            self.result.refusals.append(
                f"column {dotted}: renamed from `{earlier}`, but the table has neither `{earlier}` nor `{name}`:"
                f" remove the rename to add `{name}` as a new, empty column"
            )
            return None
        self.result.ops.append({"op": "rename_column", "path": [*live_path, earlier], "name": name})
        self.result.diffs.append(FieldDiff(f"columns.{_dotted((*path, earlier))}.name", earlier, name))
        self.result.renames[_dotted((*path, earlier))] = name
        return have

    def _likely_renames(self, dropped: list[tuple[int, NestedField]], added: list[tuple[int, NestedField]]) -> None:
        """A column dropped and another added at its position with its type: most likely a rename
        the file does not say (the plan names it, and how to keep the values)."""
        at = dict(added)
        for index, have in dropped:
            new = at.get(index)
            if new is not None and type_text(new.field_type) == type_text(have.field_type):
                self.result.likely_renames[have.name] = new.name

    def _add(self, path: Path, live_parent: Path, desired: NestedField) -> bool:
        dotted = _dotted(path)
        if desired.required:
            self.result.refusals.append(
                f"column {dotted}: a new column cannot be required (rows already written have no value);"
                " add it as optional"
            )
            return False
        text = type_text(desired.field_type)
        self.result.ops.append(
            {"op": "add_column", "path": [*live_parent, desired.name], "type": text, "doc": desired.doc}
        )
        self.result.diffs.append(FieldDiff(f"columns.{dotted}", None, text))
        return True

    def _field(self, path: Path, live_path: Path, have: NestedField, want: NestedField, top_level: bool) -> None:
        dotted = _dotted(path)
        self._types(path, live_path, have.field_type, want.field_type)
        if have.required and not want.required:
            self.result.ops.append({"op": "update_column", "path": list(live_path), "required": False})
            self.result.diffs.append(FieldDiff(f"columns.{dotted}.required", True, False))
        elif want.required and not have.required:
            self.result.refusals.append(
                f"column {dotted}: an optional column cannot be made required (rows may already hold nulls);"
                " way out: a new required column filled by a backfill, or a new table"
            )
        if top_level and want.doc is not None and want.doc != have.doc:
            self.result.ops.append({"op": "update_column", "path": list(live_path), "doc": want.doc})
            self.result.diffs.append(FieldDiff(f"columns.{dotted}.comment", have.doc, want.doc))

    def _types(self, path: Path, live_path: Path, have: Any, want: Any) -> None:
        if isinstance(have, StructType) and isinstance(want, StructType):
            self.struct(path, live_path, have, want)
        elif isinstance(have, ListType) and isinstance(want, ListType):
            inner = "element"
            self._types((*path, inner), (*live_path, inner), have.element_type, want.element_type)
        elif (
            isinstance(have, MapType)
            and isinstance(want, MapType)
            and type_text(have.key_type) == type_text(want.key_type)
        ):
            self._types((*path, "value"), (*live_path, "value"), have.value_type, want.value_type)
        elif type_text(have) != type_text(want):
            self._promotion(path, live_path, type_text(have), type_text(want))

    def _promotion(self, path: Path, live_path: Path, before: str, after: str) -> None:
        dotted = _dotted(path)
        if promotion_allowed(parse(before, iceberg=True), parse(after, iceberg=True)):
            self.result.ops.append({"op": "update_column", "path": list(live_path), "type": after})
            self.result.diffs.append(FieldDiff(f"columns.{dotted}.type", before, after))
        else:
            self.result.refusals.append(
                f"column {dotted}: Iceberg cannot change {before} to {after} without rewriting data"
                " (it allows int -> bigint, float -> double, a wider decimal precision at the same scale);"
                " way out: a new column filled by a backfill, or a new table"
            )
