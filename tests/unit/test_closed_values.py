"""Values with a closed set are refused in one line at file:line rather than accepted: an engine named
twice in `readers`, a Delta property Delta reads as false, a `--packages` entry that is no coordinate."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from gluecat.cli import app

DELTA = """\
format: delta
location: s3://lake/sales/dl/
properties:
  delta.enableChangeDataFeed: "true"
  {line}
"""


def gluecat(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def _project(root: Path, catalog_extra: str = "", **tables: str) -> Path:
    files = {
        "catalog.yaml": f"region: eu-west-1\nsandbox: true\n{catalog_extra}",
        "sales/database.yaml": "location: s3://lake/sales/\n",
    }
    files |= {f"sales/tables/{name}.yaml": text for name, text in tables.items()}
    for relative, text in files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(textwrap.dedent(text))
    return root


def test_an_engine_named_twice_in_readers_is_refused(tmp_path: Path) -> None:
    result = gluecat("validate", str(_project(tmp_path, "readers: [athena, spark, athena]\n")))

    assert result.exit_code == 1
    assert "catalog.yaml:3:10: `readers` names 'athena' more than once: list each engine once" in result.stdout


@pytest.mark.parametrize(
    ("line", "column", "message"),
    [
        ("delta.appendOnly: maybe", 21, "`delta.appendOnly` is 'true' or 'false', not 'maybe'"),
        (
            "delta.columnMapping.mode: nme",
            29,
            "`delta.columnMapping.mode` is 'none', 'name' or 'id', not 'nme' — did you",
        ),
    ],
)
def test_a_delta_property_outside_its_set_is_refused_at_its_line(
    tmp_path: Path, line: str, column: int, message: str
) -> None:
    result = gluecat("validate", str(_project(tmp_path, dl=DELTA.format(line=line))))

    assert result.exit_code == 1
    assert f"dl.yaml:5:{column}: {message}" in result.stdout
    assert "1 error," in result.stdout


def test_delta_booleans_in_any_case_are_taken(tmp_path: Path) -> None:
    result = gluecat("validate", str(_project(tmp_path, dl=DELTA.format(line="delta.appendOnly: TRUE"))))

    assert result.exit_code == 0, result.output


def test_spark_conf_refuses_a_package_that_is_no_maven_coordinate(tmp_path: Path) -> None:
    root = _project(tmp_path)

    refused = gluecat("spark-conf", str(root), "--packages", "io.delta:delta-spark_2.12:3.2.0,notacoord")
    taken = gluecat("spark-conf", str(root), "--packages", "io.delta:delta-spark_2.12:3.2.0")

    assert refused.exit_code == 1 and refused.stdout == ""
    (line,) = refused.stderr.strip().splitlines()
    assert line.startswith("error: --packages: 'notacoord' is not a Maven coordinate; write group:artifact:version")
    assert taken.exit_code == 0 and "io.delta:delta-spark_2.12:3.2.0" in taken.stdout
