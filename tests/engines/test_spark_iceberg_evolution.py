"""Iceberg evolution gluecat plans, read through Spark (started from what `gluecat spark-conf` prints,
see conftest): a column renamed with `renamed_from` keeps its field id, so Spark reads the rows
written before under the new name; columns moved to the file's order read the same values."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gluecat.sandbox.server import LocalGlue
from tests.engines.conftest import WAREHOUSE, parse_conf
from tests.integration.helpers import gluecat, write_project

pytestmark = pytest.mark.spark

USERS = """\
format: iceberg
columns:
  - {name: id, type: bigint}
  - {name: user_name, type: string}
  - {name: team, type: string}
"""


def _project(tmp_path: Path, glue: LocalGlue, spark: Any, database: str) -> Path:
    files = {f"{database}/database.yaml": f"location: s3://lake/{database}/\n", f"{database}/tables/users.yaml": USERS}
    root = write_project(tmp_path / "catalog", glue.endpoint_url, files, WAREHOUSE)
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    printed = gluecat("spark-conf", str(root), "--endpoint", glue.endpoint_url)
    assert printed.exit_code == 0, printed.output
    for key, value in parse_conf(printed.stdout).items():  # the session's project uses more (Delta): a superset
        running = spark.conf.get(key)
        assert set(value.split(",")) <= set(running.split(",")), f"{key}: Spark runs with {running}, not {value}"
    return root


def _apply(root: Path) -> None:
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    again = gluecat("plan", str(root), "--detailed-exitcode")
    assert again.exit_code == 0 and "No changes" in again.stdout, again.output


def test_spark_reads_a_renamed_columns_old_rows_under_the_new_name(
    engines_glue: LocalGlue, spark: Any, tmp_path: Path
) -> None:
    root = _project(tmp_path, engines_glue, spark, "sparkrename")
    spark.sql("INSERT INTO glue.sparkrename.users VALUES (1, 'ada', 'a'), (2, 'grace', 'b')")
    renamed = USERS.replace("{name: user_name, type: string}", "{name: login, type: string, renamed_from: user_name}")
    (root / "sparkrename/tables/users.yaml").write_text(renamed)
    planned = gluecat("plan", str(root), "--format", "json")
    assert planned.exit_code == 0, planned.output
    (change,) = json.loads(planned.stdout)["changes"]
    assert change["impact"] == "safe" and [f["rule"] for f in change["findings"]] == ["iceberg-rename"], change

    _apply(root)
    spark.sql("REFRESH TABLE glue.sparkrename.users")
    assert [c.name for c in spark.table("glue.sparkrename.users").schema] == ["id", "login", "team"]
    rows = spark.sql("SELECT id, login FROM glue.sparkrename.users ORDER BY id").collect()
    assert [tuple(r) for r in rows] == [(1, "ada"), (2, "grace")], "the old rows read under the new name"
    spark.sql("INSERT INTO glue.sparkrename.users VALUES (3, 'alan', 'c')")
    rows = spark.sql("SELECT login FROM glue.sparkrename.users ORDER BY id").collect()
    assert [r.login for r in rows] == ["ada", "grace", "alan"]
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0, "Spark's commit leaves nothing to do"


def test_spark_reads_moved_columns_by_their_ids(engines_glue: LocalGlue, spark: Any, tmp_path: Path) -> None:
    root = _project(tmp_path, engines_glue, spark, "sparkmove")
    spark.sql("INSERT INTO glue.sparkmove.users VALUES (1, 'ada', 'a'), (2, 'grace', 'b')")
    moved = "format: iceberg\ncolumns:\n" + "".join(
        f"  - {{name: {name}, type: {kind}}}\n"
        for name, kind in (("team", "string"), ("id", "bigint"), ("user_name", "string"))
    )
    (root / "sparkmove/tables/users.yaml").write_text(moved)
    _apply(root)
    spark.sql("REFRESH TABLE glue.sparkmove.users")
    rows = spark.sql("SELECT * FROM glue.sparkmove.users ORDER BY id").collect()
    assert rows[0].__fields__ == ["team", "id", "user_name"]
    assert [tuple(r) for r in rows] == [("a", 1, "ada"), ("b", 2, "grace")], "each value stays in its column"
