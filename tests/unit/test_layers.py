"""The layer contracts (pyproject's [tool.importlinter]) hold, and they would catch a broken layer."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--config", str(root / "pyproject.toml"), "--no-cache"],
        cwd=root, env=environment, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def _copy(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "gluecat", tmp_path / "gluecat", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_the_package_keeps_its_layers() -> None:
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 kept, 0 broken" in result.stdout


def test_an_import_from_plan_into_cli_breaks_the_layers(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    diff = root / "gluecat" / "plan" / "diff.py"
    diff.write_text(diff.read_text() + "\nfrom gluecat.cli import output  # noqa: E402\n")
    result = _lint_imports(root)
    assert result.returncode != 0
    assert "gluecat.plan is not allowed to import gluecat.cli" in result.stdout


def test_a_kind_importing_another_breaks_their_independence(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    view = root / "gluecat" / "kinds" / "view" / "__init__.py"
    view.write_text(view.read_text() + "\nfrom gluecat.kinds.hive import rules  # noqa: E402\n")
    result = _lint_imports(root)
    assert result.returncode != 0
    assert "gluecat.kinds.view is not allowed to import gluecat.kinds.hive" in result.stdout


KIND_MODELS = {"HiveTable", "IcebergTable", "DeltaTable", "ViewTable", "RegistrationTable"}


def _branches_on_a_kind(path: Path) -> list[int]:
    import ast

    calls = [
        node
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance" and len(node.args) == 2
    ]
    return [
        call.lineno for call in calls if {n.id for n in ast.walk(call.args[1]) if isinstance(n, ast.Name)} & KIND_MODELS
    ]


def test_only_kinds_and_the_model_branch_on_a_table_s_kind() -> None:
    package = ROOT / "gluecat"
    outside = [p for p in package.rglob("*.py") if p.relative_to(package).parts[0] not in ("kinds", "model")]
    found = {str(p.relative_to(ROOT)): lines for p in outside if (lines := _branches_on_a_kind(p))}
    assert found == {}, f"dispatch through gluecat.kinds.registry.kind_of instead: {found}"


def test_the_package_root_holds_its_face_alone_and_no_module_is_long() -> None:
    package = ROOT / "gluecat"
    assert sorted(p.name for p in package.glob("*.py")) == ["__init__.py", "__main__.py", "errors.py"]
    long = {str(p.relative_to(ROOT)): n for p in package.rglob("*.py") if (n := len(p.read_text().splitlines())) > 400}
    assert long == {}
