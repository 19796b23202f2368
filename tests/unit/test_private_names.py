"""No module of gluecat imports another module's private name (`_name`), nor reaches one through
the module (`yamlout._style`): what a module shares it names publicly."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parents[2]
# Private names of other libraries gluecat has to build on, each with the reason.
THIRD_PARTY = {
    # pyiceberg's HiveCatalog takes its Thrift client class from here; Hive 4 needs the `_req` calls.
    ("gluecat/backends/iceberg_hive.py", "pyiceberg.catalog.hive", "_HiveClient"),
}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_imports(path: Path, source: str) -> list[str]:
    """Each private name `source` (the module at `path`, relative to the repository) takes from another module."""
    relative = path.as_posix()
    found: list[str] = []
    modules: dict[str, str] = {}  # local name -> the gluecat module it is bound to
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            module = "." * node.level + (node.module or "")
            for alias in node.names:
                if _private(alias.name) and (relative, module, alias.name) not in THIRD_PARTY:
                    found.append(f"{relative}:{node.lineno}: from {module} import {alias.name}")
                if module.startswith(("gluecat", ".")):
                    modules[alias.asname or alias.name] = f"{module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("gluecat"):
                    modules[alias.asname or alias.name.split(".")[0]] = alias.name
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and _private(node.attr)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
        ):
            found.append(f"{relative}:{node.lineno}: {node.value.id}.{node.attr} ({modules[node.value.id]})")
    return found


def test_no_module_takes_another_module_s_private_name() -> None:
    found = [
        line
        for path in sorted((ROOT / "gluecat").rglob("*.py"))
        for line in private_imports(path.relative_to(ROOT), path.read_text(encoding="utf-8"))
    ]
    assert not found, "make the name public (no leading _) or keep its use in its module:\n" + "\n".join(found)


def test_the_scan_sees_each_way_in() -> None:
    source = (
        "from gluecat.cli.planning import _execute, render\n"
        "from . import _sibling\n"
        "from gluecat.adopt import yamlout\n"
        "import gluecat.secrets.values as values\n"
        "def f():\n"
        "    return yamlout._style, values._CHUNK, yamlout.write, self._own\n"
    )
    found = private_imports(Path("gluecat/x.py"), source)
    assert [line.split(": ", 1)[1] for line in found] == [
        "from gluecat.cli.planning import _execute",
        "from . import _sibling",
        "yamlout._style (gluecat.adopt.yamlout)",
        "values._CHUNK (gluecat.secrets.values)",
    ]
    allowed = "from pyiceberg.catalog.hive import _HiveClient\n"
    assert private_imports(Path("gluecat/backends/iceberg_hive.py"), allowed) == []
    assert private_imports(Path("gluecat/backends/other.py"), allowed) != []
