"""Counts read as English: `1 table`, `2 tables`, `1,200 partitions`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gluecat.cli import app
from gluecat.errors import GluecatError
from gluecat.model.words import a
from gluecat.plan import document
from gluecat.text.plain import counted, counted_phrase

GLUECAT = Path(__file__).parents[2] / "gluecat"


@pytest.mark.parametrize(
    ("count", "expected"), [(0, "0 tables"), (1, "1 table"), (2, "2 tables"), (1200, "1,200 tables")]
)
def test_counted(count: int, expected: str) -> None:
    assert counted(count, "table") == expected


def test_counted_phrase() -> None:
    assert counted_phrase(1, "partitions deleted") == "1 partition deleted"
    assert counted_phrase(1200, "partitions deleted") == "1,200 partitions deleted"
    assert counted_phrase(1, "databases") == "1 database"


def test_validate_counts_one_of_each(tmp_path: Path) -> None:
    (tmp_path / "catalog.yaml").write_text("region: eu-west-1\n")
    (tmp_path / "sales" / "tables").mkdir(parents=True)
    (tmp_path / "sales" / "database.yaml").write_text("location: s3://lake/sales/\n")
    (tmp_path / "sales" / "tables" / "orders.yaml").write_text("storage: parquet\ncolumns: [{name: id, type: int}]\n")
    result = CliRunner().invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert f"{tmp_path}: 1 database, 1 table, ok" in result.stdout


def test_validate_counts_one_error(tmp_path: Path) -> None:
    (tmp_path / "catalog.yaml").write_text("region: eu-west-1\n")
    (tmp_path / "sales" / "tables").mkdir(parents=True)
    (tmp_path / "sales" / "database.yaml").write_text("location: s3://lake/sales/\n")
    (tmp_path / "sales" / "tables" / "orders.yaml").write_text("storage: parquet\ncolumns: [{name: id, type: intt}]\n")
    result = CliRunner().invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 1
    assert "1 error," in result.output
    assert "1 errors" not in result.output


@pytest.mark.parametrize(
    ("count", "phrase", "expected"),
    [
        (1, "LF-tag assignments created", "1 LF-tag assignment created"),
        (3, "LF-tag assignments created", "3 LF-tag assignments created"),
        (1, "lists of data lake administrators updated", "1 list of data lake administrators updated"),
        (1, "indexes deleted", "1 index deleted"),
        (1, "partitions registered", "1 partition registered"),
        (1, "policies", "1 policy"),
    ],
)
def test_counted_phrase_makes_the_head_noun_singular(count: int, phrase: str, expected: str) -> None:
    assert counted_phrase(count, phrase) == expected


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("athena view", "an athena view"),
        ("spark view", "a spark view"),
        ("trino", "a trino"),
        ("iceberg update", "an iceberg update"),
        ("hive", "a hive"),
        ("index change", "an index change"),
        ("update", "an update"),
        ("env name", "an env name"),
        ("var name", "a var name"),
        ("LF-tag", "an LF-tag"),
        ("S3 location", "an S3 location"),
        ("Glue table", "a Glue table"),
        ("unique key", "a unique key"),
    ],
)
def test_the_article_follows_the_sound_of_the_word(word: str, expected: str) -> None:
    assert a(word) == expected


def test_no_message_puts_a_fixed_a_before_a_word_it_was_given() -> None:
    """`f"a {kind} view"` reads "a athena view"; `a(kind)` does not. Fixed words are listed."""
    fixed = {"a {DATABASE_FILE}", "a {what}"}  # database.yaml; PyYAML's own "while parsing a mapping"
    found = [
        f"{path.name}:{number}: {match.group(0)}"
        for path in sorted(GLUECAT.rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        for match in re.finditer(r"(?<=[\s\"'(])[Aa] \{[^}]*\}", line)
        if match.group(0) not in fixed
    ]
    assert found == []


def test_pydantic_s_wording_does_not_reach_the_user(tmp_path: Path) -> None:
    (tmp_path / "catalog.yaml").write_text("region: eu-west-1\nsandbox: maybe\n")

    result = CliRunner().invoke(app, ["validate", str(tmp_path)])

    assert "catalog.yaml:2:10: `sandbox` should be true or false, not the text 'maybe'" in result.output
    assert "unable to interpret" not in result.output and "valid boolean" not in result.output


def test_a_tampered_plan_is_refused_in_gluecat_s_words() -> None:
    change = {"address": "sales.orders", "kind": "index", "action": "create", "database": "sales", "table": None}
    change |= {"desired": {}, "diffs": [], "live_version": None, "reason": ""}
    data = {"catalog": "c", "changes": [change], "partitions": []}

    with pytest.raises(GluecatError) as refused:
        document.read(data)

    assert "Value error" not in str(refused.value)
    assert "sales.orders: an index change names no table" in str(refused.value)
