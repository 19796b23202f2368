"""import's direct YAML writer is PyYAML's emitter, byte for byte, wherever it writes at all; and it
writes the files a real import makes."""

from __future__ import annotations

from typing import Any

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from gluecat.adopt import yamlfast, yamlout

WORDS = ["yes", "No", "on", "null", "~", "", " ", "1", "01", "0o7", "-0x1F", "1_000", "1e3", ".5", "1:30:00", "- a",
         ": a", "a: b", "#x", "a #b", "'q'", '"d"', "é", "日本", "a\tb", "x\ny", " lead", "trail ", "@a", "`a", "%a", "!a",
         "&a", "*a", "|", ">", "{a}", "[a]", ",", "?", "2024-01-01", ".inf", "NaN", "<<", "s3://b/k=v/", "x" * 130,
         "decimal(12,2)", "array<struct<a:int>>", "\x85", "\u2028", "\x00", "\ufeff", "name", "type", "columns"]  # fmt: skip
text = st.one_of(
    st.sampled_from(WORDS), st.text(max_size=12), st.lists(st.sampled_from(WORDS), max_size=3).map("".join)
)
scalars = st.one_of(text, st.integers(), st.booleans(), st.none(), st.floats(allow_nan=False))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(text, inner, max_size=4)),
    max_leaves=20,
)


def _pyyaml(data: dict[str, Any]) -> str:
    return yaml.dump(
        data, Dumper=yamlout._Dumper, sort_keys=False, default_flow_style=False, allow_unicode=True, width=4096
    )


def _direct_is_pyyaml(data: dict[str, Any]) -> bool:
    """The direct writer leaves `data` to PyYAML, or writes exactly what PyYAML writes."""
    ordered = yamlout._ordered(data)
    direct = yamlfast.dump(ordered, yamlout._style, yamlout._RESOLVER)
    return direct is None or direct == _pyyaml(ordered)


@settings(max_examples=1500, deadline=None)
@given(st.dictionaries(text, values, min_size=1, max_size=6))
def test_the_direct_writer_writes_what_pyyaml_writes(data: dict[str, Any]) -> None:
    assert _direct_is_pyyaml(data)


def test_a_table_file_is_written_directly() -> None:
    table = {
        "description": "Orders, one row per order line",
        "location": "s3://lake/sales/orders/",
        "storage": "parquet",
        "columns": [{"name": "id", "type": "bigint", "comment": "Primary key"}, {"name": "on", "type": "boolean"}],
        "partition_keys": [{"name": "dt", "type": "string"}, {"name": "n", "type": "int"}],
        "partitions": [{"expand": {"dt": {"from": "2024-01-01", "to": "2024-03-31"}, "n": {"from": 0, "to": 9}}},
                       {"values": {"dt": "2023-12-31", "n": "7"}, "location": "s3://elsewhere/x/"}],
        "parameters": {"classification": "parquet", "has_encrypted_data": "false", "empty": "", "yes": "no"},
        "extra": {"StorageDescriptor": {"BucketColumns": [], "SerdeInfo": {}}},
    }  # fmt: skip
    ordered = yamlout._ordered(table)
    direct = yamlfast.dump(ordered, yamlout._style, yamlout._RESOLVER)
    assert direct is not None
    assert direct == _pyyaml(ordered)
    assert yaml.safe_load(direct) == table


# Shapes as import writes them, with text that stays on one line: the direct writer's own ground.
line = st.one_of(
    st.sampled_from([w for w in WORDS if w.isprintable()]), st.from_regex(r"[a-z_:/=.' -]{0,10}", fullmatch=True)
)
plain_values = st.recursive(
    st.one_of(line, st.integers(), st.booleans(), st.none()),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(line, inner, max_size=4)),
    max_leaves=25,
)


@settings(max_examples=1500, deadline=None)
@given(st.dictionaries(line, plain_values, min_size=1, max_size=6))
def test_the_direct_writer_nests_as_pyyaml_does(data: dict[str, Any]) -> None:
    assert _direct_is_pyyaml(data)
