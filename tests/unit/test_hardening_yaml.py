"""What import writes reads back as exactly what Glue held: any text (newlines, control characters,
Unicode line separators, a byte-order mark, `${`, YAML's own syntax) as a description, a parameter
key or a parameter value goes through import's references and YAML, then the project's reader and
interpolation, unchanged."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from gluecat.adopt.catalog import HEADER
from gluecat.adopt.refs import References, is_secret
from gluecat.adopt.yamlout import dump
from gluecat.project.interpolate import Context, interpolate
from gluecat.project.source import read_yaml

# Every character a Glue string can hold: control characters included, lone surrogates not (UTF-8).
values = st.text(alphabet=st.characters(codec="utf-8"), max_size=40)
keys = values.filter(lambda key: key != "")


def _read_back(tmp_path: Path, data: dict[str, Any]) -> Any:
    path = tmp_path / "t.yaml"
    path.write_text(dump(References({"lake": "dev-lake"}).apply(data, "sales.t"), HEADER), encoding="utf-8")
    result = interpolate(read_yaml(path), Context({"lake": "dev-lake"}, {}))
    assert not result.errors, result.errors
    return result.source.data


@settings(max_examples=300, deadline=None)
@given(description=values, key=keys, value=values)
@example(description="first line\nsecond\x01", key="k", value="a\r\nb")
@example(description="\x85next\nline\x7f", key="\ufeffkey", value="tab\tthen\nnew\u2028line")
@example(description="${var.lake}\n${env.X}\n$${", key="- item", value="null")
def test_any_text_import_writes_reads_back_the_same(
    tmp_path_factory: Any, description: str, key: str, value: str
) -> None:
    assume(not is_secret(key, value))  # written as `${env.NAME}` by design (test_hardening_secrets.py)
    tmp_path = tmp_path_factory.mktemp("yaml")
    data = {"description": description, "parameters": {key: value}}
    assert _read_back(tmp_path, data) == data


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(values, st.sampled_from(["on", "off", "yes", "No", "y", "1:30:00", "1e3", "0o17", "-0x1F", "1_000", ".inf", "~", "null", "2024-01-01"])))  # fmt: skip
def test_import_yaml_reads_as_text_in_yaml_1_1_and_1_2_readers(text: str) -> None:
    """Another tool reading the files (PyYAML and most Python scripts: YAML 1.1) reads the same text."""
    import yaml

    from gluecat.project.yamlparse import parse

    written = dump({"description": text, "parameters": {"k": text}})
    assert parse(written).data == {"description": text, "parameters": {"k": text}}
    assert yaml.safe_load(written) == {"description": text, "parameters": {"k": text}}
