"""A plain `pip install .` carries no type stubs: nothing may import them at run time."""

from __future__ import annotations

import subprocess
import sys

BLOCK_STUBS = """
import importlib, pkgutil, sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0].startswith(("mypy_boto3", "botocore_stubs", "boto3_stubs")):
            raise ImportError(f"{name} is a dev-only type stub")
sys.meta_path.insert(0, Block())
import gluecat
for module in pkgutil.walk_packages(gluecat.__path__, "gluecat."):
    if not module.name.endswith(("__main__", "sandbox.server")):
        importlib.import_module(module.name)
print("ok")
"""


def test_every_module_imports_without_the_type_stubs() -> None:
    result = subprocess.run([sys.executable, "-c", BLOCK_STUBS], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_the_wheel_lists_every_package_and_carries_the_schemas() -> None:
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    setuptools = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    on_disk = {
        ".".join(directory.relative_to(root).parts)
        for directory in (root / "gluecat").rglob("*")
        if directory.is_dir() and any(directory.glob("*.py"))
    } | {"gluecat"}
    assert on_disk <= set(setuptools["packages"]), "a package directory is missing from pyproject's packages"
    assert setuptools["package-dir"]["gluecat.json_schemas"] == "schemas"
    assert sorted(p.name for p in (root / "schemas").glob("*.json")), "no schemas to ship"
