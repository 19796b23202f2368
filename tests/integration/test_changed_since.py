"""`plan --changed-since REF`: only the objects whose files differ from a git ref are read and
planned, each exactly as a full plan plans it; removals follow the prune rules; a catalog.yaml change
falls back to a full plan; a ref git does not know, or no repository, is one line."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

TABLE = "storage: parquet\ncolumns:\n  - {name: id, type: bigint}\n"


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def _commit(root: Path, message: str) -> None:
    _git(root, "add", "-A")
    _git(root, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", message)


@pytest.fixture
def project(tmp_path: Path, server: LocalGlue) -> Path:
    """Two databases of 12 tables each, applied and committed as `main`; the project one folder down."""
    files = {"sales/database.yaml": "location: s3://lake/sales/\n", "web/database.yaml": "location: s3://lake/web/\n"}
    files.update({f"{db}/tables/t{i:02d}.yaml": TABLE for db in ("sales", "web") for i in range(12)})
    root = write_project(tmp_path / "repo" / "catalogs" / "main", server.endpoint_url, files)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _git(tmp_path / "repo", "init", "-q", "-b", "main")
    _commit(tmp_path / "repo", "catalog")
    return root


def _plan(root: Path, *args: str) -> dict[str, object]:
    result = gluecat("plan", str(root), "--format", "json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def _changes(plan: dict[str, object]) -> list[object]:
    return sorted(json.dumps(c, sort_keys=True) for c in plan["changes"])  # type: ignore[attr-defined]


def test_changed_tables_plan_as_in_a_full_plan_and_nothing_else_is_read(project: Path, server: LocalGlue) -> None:
    (project / "sales/tables/t03.yaml").write_text(TABLE + "description: changed\n")
    (project / "web/tables/t07.yaml").write_text(TABLE + "  - {name: extra, type: string}\n")
    (project / "web/tables/new.yaml").write_text(TABLE)  # untracked: a new file counts too
    server.reset_counts()
    scoped = _plan(project, "--changed-since", "main")
    calls = server.calls()
    full = _plan(project)
    assert _changes(scoped) == _changes(full)
    assert {c["address"] for c in scoped["changes"]} == {"sales.t03", "web.t07", "web.new"}  # type: ignore[attr-defined, index]
    assert calls["GetTables"] == 0 and calls["GetTable"] == 3, calls
    assert sum(calls.values()) < 10, calls
    assert any("3 tables planned; 22 not read" in note for note in scoped["notes"])  # type: ignore[attr-defined]


def test_a_file_error_outside_the_change_does_not_block_it(project: Path) -> None:
    (project / "web/tables/t00.yaml").write_text("storage: parqet\n")
    _commit(project, "broken elsewhere")
    (project / "sales/tables/t01.yaml").write_text(TABLE + "description: changed\n")
    scoped = _plan(project, "--changed-since", "HEAD")
    assert [c["address"] for c in scoped["changes"]] == ["sales.t01"]  # type: ignore[attr-defined, index]


def test_a_database_change_plans_that_database_whole(project: Path, server: LocalGlue) -> None:
    (project / "web/database.yaml").write_text("location: s3://lake/web/\ndescription: the web\n")
    server.reset_counts()
    scoped = _plan(project, "--changed-since", "main")
    assert [c["address"] for c in scoped["changes"]] == ["web"]  # type: ignore[attr-defined, index]
    assert server.calls()["GetTables"] == 1
    assert any("12 tables planned; 12 not read" in note for note in scoped["notes"])  # type: ignore[attr-defined]


def test_a_catalog_change_falls_back_to_a_full_plan_and_says_so(project: Path) -> None:
    (project / "catalog.yaml").write_text((project / "catalog.yaml").read_text() + "prune: false\n")
    (project / "sales/tables/t00.yaml").write_text(TABLE + "description: changed\n")
    (project / "web/tables/t00.yaml").write_text(TABLE + "description: changed\n")
    scoped = _plan(project, "--changed-since", "main")
    assert _changes(scoped) == _changes(_plan(project))
    assert any("planned in full" in note for note in scoped["notes"])  # type: ignore[attr-defined]


@pytest.mark.parametrize("prune", [True, False])
def test_a_removed_table_file_is_deleted_under_prune_and_named_otherwise(
    project: Path, prune: bool, raw_glue: object
) -> None:
    if prune:
        (project / "catalog.yaml").write_text((project / "catalog.yaml").read_text() + "prune: true\n")
        _commit(project, "prune")
    (project / "sales/tables/t05.yaml").unlink()
    scoped = _plan(project, "--changed-since", "HEAD")
    addresses = [(c["address"], c["action"]) for c in scoped["changes"]]  # type: ignore[attr-defined, index]
    if prune:
        assert addresses == [("sales.t05", "delete")]
        refused = gluecat("apply", str(project), "--auto-approve", "--changed-since", "HEAD")
        assert refused.exit_code == 1 and "--allow-destroy" in refused.output
        applied = gluecat("apply", str(project), "--auto-approve", "--allow-destroy", "--changed-since", "HEAD")
        assert applied.exit_code == 0, applied.output
        names = {t["Name"] for t in raw_glue.get_tables(DatabaseName="sales")["TableList"]}  # type: ignore[attr-defined]
        assert "t05" not in names and "t04" in names
    else:
        assert addresses == []
        assert any("sales.t05" in note and "prune is off" in note for note in scoped["notes"])  # type: ignore[attr-defined]


def test_an_unknown_ref_or_no_repository_is_one_line(project: Path, tmp_path: Path, server: LocalGlue) -> None:
    unknown = gluecat("plan", str(project), "--changed-since", "no-such-branch")
    assert unknown.exit_code == 1 and unknown.output.count("\n") == 1 and "no-such-branch" in unknown.output
    bare = write_project(tmp_path / "elsewhere", server.endpoint_url, {"s/database.yaml": "location: s3://l/s/\n"})
    outside = gluecat("plan", str(bare), "--changed-since", "main")
    assert outside.exit_code == 1 and "git repository" in outside.output and outside.output.count("\n") == 1
    both = gluecat("plan", str(project), "--changed-since", "main", "--target", "sales")
    assert both.exit_code == 1 and "give one of them" in both.output


def test_a_saved_plan_of_the_change_applies_it_and_only_it(project: Path, tmp_path: Path, server: LocalGlue) -> None:
    (project / "sales/tables/t03.yaml").write_text(TABLE + "description: changed\n")
    saved = tmp_path / "pr.json"
    assert gluecat("plan", str(project), "--changed-since", "main", "--out", str(saved)).exit_code == 0
    (project / "web/tables/t01.yaml").write_text(TABLE + "description: after the plan\n")  # not in the saved plan
    server.reset_counts()
    applied = gluecat("apply", str(saved))
    assert applied.exit_code == 0, applied.output
    assert server.calls()["GetTables"] == 0
    left = _plan(project)
    assert [c["address"] for c in left["changes"]] == ["web.t01"]  # type: ignore[index]
    refused = gluecat("apply", str(saved), "--changed-since", "main")
    assert refused.exit_code == 1 and "saved plan" in refused.output
