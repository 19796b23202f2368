from __future__ import annotations

import pytest
from hypothesis import given

from gluecat.model import hivetype
from gluecat.model.hivetype import HiveTypeError, parse, render, same_type
from tests.strategies import hive_types


@given(hive_types)
def test_parse_of_render_is_identity(tree: hivetype.HiveType) -> None:
    assert parse(render(tree)) == tree


@given(hive_types)
def test_render_of_parse_is_canonical(tree: hivetype.HiveType) -> None:
    text = render(tree)
    assert render(parse(text)) == text


@given(hive_types)
def test_spacing_and_case_do_not_matter(tree: hivetype.HiveType) -> None:
    text = render(tree)
    noisy = text.replace(",", " , ").replace("<", "< ").replace(">", " >")
    noisy = noisy.replace("array", "ARRAY").replace("struct", "Struct").replace("map", "MAP")
    assert same_type(noisy, text)


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("DECIMAL(10, 2)", "decimal(10,2)"),
        ("decimal", "decimal(10,0)"),
        ("integer", "int"),
        ("double precision", "double"),
        ("array< struct< a : int , B:string > >", "array<struct<a:int,B:string>>"),
        ("struct<`weird name`:int,`a``b`:string>", "struct<`weird name`:int,`a``b`:string>"),
        ("struct<user-agent:string>", "struct<`user-agent`:string>"),
        (
            "map<string,array<map<int,struct<x:double>>>>",
            "map<string,array<map<int,struct<x:double>>>>",
        ),
        ("VARCHAR(65535)", "varchar(65535)"),
    ],
)
def test_canonical_spelling(written: str, canonical: str) -> None:
    assert hivetype.canonical(written) == canonical


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("bigit", "unknown type 'bigit' — did you mean 'bigint'?"),
        ("strin", "did you mean 'string'?"),
        ("decimal(39,2)", "decimal precision must be 1..38, not 39"),
        ("decimal(5,6)", "decimal scale 6 exceeds precision 5"),
        ("char(0)", "char length must be 1..255"),
        ("array<int", "expected '>'"),
        ("map<array<int>,int>", "map keys must be a primitive type"),
        ("struct<>", "expected a struct field name"),
        ("int extra", "unexpected"),
        ("", "a type is required"),
    ],
)
def test_bad_types_are_explained(written: str, message: str) -> None:
    with pytest.raises(HiveTypeError) as raised:
        parse(written)
    assert message in str(raised.value)


def test_struct_field_case_is_not_a_difference() -> None:
    assert same_type("struct<Qty:int>", "struct<qty:int>")
    assert not same_type("struct<qty:int>", "struct<qty:bigint>")
