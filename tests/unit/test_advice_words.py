"""Advice that is right for the case at hand: a strftime projection format is told its Java spelling,
not also that it is finer than a day; a changed saved plan is told the command that makes it again,
project included."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from gluecat.cli import app
from gluecat.project.starter import write_starter


def gluecat(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


PROJECTED = """\
storage: parquet
columns:
  - {{name: id, type: bigint}}
partition_keys:
  - {{name: dt, type: string}}
projection:
  keys:
    dt: {{type: date, format: "{format}", range: [2024-01-01, NOW]{more}}}
"""


@pytest.mark.parametrize(
    ("format_", "more", "finer"),
    [("%Y-%m-%d", "", False), ("%Y-%m-%d %H", "", True), ("%Y-%m-%d %H", ", interval: 1, unit: HOURS", False)],
)
def test_a_strftime_format_is_read_as_the_java_pattern_it_means(
    tmp_path: Path, format_: str, more: str, finer: bool
) -> None:
    write_starter(tmp_path)
    (tmp_path / "sales/tables/logs.yaml").write_text(textwrap.dedent(PROJECTED.format(format=format_, more=more)))

    shown = gluecat("validate", str(tmp_path)).stdout

    assert f"format '{format_}' is a strftime format" in shown
    assert ("is finer than a day" in shown) is finer


def test_a_changed_saved_plan_is_told_to_plan_its_project_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "shop"
    write_starter(project)
    monkeypatch.chdir(tmp_path)
    assert gluecat("plan", "shop", "--out", "plan.json").exit_code == 0
    document = json.loads((tmp_path / "plan.json").read_text())
    document["changes"][0]["reason"] = "edited"
    (tmp_path / "plan.json").write_text(json.dumps(document))

    refused = gluecat("apply", "plan.json")

    assert refused.exit_code == 1
    assert "make it again with `gluecat plan shop --out plan.json`" in refused.stderr
