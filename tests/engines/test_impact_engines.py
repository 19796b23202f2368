"""Each impact rule, checked against the engines: a table is applied, files are written under its
columns, gluecat changes it, and Trino and Spark read the old files with the new columns.

A finding says which engines a change breaks; here each engine says so itself: the change breaks
an engine when what it reads differs from what the change means (or it fails). Athena is judged by
Trino, its engine family, where its documentation agrees (Athena reads ORC by index and Parquet by
name, as Trino does by default), and by the documentation where it does not. Spark reads the same tables through its own
Hive catalog, created from `spark-conf --format ddl` (it reaches Glue only through EMR's client).
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from typing import Any

import fastavro
import pyarrow as pa
import pyarrow.orc as orc
import pyarrow.parquet as pq
import pytest

from tests.engines.conftest import Lake
from tests.integration.helpers import gluecat

DATABASE = "impact"


@dataclass(frozen=True)
class Case:
    table: str
    storage: str
    before: list[tuple[str, str]]
    after: list[tuple[str, str]]
    rows: list[tuple[Any, ...]]  # in the columns before
    probe: list[str]  # the columns read after the change
    meant: list[list[Any]]  # what the probe reads when the change keeps its meaning
    rule: str  # the finding gluecat must report
    extra_before: str = ""
    extra_after: str = ""
    storage_after: str | None = None
    files_at: str | None = None  # where the old files are, when the change moves the table
    notes: dict[str, str] = field(default_factory=dict)


AB = [("a", "int"), ("b", "string")]
CASES = [
    Case("add_end_csv", "csv", AB, [*AB, ("c", "string")], [(1, "x")], ["a", "b", "c"], [[1, "x", None]], "add-at-end"),
    Case("insert_csv", "csv", AB, [AB[0], ("c", "string"), AB[1]], [(1, "x")], ["a", "b", "c"], [[1, "x", None]],
         "insert-by-position"),
    Case("insert_parquet", "parquet", AB, [AB[0], ("c", "string"), AB[1]], [(1, "x")], ["a", "b", "c"],
         [[1, "x", None]], "add-by-name"),
    Case("insert_orc", "orc", AB, [AB[0], ("c", "string"), AB[1]], [(1, "x")], ["a", "b", "c"], [[1, "x", None]],
         "insert-by-position"),
    Case("drop_mid_csv", "csv", [*AB, ("c", "string")], [AB[0], ("c", "string")], [(1, "x", "y")], ["a", "c"],
         [[1, "y"]], "drop-by-position"),
    Case("drop_parquet", "parquet", AB, [AB[0]], [(1, "x")], ["a", "b"], [[1, "x"]], "drop-by-name"),
    Case("reorder_csv", "csv", [("a", "string"), ("b", "string")], [("b", "string"), ("a", "string")], [("p", "q")],
         ["a", "b"], [["p", "q"]], "reorder-by-position"),
    Case("reorder_parquet", "parquet", [("a", "string"), ("b", "string")], [("b", "string"), ("a", "string")],
         [("p", "q")], ["a", "b"], [["p", "q"]], "reorder-by-name"),
    Case("reorder_orc", "orc", [("a", "string"), ("b", "string")], [("b", "string"), ("a", "string")],
         [("p", "q")], ["a", "b"], [["p", "q"]], "reorder-by-position"),
    Case("rename_parquet", "parquet", AB, [AB[0], ("c", "string")], [(1, "x")], ["a", "c"], [[1, "x"]],
         "rename-by-name"),
    Case("rename_csv", "csv", AB, [AB[0], ("c", "string")], [(1, "x")], ["a", "c"], [[1, "x"]], "rename-by-position"),
    Case("widen_parquet", "parquet", [("a", "int")], [("a", "bigint")], [(1,)], ["a"], [[1]], "type-widen-parquet"),
    Case("widen_avro", "avro", [("a", "int")], [("a", "bigint")], [(1,)], ["a"], [[1]], "type-widen"),
    Case("widen_orc", "orc", [("a", "int")], [("a", "bigint")], [(1,)], ["a"], [[1]], "type-widen"),
    Case("to_text_csv", "csv", [("a", "int")], [("a", "string")], [(1,)], ["a"], [["1"]], "type-change-text"),
    Case("unparsable_csv", "csv", [("a", "string")], [("a", "int")], [("x",)], ["a"], [["x"]], "type-change-text"),
    Case("retype_parquet", "parquet", [("a", "string")], [("a", "int")], [("1",)], ["a"], [[1]], "type-change"),
    Case("retype_orc", "orc", [("a", "int")], [("a", "string")], [(1,)], ["a"], [["1"]], "type-change"),
    Case("storage_parquet_orc", "parquet", [("a", "int")], [("a", "int")], [(1,)], ["a"], [[1]], "storage-change",
         storage_after="orc"),
    Case("delimiter_csv", "csv", AB, AB, [(1, "x")], ["a", "b"], [[1, "x"]], "serde-parameters",
         extra_after="serde:\n  parameters: {field.delim: ';', serialization.format: ';'}\n"),
    Case("location_parquet", "parquet", [("a", "int")], [("a", "int")], [(1,)], ["a"], [[1]], "location-change",
         extra_after="location: s3://lake/impact/location_parquet_v2\n"),
    Case("describe_parquet", "parquet", [("a", "int")], [("a", "int")], [(1,)], ["a"], [[1]], "metadata-only",
         extra_after="description: now described\n"),
]  # fmt: skip

# Where Athena's documentation says otherwise than Trino does, the rule follows the documentation:
# "Handling schema updates" lists ORC column type changes as unsupported.
ATHENA_BY_ITS_DOCUMENTATION = {"retype_orc": True}

ARROW = {"int": pa.int32(), "bigint": pa.int64(), "string": pa.string()}
AVRO = {"int": "int", "bigint": "long", "string": "string"}


def _encode(storage: str, columns: list[tuple[str, str]], rows: list[tuple[Any, ...]]) -> bytes:
    names = [n for n, _ in columns]
    if storage == "csv":
        return "".join(",".join(str(v) for v in row) + "\n" for row in rows).encode()
    buffer = io.BytesIO()
    if storage in ("parquet", "orc"):
        schema = pa.schema([(n, ARROW[t]) for n, t in columns])
        table = pa.Table.from_pylist([dict(zip(names, row, strict=True)) for row in rows], schema=schema)
        (pq.write_table if storage == "parquet" else orc.write_table)(table, buffer)
    elif storage == "avro":
        schema = {"type": "record", "name": "r", "fields": [{"name": n, "type": AVRO[t]} for n, t in columns]}
        fastavro.writer(buffer, fastavro.parse_schema(schema), [dict(zip(names, row, strict=True)) for row in rows])
    return buffer.getvalue()


def _yaml(case: Case, columns: list[tuple[str, str]], storage: str, extra: str) -> str:
    listed = "".join(f"  - {{name: {n}, type: {t}}}\n" for n, t in columns)
    return f"storage: {storage}\ncolumns:\n{listed}{extra}"


def _files(after: bool) -> dict[str, str]:
    files = {f"{DATABASE}/database.yaml": f"location: s3://lake/{DATABASE}/\n"}
    for case in CASES:
        text = (
            _yaml(case, case.after, case.storage_after or case.storage, case.extra_after)
            if after
            else _yaml(case, case.before, case.storage, case.extra_before)
        )
        files[f"{DATABASE}/tables/{case.table}.yaml"] = text
    return files


def _read(reader: Any, sql: str) -> list[list[Any]] | str:
    try:
        return [list(row) for row in reader(sql)]
    except Exception as exc:  # an engine that fails to read breaks, whatever the error
        return f"fails: {str(exc).splitlines()[0][:200]}"


@pytest.fixture(scope="module")
def verdicts(module_lake: Lake, spark: Any) -> dict[str, dict[str, Any]]:
    module_lake.project(_files(after=False))
    module_lake.apply()
    for case in CASES:
        module_lake.put(f"{DATABASE}/{case.table}/part-0", _encode(case.storage, case.before, case.rows))
    module_lake.project(_files(after=True))
    planned = gluecat("plan", str(module_lake.root), "--format", "json")
    assert planned.exit_code == 0, planned.output
    changes = {c["address"]: c for c in json.loads(planned.stdout)["changes"]}
    module_lake.apply()
    ddl = gluecat("spark-conf", str(module_lake.root), "--format", "ddl")
    assert ddl.exit_code == 0, ddl.output
    for statement in (s.strip() for s in ddl.stdout.split(";\n") if s.strip()):
        spark.sql(statement.rstrip(";"))
    found: dict[str, dict[str, Any]] = {}
    for case in CASES:
        columns = ", ".join(case.probe)
        found[case.table] = {
            "findings": changes[f"{DATABASE}.{case.table}"]["findings"],
            "trino": _read(module_lake.query, f"SELECT {columns} FROM hive.{DATABASE}.{case.table}"),
            "spark": _read(lambda sql: spark.sql(sql).collect(), f"SELECT {columns} FROM {DATABASE}.{case.table}"),
        }
    return found


@pytest.mark.parametrize("case", CASES, ids=[c.table for c in CASES])
def test_each_rule_names_exactly_the_engines_the_change_breaks(verdicts: dict[str, Any], case: Case) -> None:
    seen = verdicts[case.table]
    (finding,) = [f for f in seen["findings"] if f["rule"] == case.rule] or [None]
    assert finding is not None, f"{case.table}: no {case.rule} finding in {seen['findings']}"
    broken = {engine for engine in ("trino", "spark") if seen[engine] != case.meant}
    said = set(finding["engines"]) if finding["impact"] != "safe" else set()
    assert said & {"trino", "spark"} == broken, (
        f"{case.table}: {case.rule} ({finding['impact']}, {finding['engines']}) but trino read {seen['trino']},"
        f" spark read {seen['spark']}; the change means {case.meant}"
    )
    athena_breaks = ATHENA_BY_ITS_DOCUMENTATION.get(case.table, "trino" in said)
    assert ("athena" in said) == athena_breaks, "Athena is judged with Trino, its engine family, unless its docs differ"
