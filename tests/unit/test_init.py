"""`gluecat init [DIR]`: a new project that validates, plans and applies against the sandbox, and
that is never written over an existing one."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from gluecat.cli import app
from gluecat.project import starter
from tests.unit.test_schemas import schema_for, schema_problems

REPO = Path(__file__).parents[2]
SCHEMA_COMMENT = "# yaml-language-server: $schema="


def gluecat(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_new_project_validates_plans_applies_and_then_plans_clean_in_the_sandbox(tmp_path: Path) -> None:
    project = tmp_path / "new catalog"  # missing: init makes it

    created = gluecat("init", str(project))

    assert created.exit_code == 0, created.output
    for relative in starter.starter_files():
        assert (project / relative).is_file(), relative
        assert str(project / relative) in created.stdout
    assert f"gluecat plan {shlex.quote(str(project))}" in created.stdout
    assert f"gluecat apply {shlex.quote(str(project))}" in created.stdout
    assert "sandbox: true" in (project / "catalog.yaml").read_text()

    validated = gluecat("validate", str(project))
    assert validated.exit_code == 0, validated.output
    assert "1 database, 1 table, ok" in validated.stdout
    first = gluecat("plan", str(project), "--detailed-exitcode")
    assert first.exit_code == 2, first.output
    assert "+ sales.orders  create table" in first.stdout
    applied = gluecat("apply", str(project), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert "7 partitions created" in applied.stdout
    again = gluecat("plan", str(project), "--detailed-exitcode")
    assert again.exit_code == 0, again.output
    assert "No changes" in again.stdout


def test_every_yaml_file_names_its_schema_which_takes_it(tmp_path: Path) -> None:
    project = tmp_path / "project"
    starter.write_starter(project)
    yaml_files = sorted(project.glob("**/*.yaml"))
    assert len(yaml_files) == 3
    for path in yaml_files:
        first_line = path.read_text().splitlines()[0]
        assert first_line.startswith(SCHEMA_COMMENT), path
        named = (path.parent / first_line.removeprefix(SCHEMA_COMMENT)).resolve()
        assert named == (project / starter.SCHEMA_DIR / schema_for(path)).resolve()
        assert named.read_text() == (REPO / "schemas" / schema_for(path)).read_text()
        assert schema_problems(path) == []


def test_the_workflow_is_the_repository_s_planning_the_catalog_at_the_root(tmp_path: Path) -> None:
    shipped = (REPO / ".github" / "workflows" / "gluecat.yml").read_text()
    assert shipped == starter.WORKFLOW, (
        "gluecat/project/starter.py's WORKFLOW differs from .github/workflows/gluecat.yml: paste the workflow in"
    )
    written = starter.workflow()
    assert '  CATALOGS: "."' in written and "catalogs/**" not in written
    changed = set(written.splitlines()) ^ set(shipped.splitlines())
    assert len(changed) == 2 * len(starter._AT_ROOT)

    actionlint = Path(sys.executable).parent / "actionlint"
    if not actionlint.is_file():
        pytest.skip("actionlint is not installed")
    starter.write_starter(tmp_path)
    linted = subprocess.run([str(actionlint), starter.WORKFLOW_FILE], cwd=tmp_path, capture_output=True, text=True)
    assert linted.returncode == 0, linted.stdout + linted.stderr


def test_init_without_a_directory_writes_into_the_current_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "README.md").write_text("my catalogs\n")  # other files are no reason to refuse

    created = gluecat("init")

    assert created.exit_code == 0, created.output
    assert (tmp_path / "catalog.yaml").is_file()
    assert "gluecat plan .\n" in created.stdout
    assert (tmp_path / "README.md").read_text() == "my catalogs\n"


@pytest.mark.parametrize(
    "existing",
    ["catalog.yaml", "sales/tables/orders.yaml", ".github/workflows/gluecat.yml", ".schemas/table.schema.json"],
)
def test_init_refuses_a_directory_holding_a_file_it_would_write_and_touches_nothing(
    tmp_path: Path, existing: str
) -> None:
    (tmp_path / existing).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / existing).write_text("# mine\n")
    before = _tree(tmp_path)

    refused = gluecat("init", str(tmp_path))

    assert refused.exit_code == 1
    assert refused.stdout == ""
    (line,) = refused.stderr.strip().splitlines()
    assert f"already holds {existing}" in line and "overwrites nothing" in line
    assert _tree(tmp_path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted({existing.split("/")[0]})


def test_init_refuses_a_project_made_by_init(tmp_path: Path) -> None:
    assert gluecat("init", str(tmp_path)).exit_code == 0
    (tmp_path / "catalog.yaml").write_text("region: eu-west-1\n")
    before = _tree(tmp_path)

    refused = gluecat("init", str(tmp_path))

    assert refused.exit_code == 1
    (line,) = refused.stderr.strip().splitlines()
    assert "already holds catalog.yaml, sales/database.yaml, sales/tables/orders.yaml and 4 more" in line
    assert _tree(tmp_path) == before


def test_init_refuses_a_file_for_a_directory(tmp_path: Path) -> None:
    target = tmp_path / "catalog"
    target.write_text("not a directory\n")

    refused = gluecat("init", str(target))

    assert refused.exit_code == 1
    (line,) = refused.stderr.strip().splitlines()
    assert "is a file, not a directory" in line
    assert target.read_text() == "not a directory\n"


def test_init_ignores_the_sandbox_state_in_git(tmp_path: Path) -> None:
    created = gluecat("init", str(tmp_path))

    assert created.exit_code == 0, created.output
    assert str(tmp_path / ".gitignore") in created.stdout
    assert ".gluecat/" in (tmp_path / ".gitignore").read_text().splitlines()


def test_init_adds_the_sandbox_state_to_a_gitignore_already_there_once(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("*.pyc")  # no final newline

    assert gluecat("init", str(tmp_path)).exit_code == 0
    lines = (tmp_path / ".gitignore").read_text().splitlines()
    assert lines[0] == "*.pyc" and lines[-1] == ".gluecat/"

    (tmp_path / "other").mkdir()
    (tmp_path / "other" / ".gitignore").write_text("/.gluecat\n")
    assert gluecat("init", str(tmp_path / "other")).exit_code == 0
    assert (tmp_path / "other" / ".gitignore").read_text() == "/.gluecat\n"


def test_a_project_made_beside_a_docs_folder_validates(tmp_path: Path) -> None:
    (tmp_path / "docs" / "img").mkdir(parents=True)
    (tmp_path / "docs" / "index.md").write_text("# Our lake\n")
    (tmp_path / "docs" / "img" / "lake.png").write_bytes(b"\x89PNG")
    assert gluecat("init", str(tmp_path)).exit_code == 0

    validated = gluecat("validate", str(tmp_path))

    assert validated.exit_code == 0, validated.output
    assert "1 database, 1 table, ok" in validated.stdout


def test_a_folder_holding_yaml_without_a_database_yaml_is_still_an_error(tmp_path: Path) -> None:
    assert gluecat("init", str(tmp_path)).exit_code == 0
    (tmp_path / "web" / "tables").mkdir(parents=True)
    (tmp_path / "web" / "tables" / "visits.yaml").write_text("storage: parquet\n")

    validated = gluecat("validate", str(tmp_path))

    assert validated.exit_code == 1
    assert "web/database.yaml: every database directory needs a database.yaml" in validated.output
