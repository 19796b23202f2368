"""The YAML reader: YAML 1.2 scalars, positions, and text that tries to hurt it."""

from __future__ import annotations

from pathlib import Path

import pytest

from gluecat.errors import SpecError
from gluecat.model.base import scalar_to_text
from gluecat.project.source import read_yaml
from gluecat.project.yamlparse import MAX_DEPTH, YamlError, parse

SCALARS = [
    # (as written, the text a Text field gets): YAML 1.2 core schema, no YAML 1.1 surprises
    ("yes", "yes"),
    ("on", "on"),
    ("off", "off"),
    ("n", "n"),
    ("True", "true"),
    ("FALSE", "false"),
    ("2024-02-29", "2024-02-29"),
    ("2024-01-01T10:00:00", "2024-01-01T10:00:00"),
    ("12:30", "12:30"),
    ("0777", "777"),
    ("0o17", "15"),
    ("0x1F", "31"),
    ("1_000", "1000"),
    ("1e3", "1000.0"),
    ("1.50", "1.5"),
    ("'0777'", "0777"),
    ('"true"', "true"),
    ("!!str 12", "12"),
    ("0x_", "0x_"),
    ("1,000", "1,000"),
]


@pytest.mark.parametrize(("written", "text"), SCALARS)
def test_scalars_read_as_yaml_1_2(written: str, text: str) -> None:
    assert scalar_to_text(parse(f"k: {written}\n").data["k"]) == text


@pytest.mark.parametrize("written", ["~", "null", "NULL", ""])
def test_nulls(written: str) -> None:
    assert parse(f"k: {written}\n").data == {"k": None}


def test_positions_of_keys_values_and_items() -> None:
    parsed = parse("a: 1\nb:\n  - x\n  - {c: d}\n")
    assert parsed.value_marks[("a",)] == (0, 3)
    assert parsed.key_marks[("b",)] == (1, 0)
    assert parsed.value_marks[("b", 1)] == (3, 4)
    assert parsed.value_marks[("b", 1, "c")] == (3, 8)


def _error(text: str) -> YamlError:
    with pytest.raises(YamlError) as caught:
        parse(text)
    return caught.value


def test_alias_bomb_is_refused_at_the_anchor() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 30)]
    error = _error("\n".join(lines) + "\n")
    assert (error.line, error.column) == (1, 5)
    assert "anchors" in error.message


def test_alias_is_refused() -> None:
    error = _error("a: x\nb: *x\n")
    assert error.line == 2
    assert "not supported" in error.message or "undefined" in error.message


@pytest.mark.parametrize("opening", ["[", "{a: ", "- "])
def test_nesting_thousands_deep_is_refused(opening: str) -> None:
    depth = 100_000
    closing = {"[": "]", "{a: ": "}", "- ": ""}[opening]
    error = _error("k: " + opening * depth + "x" + closing * depth + "\n" if opening != "- " else "- " * depth + "x\n")
    assert f"more than {MAX_DEPTH} levels" in error.message


def test_duplicate_key_names_the_second() -> None:
    error = _error("a: 1\nb: 2\na: 3\n")
    assert (error.line, error.column, "duplicate key 'a'" in error.message) == (3, 1, True)


@pytest.mark.parametrize(
    ("content", "line", "column", "words"),
    [
        (b"a: b\nc: d\x00e\n", 2, 5, "control character #x0000"),
        (b"a: b\x07\n", 1, 5, "control character #x0007"),
        (b"a: ok\nb: caf\xe9\n", 2, 7, "not UTF-8 text (byte 0xe9)"),
        (b"a: 1\n---\nb: 2\n", 2, 1, "one YAML document"),
        (b"[a, b]\n", 1, 1, "expected a mapping"),
        (b"a: !!python/object:os.system x\n", 1, 4, "not supported"),
        (b"? [a]\n: b\n", 1, 3, "a key must be a single value"),
    ],
)
def test_bad_bytes_are_located(tmp_path: Path, content: bytes, line: int, column: int, words: str) -> None:
    path = tmp_path / "t.yaml"
    path.write_bytes(content)
    with pytest.raises(SpecError) as caught:
        read_yaml(path)
    position = caught.value.position
    assert words in caught.value.message, caught.value.message
    assert (position.line, position.column) == (line, column), caught.value.message


def test_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_bytes(b"\xef\xbb\xbfa: b\n")
    assert read_yaml(path).data == {"a": "b"}
