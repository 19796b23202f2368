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
