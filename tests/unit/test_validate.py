"""`gluecat validate` on broken projects: every message names file:line:column."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gluecat.cli import app

EXAMPLE = Path(__file__).parents[2] / "catalogs" / "example"

GOOD_DATABASE = "name: sales\nlocation: s3://lake/sales/\n"
GOOD_TABLE = """\
storage: parquet
columns:
  - name: id
    type: bigint
"""


def make_project(root: Path, files: dict[str, str]) -> Path:
    defaults = {
        "catalog.yaml": "region: eu-west-1\n",
        "sales/database.yaml": GOOD_DATABASE,
        "sales/tables/orders.yaml": GOOD_TABLE,
    }
    for relative, text in {**defaults, **files}.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


BROKEN = [
    # (case, file, content, line, column, expected words)
    (
        "yaml syntax",
        "sales/tables/orders.yaml",
        "columns: [a, b\nstorage: parquet\n",
        1,
        10,
        "this '[' is never closed: add ']'",
    ),
    (
        "tab indentation",
        "sales/tables/orders.yaml",
        "storage: parquet\ncolumns:\n\t- {name: id, type: bigint}\n",
        3,
        1,
        "a tab indents this line; YAML indents with spaces only",
    ),
    (
        "unclosed flow mapping",
        "sales/tables/orders.yaml",
        "storage: parquet\nparameters: {a: b\ncolumns:\n  - {name: id, type: bigint}\n",
        2,
        13,
        "this '{' is never closed",
    ),
    (
        "duplicate key",
        "sales/tables/orders.yaml",
        "storage: parquet\nstorage: orc\n",
        2,
        1,
        "duplicate key",
    ),
    (
        "unknown key",
        "sales/tables/orders.yaml",
        "storage: parquet\ncolums: []\n",
        2,
        1,
        "did you mean 'columns'",
    ),
    (
        "wrong value type",
        "sales/tables/orders.yaml",
        "storage: parquet\ncolumns: id\n",
        2,
        10,
        "valid list",
    ),
    (
        "unknown type",
        "sales/tables/orders.yaml",
        "storage: parquet\ncolumns:\n  - name: id\n    type: bigit\n",
        4,
        11,
        "did you mean 'bigint'",
    ),
    (
        "bad decimal",
        "sales/tables/orders.yaml",
        "storage: parquet\ncolumns:\n  - name: amount\n    type: decimal(40,2)\n",
        4,
        11,
        "precision must be 1..38",
    ),
    (
        "column name of two lines",
        "sales/tables/orders.yaml",
        'storage: parquet\ncolumns:\n  - name: "amount\\nusd"\n    type: int\n',
        3,
        11,
        "control character",
    ),
    ("bad table name", "sales/tables/Orders.yaml", GOOD_TABLE, 1, 1, "must be lowercase"),
    (
        "name differs from file",
        "sales/tables/orders.yaml",
        "name: order\nstorage: parquet\n",
        1,
        7,
        "must equal the file name 'orders'",
    ),
    ("missing database location", "sales/database.yaml", "name: sales\n", 1, 7, "no `location`"),
    (
        "partition key repeated",
        "sales/tables/orders.yaml",
        "storage: parquet\ncolumns:\n  - {name: dt, type: string}\npartition_keys:\n  - {name: dt, type: string}\n",
        5,
        12,
        "repeats a column",
    ),
    (
        "duplicate column",
        "sales/tables/orders.yaml",
        "storage: parquet\ncolumns:\n  - {name: a, type: int}\n  - {name: a, type: int}\n",
        3,
        12,
        "declared 2 times",
    ),
    (
        "iceberg key on hive",
        "sales/tables/orders.yaml",
        "storage: parquet\npartition_spec:\n  - {column: id}\n",
        2,
        1,
        "format: iceberg",
    ),
    (
        "hive key on iceberg",
        "sales/tables/orders.yaml",
        "format: iceberg\nstorage: parquet\n",
        2,
        1,
        "format: hive",
    ),
    (
        "required on hive column",
        "sales/tables/orders.yaml",
        "storage: parquet\ncolumns:\n  - {name: a, type: int, required: true}\n",
        3,
        26,
        "format: iceberg",
    ),
    (
        "unknown format",
        "sales/tables/orders.yaml",
        "format: icebreg\n",
        1,
        9,
        "did you mean 'iceberg'",
    ),
    (
        "delta without location",
        "sales/tables/orders.yaml",
        "format: delta\n",
        1,
        1,
        "needs `location`",
    ),
    (
        "delta partition column unknown",
        "sales/tables/orders.yaml",
        "format: delta\nlocation: s3://lake/sales/orders\npartition_columns: [dt]\n",
        3,
        21,
        "not among `columns`",
    ),
    (
        "unknown transform",
        "sales/tables/orders.yaml",
        "format: iceberg\ncolumns: [{name: ts, type: timestamp}]\n"
        "partition_spec:\n  - {column: ts, transform: daily}\n",
        4,
        29,
        "unknown transform 'daily'",
    ),
    (
        "partition values for the wrong key",
        "sales/tables/orders.yaml",
        "storage: parquet\npartition_keys: [{name: dt, type: string}]\npartitions:\n  - values: {day: '2024-01-01'}\n",
        4,
        13,
        "each partition key (dt)",
    ),
    (
        "bad date range",
        "sales/tables/orders.yaml",
        "storage: parquet\npartition_keys: [{name: dt, type: string}]\n"
        "partitions:\n  - expand:\n      dt: {from: 2024-13-01, to: 2024-12-31}\n",
        5,
        11,
        "is not a date",
    ),
    (
        "glue parameters on iceberg",
        "sales/tables/orders.yaml",
        "format: iceberg\nparameters: {a: b}\n",
        2,
        13,
        "use `properties`",
    ),
    (
        "iceberg-only type on hive",
        "sales/tables/orders.yaml",
        "storage: parquet\ncolumns: [{name: a, type: timestamptz}]\n",
        2,
        27,
        "only for format: iceberg",
    ),
    ("hive without storage", "sales/tables/orders.yaml", "columns: []\n", 1, 1, "needs `storage`"),
    ("unknown storage", "sales/tables/orders.yaml", "storage: parket\n", 1, 10, "unknown storage"),
    ("catalog key", "catalog.yaml", "regoin: eu-west-1\n", 1, 1, "did you mean 'region'"),
    ("description not text", "sales/tables/orders.yaml", GOOD_TABLE + "description: [a]\n", 5, 14, "`description`"),
    (
        "comment too long",
        "sales/tables/orders.yaml",
        GOOD_TABLE + "    comment: " + "x" * 256 + "\n",
        5,
        14,
        "at most 255",
    ),
    (
        "empty parameter key",
        "sales/tables/orders.yaml",
        GOOD_TABLE + "parameters: {'': x}\n",
        5,
        13,
        "may not be empty",
    ),
    ("alias", "sales/tables/orders.yaml", "storage: &s parquet\n", 1, 10, "anchors"),
    (
        "partition twice",
        "sales/tables/orders.yaml",
        GOOD_TABLE + "partition_keys: [{name: dt, type: string}]\npartitions:\n"
        "  - expand: {dt: {from: 2024-01-01, to: 2024-01-31}}\n  - values: {dt: '2024-01-05'}\n",
        8,
        5,
        "declared twice: here and by line 7:5",
    ),
    (
        "partition key twice",
        "sales/tables/orders.yaml",
        GOOD_TABLE + "partition_keys: [{name: dt, type: string}, {name: dt, type: string}]\n",
        5,
        44,
        "repeats the one at line 5:18",
    ),
    (
        "generator too large",
        "sales/tables/orders.yaml",
        GOOD_TABLE + "partition_keys: [{name: h, type: string}]\npartitions:\n"
        "  - expand: {h: {from: 0001-01-01, to: 9999-12-31, every: hour}}\n",
        7,
        5,
        "at most 1,000,000 per table",
    ),
    (
        "type nested too deep",
        "sales/tables/orders.yaml",
        "storage: parquet\ncolumns: [{name: a, type: '" + "array<" * 5000 + "int" + ">" * 5000 + "'}]\n",
        2,
        27,
        "nested more than 100 levels",
    ),
]


@pytest.mark.parametrize(("case", "relative", "content", "line", "column", "words"), BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_file_is_reported_at_its_position(
    tmp_path: Path, case: str, relative: str, content: str, line: int, column: int, words: str
) -> None:
    files = {relative: content}
    if relative != "sales/tables/orders.yaml" and relative.startswith("sales/tables/"):
        files["sales/tables/orders.yaml"] = GOOD_TABLE
        (tmp_path / "sales/tables").mkdir(parents=True, exist_ok=True)
    root = make_project(tmp_path, files)
    if relative == "sales/tables/Orders.yaml":
        (root / "sales/tables/orders.yaml").unlink()
    result = CliRunner().invoke(app, ["validate", str(root), "--format", "json"])
    assert result.exit_code == 1, result.output
    findings = json.loads(result.output)["findings"]
    expected_path = str(root / relative)
    matching = [
        f for f in findings if f["path"] == expected_path and words in f["message"] and f["severity"] == "error"
    ]
    assert matching, findings
    assert (matching[0]["line"], matching[0]["column"]) == (line, column), matching[0]


def test_example_catalog_is_clean() -> None:
    result = CliRunner().invoke(app, ["validate", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    assert "3 databases, 9 tables, ok" in result.output


def test_human_output_has_no_traceback(tmp_path: Path) -> None:
    root = make_project(
        tmp_path,
        {"sales/tables/orders.yaml": "storage: parquet\ncolumns:\n  - {name: a, type: bigit}\n"},
    )
    completed = subprocess.run(
        [sys.executable, "-m", "gluecat", "validate", str(root)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 1
    assert f"{root / 'sales/tables/orders.yaml'}:3:21: unknown type 'bigit'" in completed.stdout
    assert "Traceback" not in completed.stdout + completed.stderr


def test_location_outside_database_is_a_warning(tmp_path: Path) -> None:
    root = make_project(tmp_path, {"sales/tables/orders.yaml": GOOD_TABLE + "location: s3://elsewhere/orders\n"})
    result = CliRunner().invoke(app, ["validate", str(root)])
    assert result.exit_code == 0, result.output
    assert "warning: table location is outside its database location" in result.output


def test_not_a_project(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 1
    assert "catalog.yaml is missing" in result.output


def test_the_shipped_broken_catalog_fails_with_positions() -> None:
    broken = EXAMPLE.parent / "broken"
    result = CliRunner().invoke(app, ["validate", str(broken)])
    assert result.exit_code == 1
    assert f"{broken / 'sales/tables/orders.yaml'}:5:11: unknown type 'bigit' — did you mean 'bigint'?" in result.output
    assert "database has no `location`" in result.output, "lint still runs on the files that loaded"
    # The lint rules run on the rest of a file with errors: fixing the errors reveals nothing new.
    orders = broken / "sales/tables/orders.yaml"
    assert f"{orders}:6:11: warning: column name 'Amount'" in result.output
    assert f"{orders}:11:11: partition key 'dt' repeats a column" in result.output


def test_fixing_every_reported_error_reveals_no_new_one(tmp_path: Path) -> None:
    broken = shutil.copytree(EXAMPLE.parent / "broken", tmp_path / "broken")

    def findings() -> set[str]:  # without line and column: the fixes move lines
        output = CliRunner().invoke(app, ["validate", str(broken)]).output
        return {re.sub(r":\d+:\d+:", ":", line) for line in output.splitlines() if line.endswith("]")}

    first = findings()
    orders = broken / "sales/tables/orders.yaml"
    text = (
        orders.read_text()
        .replace("colums: []\n", "")
        .replace("bigit", "bigint")
        .replace("decimal(40,2)", "decimal(38,2)")
    )
    orders.write_text(text.replace("partition_spec:\n  - column: dt\n", ""))
    second = findings()
    assert second and second <= first, f"new after fixing: {second - first}"


def test_same_table_in_two_files_names_both(tmp_path: Path) -> None:
    root = make_project(tmp_path, {"sales/tables/orders.yml": GOOD_TABLE})
    result = CliRunner().invoke(app, ["validate", str(root)])
    assert result.exit_code == 1
    assert f"orders.yml:1:1: table 'orders' is also declared in {root / 'sales/tables/orders.yaml'}" in result.output


@pytest.mark.parametrize("kind", ["dangling link", "fifo", "directory"])
def test_table_file_that_is_not_a_file_is_an_error(tmp_path: Path, kind: str) -> None:
    root = make_project(tmp_path, {})
    odd = root / "sales/tables/refunds.yaml"
    if kind == "dangling link":
        odd.symlink_to(root / "nowhere.yaml")
    elif kind == "fifo":
        os.mkfifo(odd)
    else:
        odd.mkdir()
    result = CliRunner().invoke(app, ["validate", str(root)])
    assert result.exit_code == 1
    assert f"{odd}:1:1:" in result.output, result.output


def test_empty_partition_value_becomes_the_hive_default() -> None:
    from gluecat.model import HiveTable

    table = HiveTable.model_validate(
        {
            "storage": "parquet",
            "partition_keys": [{"name": "dt", "type": "string"}],
            "partitions": [{"values": {"dt": ""}}],
        }
    )
    assert table.partitions is not None
    assert table.partitions[0].values == {"dt": "__HIVE_DEFAULT_PARTITION__"}  # type: ignore[union-attr]


def test_markup_in_a_value_is_printed_not_interpreted(tmp_path: Path) -> None:
    root = make_project(tmp_path, {"sales/tables/orders.yaml": 'storage: "[/]"\n'})
    completed = subprocess.run(
        [sys.executable, "-m", "gluecat", "plan", str(root)], capture_output=True, text=True, check=False
    )
    assert completed.returncode == 1
    assert "unknown storage '[/]'" in completed.stderr
    assert "unexpected error" not in completed.stderr and "Traceback" not in completed.stderr


def test_typed_columns_of_an_opencsv_table_warn_that_trino_reads_text(tmp_path: Path) -> None:
    table = "storage: opencsv\ncolumns:\n  - {name: label, type: string}\n  - {name: id, type: bigint}\n"
    root = make_project(tmp_path, {"sales/tables/orders.yaml": table})
    result = CliRunner().invoke(app, ["validate", str(root)])
    assert result.exit_code == 0, result.output
    assert "orders.yaml:4:5: warning: Trino, Hive and Spark read every column" in result.output
    assert "so id will be text there" in result.output and "[engine-types]" in result.output
    all_text = "storage: opencsv\ncolumns:\n  - {name: id, type: string}\n"
    make_project(tmp_path, {"sales/tables/orders.yaml": all_text})
    assert "engine-types" not in CliRunner().invoke(app, ["validate", str(root)]).output


TRINO_REFUSES = {
    "hudi": """\
input_format: org.apache.hudi.hadoop.HoodieParquetInputFormat
output_format: org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat
serde: {library: org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe}
columns: [{name: id, type: bigint}]
""",
    "no_comment": """\
format: view
dialect: athena
sql: SELECT 1 AS id
columns: [{name: id, type: int}]
parameters: {comment: null}
""",
    "stream": """\
format: registration
table_input:
  Name: stream
  TableType: EXTERNAL_TABLE
  StorageDescriptor: {Columns: [{Name: id, Type: string}], Parameters: {typeOfData: kinesis}}
""",
    "link": """\
format: registration
table_input:
  Name: link
  TargetTable: {CatalogId: "123456789012", DatabaseName: sales, Name: orders}
""",
}


@pytest.mark.parametrize("name", TRINO_REFUSES)
def test_what_trino_refuses_is_a_warning_naming_trino(tmp_path: Path, name: str) -> None:
    root = make_project(tmp_path, {f"sales/tables/{name}.yaml": TRINO_REFUSES[name]})
    result = CliRunner().invoke(app, ["validate", str(root)])
    assert result.exit_code == 0, result.output
    (line,) = [line for line in result.output.splitlines() if "[engine-trino]" in line]
    assert f"{name}.yaml:" in line and "warning: " in line and "Trino" in line


@pytest.mark.parametrize(
    ("bucket", "why", "legacy"),
    [("ab", "3 to 63 characters", False), ("Lake_x", "only lowercase letters", True), ("a..b", "no two dots", True),
     ("192.168.1.10", "not an IP address", True), ("xn--lake", "reserved", True), ("bad*name", "only lowercase", False)],
)  # fmt: skip
def test_a_bucket_s3_refuses_is_an_error_unless_a_legacy_bucket_could_have_it(
    tmp_path: Path, bucket: str, why: str, legacy: bool
) -> None:
    database = f"location: s3://{bucket}/sales/\n"
    root = make_project(
        tmp_path, {"catalog.yaml": "region: us-east-1\nsandbox: true\n", "sales/database.yaml": database}
    )
    sandboxed = CliRunner().invoke(app, ["validate", str(root)])
    assert sandboxed.exit_code == 1, sandboxed.output
    (line,) = [line for line in sandboxed.output.splitlines() if "[s3-bucket]" in line]
    assert "database.yaml:1:11: " in line and why in line and "warning" not in line
    make_project(tmp_path, {"catalog.yaml": "region: us-east-1\n", "sales/database.yaml": database})
    on_aws = CliRunner().invoke(app, ["validate", str(root)])
    assert on_aws.exit_code == (0 if legacy else 1), on_aws.output
    assert ("warning: S3 makes no new bucket" in on_aws.output) is legacy


def test_partition_values_must_parse_as_their_keys_type(tmp_path: Path) -> None:
    table = """\
storage: parquet
columns: [{name: id, type: bigint}]
partition_keys: [{name: n, type: int}, {name: d, type: date}, {name: b, type: tinyint}]
partitions:
  - values: {n: twenty, d: "2024-01-01", b: "1"}
  - values: {n: "3", d: "2024-13-01", b: "300"}
  - expand: {n: ["1", "x"], d: ["2024-02-02"], b: ["__HIVE_DEFAULT_PARTITION__"]}
"""
    root = make_project(tmp_path, {"sales/tables/orders.yaml": table})
    result = CliRunner().invoke(app, ["validate", str(root)])
    assert result.exit_code == 1
    lines = [line.split("orders.yaml:", 1)[1] for line in result.output.splitlines() if "orders.yaml:" in line]
    assert lines == [
        "5:17: n = 'twenty': not an integer, so no int value [partition-values]",
        "6:25: d = '2024-13-01': not a date as yyyy-mm-dd [partition-values]",
        "6:42: b = '300': out of tinyint's range -128..127 [partition-values]",
        "7:23: n = 'x': not an integer, so no int value [partition-values]",
    ], result.output


@pytest.mark.parametrize(
    ("relative", "words"),
    [
        ("sales/table/extra.yaml", "move it to"),
        ("sales/extra.yaml", "move it to"),
        ("sales/tables/old/extra.yaml", "move it to"),
        ("sales/tables/extra.YAML", "rename it to extra.yaml"),
        ("sales/database.yml", "only"),
    ],
)
def test_a_yaml_file_no_rule_reads_is_an_error_not_a_silent_skip(tmp_path: Path, relative: str, words: str) -> None:
    root = make_project(tmp_path, {relative: GOOD_TABLE})
    result = CliRunner().invoke(app, ["validate", str(root)])
    assert result.exit_code == 1, result.output
    assert f"{root / relative}:1:1: this file is not read: {words}" in result.output


def test_a_mistyped_region_fails_a_sandbox_catalog_offline(tmp_path: Path) -> None:
    root = make_project(tmp_path, {"catalog.yaml": "sandbox: true\nregion: us-est-1\n"})
    sandboxed = CliRunner().invoke(app, ["validate", str(root)])
    assert sandboxed.exit_code == 1
    assert f"{root / 'catalog.yaml'}:2:9: unknown region 'us-est-1' — did you mean" in sandboxed.output
    make_project(
        tmp_path,
        {
            "catalog.yaml": "sandbox: true\nregion: eu-west-1\nenvironments:\n  prod: {region: eu-wset-1}\ndefault_env: prod\n"
        },
    )
    in_an_environment = CliRunner().invoke(app, ["validate", str(root)])
    assert in_an_environment.exit_code == 1, in_an_environment.output
    assert "catalog.yaml:4:18: unknown region 'eu-wset-1' — did you mean 'eu-west-1'?" in in_an_environment.output


def test_a_misspelt_storage_gets_a_did_you_mean_and_an_empty_table_file_says_it_is_empty(tmp_path: Path) -> None:
    root = make_project(tmp_path, {"sales/tables/orders.yaml": "storage: parquett\n", "sales/tables/blank.yaml": ""})
    result = CliRunner().invoke(app, ["validate", str(root)])
    assert result.exit_code == 1
    assert "orders.yaml:1:10: unknown storage 'parquett': did you mean 'parquet'?" in result.output
    assert "blank.yaml:1:1: the table file is empty" in result.output
