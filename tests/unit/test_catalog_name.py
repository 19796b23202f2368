"""A plan names its catalog as the command was run: from a folder inside the project, by the project
directory's name (as from the project itself), never by an absolute path that says where the
reviewer's or the CI runner's disk holds it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from gluecat.cli import app
from gluecat.project.starter import write_starter


def gluecat(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    write_starter(root)
    return root


@pytest.mark.parametrize("where", ["sales", "sales/tables"])
def test_a_plan_run_inside_the_project_names_it_by_its_name(
    project: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    monkeypatch.chdir(project / where)

    as_json = gluecat("plan", "--format", "json")
    as_markdown = gluecat("plan", "--format", "markdown")

    assert as_json.exit_code == 0, as_json.output
    assert json.loads(as_json.stdout)["catalog"] == "shop"
    assert as_markdown.stdout.startswith("### gluecat plan for `shop`")
    assert str(project.parent) not in as_json.stdout + as_markdown.stdout


def test_a_folder_inside_a_project_named_from_above_gives_the_project_s_path(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project.parent)

    as_json = gluecat("plan", "shop/sales", "--format", "json")

    assert json.loads(as_json.stdout)["catalog"] == "shop"
