"""Views are diffed by what their text means: the SQL, and for Athena the catalog, schema and Presto columns."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from gluecat.changes.model import FieldDiff
from gluecat.convert import presto_view
from gluecat.convert.view import view_texts
from gluecat.model import ViewTable


def view_text_diffs(
    model: ViewTable, database: str, live: Mapping[str, Any], trino: bool = True
) -> Iterator[FieldDiff]:
    """`trino`: whether the catalog's readers include Trino (an Athena view's description is then in its text)."""
    original, expanded = live.get("ViewOriginalText"), live.get("ViewExpandedText")
    if model.dialect == "athena":
        yield from _athena_diffs(model, database, live, trino)
        return
    want_original, want_expanded = view_texts(model, database)
    if model.dialect == "spark":
        if original != want_original or expanded != want_expanded:
            yield FieldDiff("sql", original if original == expanded else original or expanded, want_original)
        return
    if original != want_original:
        yield FieldDiff("view_original_text", original, want_original)
    if want_expanded is not None and expanded != want_expanded:
        yield FieldDiff("view_expanded_text", expanded, want_expanded)


def _athena_diffs(model: ViewTable, database: str, live: Mapping[str, Any], trino: bool) -> Iterator[FieldDiff]:
    assert model.sql is not None
    want = presto_view.desired_meaning(model.sql, database, [(c.name, c.type) for c in model.columns])
    original = live.get("ViewOriginalText")
    data = presto_view.decode(original)
    if data is None:
        yield FieldDiff("sql", original, model.sql)  # not a Presto view Athena can read: rewrite it
        return
    have = presto_view.meaning(data)
    if have.sql != want.sql:
        yield FieldDiff("sql", have.sql, want.sql)
    if have.catalog != want.catalog:
        yield FieldDiff("view.catalog", have.catalog, want.catalog)
    if have.schema != want.schema:
        yield FieldDiff("view.schema", have.schema, want.schema)
    if have.columns != want.columns:
        yield FieldDiff("view.columns", _columns(have.columns), _columns(want.columns))
    # gluecat writes the description into the view's JSON (Trino hides a view with a Glue Description);
    # one another tool left in Glue means the same, and moves there when the view is next written.
    # Without Trino among the readers, the description is Glue's own (compared beside the view's text).
    have_description = data.get("comment") or live.get("Description")
    if trino and model.description is not None and have_description != model.description:
        yield FieldDiff("description", have_description, model.description)


def _columns(columns: tuple[tuple[str, str], ...]) -> str:
    return ", ".join(f"{name} {kind}" for name, kind in columns)


def view_owned_free(model: ViewTable, parameters: Mapping[str, str]) -> dict[str, str]:
    """The declared parameters, without those the dialect writes (compared through the view's meaning)."""
    owned = presto_view.PARAMETERS if model.dialect == "athena" else {}
    return {k: v for k, v in parameters.items() if k not in owned}
