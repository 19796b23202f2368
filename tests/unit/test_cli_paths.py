"""Path mistakes get one line with what would be right; a project is found from inside it."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from gluecat.cli import app
from tests.unit.test_validate import make_project


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def test_a_mistyped_directory_is_named_with_a_did_you_mean(tmp_path: Path) -> None:
    make_project(tmp_path / "example", {})
    code, output = _run("validate", str(tmp_path / "exmaple"))
    assert code == 1
    assert f"no such directory: {tmp_path / 'exmaple'} — did you mean {tmp_path / 'example'}?" in output
    assert "catalog.yaml:1:1" not in output


def test_the_catalog_file_itself_names_its_project(tmp_path: Path) -> None:
    root = make_project(tmp_path / "project", {})
    code, output = _run("validate", str(root / "catalog.yaml"))
    assert code == 0, output


def test_a_command_inside_a_database_folder_finds_its_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_project(tmp_path / "project", {})
    monkeypatch.chdir(root / "sales" / "tables")
    code, output = _run("validate", ".")
    assert code == 0, output


def test_catalog_yml_is_named_with_the_name_gluecat_reads(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "catalog.yml").write_text("region: eu-west-1\n")
    code, output = _run("validate", str(root))
    assert code == 1
    assert "catalog.yml: gluecat reads catalog.yaml; rename it" in output


def test_apply_of_a_missing_plan_file_says_so_first(tmp_path: Path) -> None:
    code, output = _run("apply", str(tmp_path / "plan.json"))
    assert code == 1
    assert f"no such plan file: {tmp_path / 'plan.json'}" in output
    assert "auto-approve" not in output
