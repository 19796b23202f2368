"""Views written as SQL: offline checks, and Hive types spelled the Presto way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gluecat.cli import app
from gluecat.convert.presto_view import decode, encode, normalise_presto, presto_type
from tests.unit.test_validate import make_project

VIEW = """\
format: view
dialect: athena
sql: SELECT id FROM sales.orders
columns:
  - {name: id, type: bigint}
"""


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("sql: SELECT id FROM sales.orders", "sql: '  '", "needs `sql`"),
        ("columns:\n  - {name: id, type: bigint}\n", "", "needs `columns`"),
        ("type: bigint", "type: uniontype<int,string>", "uniontype"),
        ("dialect: athena", "dialect: presto", "'athena' or 'spark'"),
        ("dialect: athena\n", "", "`sql` needs `dialect"),
    ],
)
def test_view_mistakes_are_reported_at_their_place(tmp_path: Path, old: str, new: str, words: str) -> None:
    assert old in VIEW
    root = make_project(tmp_path, {"sales/tables/totals.yaml": VIEW.replace(old, new)})
    result = CliRunner().invoke(app, ["validate", str(root), "--format", "json"])
    assert result.exit_code == 1, result.output
    findings = [f for f in json.loads(result.output)["findings"] if words in f["message"]]
    assert findings, result.output
    assert findings[0]["path"].endswith("totals.yaml") and findings[0]["line"] >= 1


def test_a_sql_view_validates(tmp_path: Path) -> None:
    root = make_project(tmp_path, {"sales/tables/totals.yaml": VIEW})
    assert CliRunner().invoke(app, ["validate", str(root)]).exit_code == 0


def test_presto_type_names() -> None:
    assert presto_type("string") == "varchar"
    assert presto_type("INT") == "integer"
    assert presto_type("float") == "real"
    assert presto_type("binary") == "varbinary"
    assert presto_type("decimal(10, 2)") == "decimal(10,2)"
    assert presto_type("varchar(20)") == "varchar(20)"
    assert presto_type("array<struct<a:string,`B c`:int>>") == 'array(row(a varchar,"B c" integer))'
    assert presto_type("map<string,bigint>") == "map(varchar,bigint)"
    assert normalise_presto("ROW( a  VARCHAR , b integer )") == "row(a varchar,b integer)"


def test_encode_decodes_to_exactly_the_sql() -> None:
    sql = "SELECT 'é', \"x\"\nFROM t -- comment */ inside"
    text = encode(sql, "sales", [("x", "string")])
    assert text.startswith("/* Presto View: ") and text.endswith(" */")
    assert decode(text) == {"originalSql": sql, "catalog": "awsdatacatalog", "schema": "sales",
                            "columns": [{"name": "x", "type": "varchar"}]}  # fmt: skip
    assert decode("/* Presto View: ... */") is None and decode("SELECT 1") is None
