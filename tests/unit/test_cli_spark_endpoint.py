"""Every spark-conf format carries the endpoint when one is given, Trino's included."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gluecat.cli import app
from gluecat.spark.render import RENDERERS

EXAMPLE = Path(__file__).parents[2] / "catalogs" / "example"
ENDPOINT = "http://glue.internal.example:4566"


@pytest.mark.parametrize("output_format", sorted(RENDERERS))
def test_every_format_mentions_the_endpoint(output_format: str) -> None:
    result = CliRunner().invoke(app, ["spark-conf", str(EXAMPLE), "--format", output_format, "--endpoint", ENDPOINT])
    assert result.exit_code == 0, result.output
    assert ENDPOINT in result.stdout


def test_trino_points_glue_and_s3_at_the_endpoint() -> None:
    result = CliRunner().invoke(app, ["spark-conf", str(EXAMPLE), "--format", "trino", "--endpoint", ENDPOINT])
    for connector in result.stdout.split("# etc/catalog/")[1:]:
        assert f"hive.metastore.glue.endpoint-url={ENDPOINT}" in connector
        assert f"s3.endpoint={ENDPOINT}" in connector
        assert "s3.path-style-access=true" in connector


def test_the_sandbox_hint_is_copy_pasteable_for_a_path_with_spaces(tmp_path: Path) -> None:
    project = tmp_path / "my catalog"
    shutil.copytree(EXAMPLE, project, ignore=shutil.ignore_patterns(".gluecat"))
    result = CliRunner().invoke(app, ["spark-conf", str(project)])
    assert result.exit_code == 0, result.output
    hint = result.output.split("start it with `", 1)[1].split("`", 1)[0]
    assert shlex.split(hint) == ["gluecat", "sandbox", str(project)]
