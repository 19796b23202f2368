"""--target, --database and --table that match nothing are errors with a did-you-mean; a targeted plan says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, sales_project

NOTE = "Targeting sales.orders only: other objects were not read."


def _error_line(*args: str) -> str:
    result = gluecat(*args)
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("target", "suggestion"),
    [("sales.ordrs", "sales.orders"), ("salse", "sales"), ("sales.custmers", "sales.customers")],
)
@pytest.mark.parametrize("command", ["plan", "apply"])
def test_a_target_that_matches_nothing(
    tmp_path: Path, server: LocalGlue, command: str, target: str, suggestion: str
) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    args = [command, str(root), "--target", target] + (["--auto-approve"] if command == "apply" else [])
    line = _error_line(*args)
    assert f"--target '{target}' matches nothing in the project: did you mean '{suggestion}'?" in line


def test_a_target_far_from_everything_lists_what_there_is(tmp_path: Path, server: LocalGlue) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    line = _error_line("plan", str(root), "--target", "zzz")
    assert "there are sales, sales.customers, sales.orders" in line


@pytest.mark.parametrize("output_format", ["human", "markdown"])
def test_a_targeted_plan_says_so(tmp_path: Path, server: LocalGlue, output_format: str) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    result = gluecat("plan", str(root), "--target", "sales.orders", "--format", output_format)
    assert result.exit_code == 0, result.output
    assert NOTE in result.stdout
    assert "Targeting" not in gluecat("plan", str(root), "--format", output_format).stdout


def test_a_targeted_json_plan_names_its_targets(tmp_path: Path, server: LocalGlue) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    data = json.loads(gluecat("plan", str(root), "--target", "sales.orders", "--format", "json").stdout)
    assert data["targets"] == ["sales.orders"]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--database", "salse"], "--database 'salse' matches nothing in Glue: did you mean 'sales'?"),
        (["--table", "salse.orders"], "--table 'salse.orders' matches nothing in Glue: did you mean 'sales.orders'?"),
        (["--table", "sales.ordrs"], "--table 'sales.ordrs' matches nothing in Glue: did you mean 'sales.orders'?"),
        (["--table", "sales"], "--table 'sales': write DATABASE.TABLE"),
    ],
)
def test_import_selection_that_matches_nothing(
    tmp_path: Path, server: LocalGlue, args: list[str], expected: str
) -> None:
    source = sales_project(tmp_path / "source", server.endpoint_url)
    assert gluecat("apply", str(source), "--auto-approve").exit_code == 0
    target = tmp_path / "imported"
    target.mkdir()
    (target / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
    assert expected in _error_line("import", str(target), *args)
    assert not (target / "sales").exists()


def test_a_saved_plan_is_not_narrowed_by_target_at_apply(tmp_path: Path, server: LocalGlue) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    out = tmp_path / "plan.json"
    assert gluecat("plan", str(root), "--out", str(out)).exit_code == 0
    line = _error_line("apply", str(out), "--target", "sales.orders")
    assert "applies as it was planned (no --target)" in line
    assert f"--target sales.orders --out {out}" in line
    narrowed = tmp_path / "orders.json"
    assert gluecat("plan", str(root), "--target", "sales.orders", "--out", str(narrowed)).exit_code == 0
    applied = gluecat("apply", str(narrowed), "--target", "sales.orders")
    assert applied.exit_code == 0, applied.output


def test_a_plan_of_dot_names_the_catalog_by_its_directory(
    tmp_path: Path, server: LocalGlue, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = sales_project(tmp_path / "shop", server.endpoint_url)
    monkeypatch.chdir(root)
    planned = gluecat("plan", ".", "--format", "markdown")
    assert planned.exit_code == 0, planned.output
    assert f"### gluecat plan for `{root.name}`" in planned.stdout
