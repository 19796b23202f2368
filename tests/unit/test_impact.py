"""The impact rules, the gate, the markdown budget and Spark's schema copy, as pure functions."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pyspark.sql.types import StructType

from gluecat.changes.impact import Finding, Impact, worst
from gluecat.changes.model import Action, Change, FieldDiff, PartitionChanges, Plan
from gluecat.convert.hive import hive_table_input
from gluecat.kinds.hive.impact import Storage, column_findings, hive_findings, storage_of, type_finding
from gluecat.kinds.hive.partition_drift import partition_drift
from gluecat.kinds.hive.spark_schema import NUM_PARTS, PART, read_schema, rewritten
from gluecat.model import HiveTable
from gluecat.plan.gate import gate_refusal
from gluecat.render import markdown

CSV = Storage("csv", True)
PARQUET = Storage("parquet", False)
BASE = [("a", "int"), ("b", "string"), ("c", "int")]


def _shape(**keys: Any) -> dict[str, Any]:
    table = HiveTable(name="t", columns=[{"name": "a", "type": "int"}], **keys)
    return dict(hive_table_input(table, "s3://lake/t"))


def _rules(findings: list[Finding]) -> dict[str, Impact]:
    return {f.rule: f.impact for f in findings}


def test_impact_is_ordered() -> None:
    assert Impact.SAFE < Impact.BREAKING < Impact.DESTRUCTIVE
    assert Impact.DESTRUCTIVE >= Impact.BREAKING and not Impact.SAFE >= Impact.BREAKING
    assert worst([Impact.SAFE, Impact.DESTRUCTIVE, Impact.BREAKING]) is Impact.DESTRUCTIVE
    assert worst([]) is Impact.SAFE


@pytest.mark.parametrize(
    ("storage", "keys", "expected"),
    [
        ("csv", {}, Storage("csv", True)),
        ("tsv", {}, Storage("tsv", True)),
        ("text", {}, Storage("text", True)),
        ("opencsv", {}, Storage("csv", True)),
        ("json", {}, Storage("json", False)),
        ("avro", {}, Storage("avro", False)),
        ("parquet", {}, Storage("parquet", False)),
        ("parquet", {"serde": {"parameters": {"parquet.column.index.access": "true"}}}, Storage("parquet", True)),
        ("orc", {}, Storage("orc", True, by_name_anyway=("spark",))),  # Spark reads ORC field names
        ("orc", {"serde": {"parameters": {"orc.column.index.access": "false"}}}, Storage("orc", False)),
        ("orc", {"parameters": {"orc.column.index.access": "false"}}, Storage("orc", False)),
    ],
)
def test_column_mapping_follows_the_format(storage: str, keys: dict[str, Any], expected: Storage) -> None:
    assert storage_of(_shape(storage=storage, **keys)) == expected


def test_positional_insert_names_the_shifted_columns() -> None:
    findings = column_findings(BASE, [("a", "int"), ("x", "string"), *BASE[1:]], CSV)
    assert findings == [
        Finding(
            "insert-by-position",
            Impact.BREAKING,
            "csv reads columns by position: inserting `x` before `b` shifts `b` and `c` in every existing file",
        )
    ]


def test_drop_plus_add_at_the_same_place_is_a_likely_rename() -> None:
    renamed = [("a", "int"), ("b2", "string"), ("c", "int")]
    (finding,) = column_findings(BASE, renamed, PARQUET)
    assert finding.rule == "rename-by-name" and finding.impact is Impact.BREAKING
    assert "likely a rename" in finding.message and "`b2` reads NULL" in finding.message
    assert _rules(column_findings(BASE, renamed, CSV)) == {"rename-by-position": Impact.SAFE}


def test_a_retyped_replacement_is_a_drop_and_an_add() -> None:
    rules = _rules(column_findings(BASE, [("a", "int"), ("b2", "bigint"), ("c", "int")], PARQUET))
    assert rules == {"add-by-name": Impact.SAFE, "drop-by-name": Impact.BREAKING}


def test_drops_break_positional_and_by_name_readers() -> None:
    assert _rules(column_findings(BASE, BASE[:1] + BASE[2:], CSV)) == {"drop-by-position": Impact.BREAKING}
    assert _rules(column_findings(BASE, BASE[:2], CSV)) == {"drop-by-position": Impact.BREAKING}
    assert _rules(column_findings(BASE, BASE[:2], PARQUET)) == {"drop-by-name": Impact.BREAKING}


@pytest.mark.parametrize(
    ("storage", "before", "after", "impact", "rule"),
    [
        (PARQUET, "int", "bigint", Impact.BREAKING, "type-widen-parquet"),
        (PARQUET, "float", "double", Impact.BREAKING, "type-widen-parquet"),
        (PARQUET, "int", "string", Impact.BREAKING, "type-change"),
        (PARQUET, "bigint", "int", Impact.BREAKING, "type-change"),
        (Storage("orc", False), "int", "bigint", Impact.SAFE, "type-widen"),
        (Storage("avro", False), "int", "bigint", Impact.SAFE, "type-widen"),
        (CSV, "int", "bigint", Impact.SAFE, "type-change-text"),
        (CSV, "int", "string", Impact.SAFE, "type-change-text"),
        (CSV, "int", "varchar(10)", Impact.SAFE, "type-change-text"),
        (CSV, "string", "int", Impact.BREAKING, "type-change-text"),
        (Storage("json", False), "string", "date", Impact.BREAKING, "type-change-text"),
    ],
)
def test_type_changes(storage: Storage, before: str, after: str, impact: Impact, rule: str) -> None:
    finding = type_finding("c", before, after, storage)
    assert (finding.impact, finding.rule) == (impact, rule)


def test_widening_on_parquet_says_which_engine_fails() -> None:
    message = type_finding("c", "int", "bigint", PARQUET).message
    assert "Athena reads" in message and "Spark's vectorized Parquet reader fails" in message


def test_switching_the_index_access_flag_breaks() -> None:
    live = _shape(storage="parquet")
    desired = _shape(storage="parquet", serde={"parameters": {"parquet.column.index.access": "true"}})
    assert _rules(hive_findings(live, desired)) == {"column-mapping-switch": Impact.BREAKING}


def test_storage_change_breaks() -> None:
    assert _rules(hive_findings(_shape(storage="csv"), _shape(storage="parquet"))) == {
        "storage-change": Impact.BREAKING
    }


def test_unchanged_shape_has_no_findings() -> None:
    assert hive_findings(_shape(storage="csv"), _shape(storage="csv", description="x")) == []


@given(st.permutations(["a", "b", "c", "d"]))
def test_reordering_never_breaks_by_name_and_always_breaks_by_position(order: list[str]) -> None:
    live = [(n, "int") for n in "abcd"]
    desired = [(n, "int") for n in order]
    by_name, by_position = column_findings(live, desired, PARQUET), column_findings(live, desired, CSV)
    assert all(f.impact is Impact.SAFE for f in by_name)
    assert (worst(f.impact for f in by_position) is Impact.BREAKING) == (order != list("abcd"))


def _partition(values: str, columns: list[tuple[str, str]]) -> dict[str, Any]:
    descriptor = {"Columns": [{"Name": n, "Type": t} for n, t in columns], "SerdeInfo": {}}
    return {"Values": [values], "StorageDescriptor": descriptor}


def test_partition_drift_counts_what_athena_rejects() -> None:
    table = {"Columns": [{"Name": "a", "Type": "bigint"}, {"Name": "x", "Type": "string"}], "SerdeInfo": {}}
    partitions = [
        _partition("1", [("a", "bigint"), ("x", "string")]),  # in step
        _partition("2", [("a", "int")]),  # widening, and x absent: compatible
        _partition("3", [("a", "boolean")]),  # incompatible
    ]
    drift = partition_drift(partitions, table, CSV)
    assert (drift.total, drift.drifted, drift.mismatched) == (3, (("2",), ("3",)), 1)
    finding = drift.finding(CSV, follow=False)
    assert finding is not None and finding.impact is Impact.BREAKING
    assert "2 of 3 partitions" in finding.message and "1 of them" in finding.message
    followed = drift.finding(CSV, follow=True)
    assert followed is not None and followed.impact is Impact.SAFE


def _change(address: str, impact: Impact, allow: str | None = None, diffs: int = 1) -> Change:
    findings = (Finding("rule", impact, "why " * 5),)
    fields = tuple(FieldDiff(f"columns.c{i}", "int", "bigint") for i in range(diffs))
    return Change(address, "table", Action.UPDATE, "db", address, {}, fields, findings=findings, allow_breaking=allow)


def test_gate() -> None:
    plan = Plan("c", (_change("db.a", Impact.SAFE), _change("db.b", Impact.BREAKING)))
    assert gate_refusal(plan, None) is None
    assert gate_refusal(plan, "destructive") is None
    refusal = gate_refusal(plan, "breaking")
    assert refusal is not None and "db.b (breaking)" in refusal and "\n" not in refusal
    allowed = Plan("c", (_change("db.b", Impact.BREAKING, allow="moved readers"),))
    assert gate_refusal(allowed, "breaking") is None
    deleting = Plan("c", partitions=(PartitionChanges("db", "t", ("dt",), {}, deletes=(("1",),)),))
    assert gate_refusal(deleting, "breaking") is not None


def test_markdown_leads_with_the_worst_changes() -> None:
    plan = Plan("c", (_change("db.safe", Impact.SAFE), _change("db.broken", Impact.BREAKING)))
    text = markdown.render(plan)
    assert text.index("Breaking (1)") < text.index("db.broken") < text.index("Safe (1)") < text.index("db.safe")
    assert "**Impact: breaking (1 breaking, 1 safe)**" in text


def test_markdown_stays_within_the_comment_limit() -> None:
    changes = [_change(f"db.t{i}", Impact.BREAKING if i % 50 == 0 else Impact.SAFE, diffs=20) for i in range(2000)]
    text = markdown.render(Plan("c", tuple(changes)))
    assert len(text) <= markdown.COMMENT_LIMIT
    assert "summarised" in text and "Breaking (40)" in text
    assert "db.t1950" in text, "breaking changes come first, so they survive the cut"


def test_spark_schema_copy_is_split_like_spark() -> None:
    columns = [{"Name": f"column_{i}", "Type": "decimal(12,2)"} for i in range(200)]
    parameters = rewritten({"spark.sql.sources.schema": "{}", "owner": "x"}, columns, [{"Name": "dt", "Type": "date"}])
    parts = int(parameters[NUM_PARTS])
    assert parts > 1 and all(len(parameters[f"{PART}{i}"]) == 4000 for i in range(parts - 1))
    assert "spark.sql.sources.schema" not in parameters and parameters["owner"] == "x"
    schema = StructType.fromJson(read_schema(parameters) or {})
    assert schema.fieldNames()[-1] == "dt" and len(schema.fields) == 201
    assert schema["column_0"].dataType.simpleString() == "decimal(12,2)"


def test_spark_schema_types() -> None:
    columns = [
        {"Name": "i", "Type": "int"},
        {"Name": "v", "Type": "varchar(10)", "Comment": "short"},
        {"Name": "m", "Type": "map<string,array<struct<x:bigint,y:tinyint>>>"},
    ]
    schema = StructType.fromJson(json.loads(json.dumps(read_schema(rewritten({}, columns, [])))))
    assert schema.simpleString() == "struct<i:int,v:string,m:map<string,array<struct<x:bigint,y:tinyint>>>>"
    assert schema["v"].metadata == {"__CHAR_VARCHAR_TYPE_STRING": "varchar(10)", "comment": "short"}


def test_partitions_read_without_their_columns_are_not_judged() -> None:
    table = {"Columns": [{"Name": "a", "Type": "bigint"}], "SerdeInfo": {}}
    bare = {"Values": ["1"], "StorageDescriptor": {"Location": "s3://lake/t/1"}}
    drift = partition_drift([bare, _partition("2", [("a", "boolean")])], table, CSV)
    assert (drift.drifted, drift.mismatched) == ((("2",),), 1)
