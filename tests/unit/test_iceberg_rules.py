"""`gluecat validate` on Iceberg transforms, format versions and typed properties: each problem at
its file:line, all of them in one run, judged against pyiceberg's own transforms."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyiceberg.transforms import parse_transform
from typer.testing import CliRunner

from gluecat.backends.iceberg_types import to_iceberg
from gluecat.cli import app
from gluecat.model.hivetype import parse

TYPES = ["int", "bigint", "smallint", "float", "double", "boolean", "string", "varchar(10)", "binary", "date",
         "timestamp", "timestamptz", "uuid", "decimal(10,2)", "struct<a:int>", "array<int>"]  # fmt: skip
TRANSFORMS = ["identity", "void", "year", "month", "day", "hour", "bucket[{n}]", "truncate[{n}]"]


def validate(root: Path, table: str) -> tuple[int, str]:
    files = {
        "catalog.yaml": "region: eu-west-1\n",
        "lake/database.yaml": "location: s3://lake/lake.db/\n",
        "lake/tables/events.yaml": table,
    }
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(root)], catch_exceptions=False)
    return result.exit_code, result.output


def test_every_problem_at_its_line_in_one_run(tmp_path: Path) -> None:
    table = """\
        format: iceberg
        columns:
          - {name: id, type: bigint}
          - {name: kind, type: string}
          - {name: d, type: date}
        partition_spec:
          - {column: id, transform: "bucket[0]"}
          - {column: kind, transform: "truncate[0]"}
          - {column: kind, transform: year}
          - {column: d, transform: hour}
        properties:
          format-version: 4
          write.target-file-size-bytes: 512MB
          write.object-storage.enabled: maybe
          write.parquet.compression-codec: ZSTD
          commit.retry.num-retries: 3
        """
    code, output = validate(tmp_path, table)
    assert code == 1
    lines = [line for line in output.splitlines() if "events.yaml:" in line]
    expected = [
        ("7:", "bucket[0]: the width must be at least 1"),
        ("8:", "truncate[0]: the width must be at least 1"),
        ("9:", "year cannot take column 'kind' of type string: it needs a date or timestamp column"),
        ("10:", "hour cannot take column 'd' of type date"),
        ("12:", "format-version 4 does not exist: Iceberg has 1, 2 and 3"),
        ("13:", "write.target-file-size-bytes takes a whole number of at least 1 (e.g. 536870912), not '512MB'"),
        ("14:", "write.object-storage.enabled takes true or false, not 'maybe'"),
    ]
    assert len(lines) == len(expected), output
    for line, (number, words) in zip(lines, expected, strict=True):
        assert f"events.yaml:{number}" in line and words in line, line
    assert "Traceback" not in output


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    column_type=st.sampled_from(TYPES),
    transform=st.sampled_from(TRANSFORMS),
    width=st.integers(min_value=0, max_value=5000),
    where=st.sampled_from(["partition_spec", "sort_order"]),
)
def test_a_transform_is_refused_exactly_when_iceberg_cannot_apply_it(
    tmp_path: Path, column_type: str, transform: str, width: int, where: str
) -> None:
    text = transform.format(n=width)
    table = f"format: iceberg\ncolumns:\n  - {{name: c, type: '{column_type}'}}\n{where}:\n  - {{column: c, transform: '{text}'}}\n"
    code, output = validate(tmp_path, table)
    iceberg_type = to_iceberg(parse(column_type, iceberg=True), iter(range(2, 100)))
    zero_width = bool(re.search(r"\[0\]", text))
    accepted = not zero_width and parse_transform(text).can_transform(iceberg_type)
    if column_type.startswith(("struct", "array")) and text.startswith(("identity", "void")):
        accepted = True  # nested sources are a plan-time matter, not this rule's
    assert (code == 0) == accepted, (column_type, text, output)
    if not accepted:
        assert "events.yaml:5:" in output and "[iceberg-transform]" in output


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=st.text(alphabet="0123456789-+. aBkMe", min_size=1, max_size=12).filter(lambda v: v.strip() == v))
def test_an_integer_property_takes_only_a_whole_number(tmp_path: Path, value: str) -> None:
    table = (
        f"format: iceberg\ncolumns: [{{name: c, type: int}}]\nproperties:\n  write.target-file-size-bytes: '{value}'\n"
    )
    code, output = validate(tmp_path, table)
    whole = re.fullmatch(r"-?\d+", value) is not None and int(value) >= 1
    assert (code == 0) == whole, (value, output)
    if not whole:
        assert "events.yaml:4:" in output and "write.target-file-size-bytes takes a whole number" in output


def test_renames_that_cannot_be_are_reported_at_their_line(tmp_path: Path) -> None:
    table = """\
        format: iceberg
        columns:
          - {name: login, type: string, renamed_from: email}
          - {name: email, type: string}
          - {name: same, type: string, renamed_from: same}
          - name: device
            type: struct<os_name:string,tags:array<struct<k:string>>>
            renamed_fields: {os_name: os, tags.element.k: key, model: m, os_name.x: y}
        """
    code, output = validate(tmp_path, table)
    assert code == 1
    lines = [line for line in output.splitlines() if "[iceberg-rename]" in line]
    assert len(lines) == 4, output
    assert "events.yaml:3:" in lines[0] and "`email` is declared as a column too" in lines[0]
    assert "events.yaml:5:" in lines[1] and "`same` is the column's own name" in lines[1]
    assert "events.yaml:8:" in lines[2] and "`model` is no struct field" in lines[2] and "os_name, tags" in lines[2]
    assert "events.yaml:8:" in lines[3] and "`os_name.x` is no struct field" in lines[3]
