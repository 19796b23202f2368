"""Hypothesis strategies for Hive types and catalog models."""

from __future__ import annotations

from hypothesis import strategies as st

from gluecat.model import Column, HiveTable, Serde
from gluecat.model.hivetype import (
    PRIMITIVES,
    Array,
    Char,
    Decimal,
    HiveType,
    Map,
    Primitive,
    Struct,
    StructField,
    Varchar,
)
from gluecat.model.storage import STORAGE_FORMATS

names = st.from_regex(r"[a-z_][a-z0-9_]{0,12}", fullmatch=True)
odd_names = st.text(
    alphabet=st.characters(codec="utf-8", exclude_characters="`<>:,", exclude_categories=("Cs", "Cc")),
    min_size=1,
    max_size=10,
).filter(lambda s: s.strip() == s and s != "")

scalar_types: st.SearchStrategy[HiveType] = st.one_of(
    st.sampled_from(PRIMITIVES).map(Primitive),
    st.integers(1, 38).flatmap(lambda p: st.integers(0, p).map(lambda s: Decimal(p, s))),
    st.integers(1, 255).map(Char),
    st.integers(1, 65535).map(Varchar),
)


def _nested(children: st.SearchStrategy[HiveType]) -> st.SearchStrategy[HiveType]:
    fields = st.lists(
        st.builds(StructField, st.one_of(names, odd_names), children),
        min_size=1,
        max_size=4,
        unique_by=lambda f: f.name,
    ).map(lambda fs: Struct(tuple(fs)))
    return st.one_of(
        children.map(Array),
        st.builds(Map, scalar_types, children),
        fields,
    )


hive_types: st.SearchStrategy[HiveType] = st.recursive(scalar_types, _nested, max_leaves=12)

plain_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=20)


def columns(min_size: int = 0) -> st.SearchStrategy[list[Column]]:
    from gluecat.model.hivetype import render

    column = st.builds(
        Column,
        name=names,
        type=hive_types.map(render),
        comment=st.none() | plain_text,
    )
    return st.lists(column, min_size=min_size, max_size=6, unique_by=lambda c: c.name)


_default_keys = {key for preset in STORAGE_FORMATS.values() for key in preset.serde_parameters}
serde_extras = st.dictionaries(
    st.from_regex(r"[a-z]{1,8}\.[a-z]{1,8}", fullmatch=True).filter(lambda k: k not in _default_keys),
    plain_text,
    max_size=3,
)


@st.composite
def hive_tables(draw: st.DrawFn) -> HiveTable:
    """Canonical hive tables: the shape the reverse converter produces."""
    cols = draw(columns())
    keys = draw(columns().filter(lambda ks: not {k.name for k in ks} & {c.name for c in cols}))
    explicit = draw(st.booleans())
    extras = draw(serde_extras)
    storage: dict[str, object]
    if explicit:
        storage = {
            "input_format": "com.example.In" + draw(names),
            "output_format": "com.example.Out" + draw(names),
            "serde": Serde(library="com.example.Serde" + draw(names), parameters=extras),
        }
    else:
        storage = {
            "storage": draw(st.sampled_from(sorted(STORAGE_FORMATS))),
            "serde": Serde(parameters=extras) if extras else None,
        }
    return HiveTable(
        name=draw(names),
        description=draw(st.none() | plain_text),
        location=draw(st.none() | names.map(lambda n: f"s3://bucket/{n}")),
        table_type=draw(st.sampled_from(["EXTERNAL_TABLE", "MANAGED_TABLE"])),
        columns=cols,
        partition_keys=keys,
        parameters=draw(st.dictionaries(names, plain_text, max_size=3)),
        **storage,  # type: ignore[arg-type]
    )


def document_paths(node: object, prefix: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Every place in a JSON document (keys and list indexes from the top) that a forger can change."""
    found = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += document_paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += document_paths(value, (*prefix, index))
    return found
