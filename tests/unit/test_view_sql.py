"""Views written as SQL: offline checks, and Hive types spelled the Presto way."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gluecat.cli import app
from gluecat.convert.presto_view import decode, encode, normalise_presto, presto_type
from gluecat.convert.view import view_from_glue
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


def test_athena_engine_3_timestamp_precision_means_a_hive_timestamp() -> None:
    """Athena engine 3 writes `timestamp(3)` into the view JSON for a Glue `timestamp` column."""
    assert normalise_presto("timestamp(3)") == normalise_presto(presto_type("timestamp"))
    assert normalise_presto("ROW(t TIMESTAMP(3), a ARRAY(timestamp(3)))") == normalise_presto(
        presto_type("struct<t:timestamp,a:array<timestamp>>")
    )
    assert normalise_presto("timestamp(6)") != "timestamp"
    assert normalise_presto("timestamp(3) with time zone") == "timestamp(3)with time zone"
    columns = [{"Name": "t", "Type": "timestamp"}, {"Name": "n", "Type": "bigint"}]
    sql = "SELECT CAST(now() AS timestamp) t, count(*) n FROM events"
    payload = {"originalSql": sql, "catalog": "awsdatacatalog", "schema": "sales", "owner": "arn:aws:iam::1:user/a",
               "runAsInvoker": False, "columns": [{"name": "t", "type": "timestamp(3)"}, {"name": "n", "type": "bigint"}]}  # fmt: skip
    original = "/* Presto View: " + base64.b64encode(json.dumps(payload).encode()).decode() + " */"
    live = {"Name": "recent", "TableType": "VIRTUAL_VIEW", "Parameters": {"presto_view": "true", "comment": "Presto View"},
            "ViewOriginalText": original, "ViewExpandedText": "/* Presto View */",
            "StorageDescriptor": {"Columns": columns}}  # fmt: skip
    view = view_from_glue(live, "sales")
    assert (view.dialect, view.sql) == ("athena", sql)


def test_encode_decodes_to_exactly_the_sql() -> None:
    sql = "SELECT 'é', \"x\"\nFROM t -- comment */ inside"
    text = encode(sql, "sales", [("x", "string")])
    assert text.startswith("/* Presto View: ") and text.endswith(" */")
    assert decode(text) == {"originalSql": sql, "catalog": "awsdatacatalog", "schema": "sales",
                            "columns": [{"name": "x", "type": "varchar"}], "runAsInvoker": True}  # fmt: skip
    assert decode("/* Presto View: ... */") is None and decode("SELECT 1") is None
