"""Nothing outside gluecat/backends/ asks which backend it talks to: it asks the registry what the
backend holds and can do. A new backend is its module (plus a shapes module), one registry line and
one row of the shared backend suite; these tests list every file that names one, so it cannot leak."""

from __future__ import annotations

import ast
from pathlib import Path

from gluecat.backends.registry import BACKENDS
from gluecat.model.backend_settings import OWNERS

ROOT = Path(__file__).parents[2]
PACKAGE = ROOT / "gluecat"
NAMES = frozenset(BACKENDS)
# The modules of one backend each: its catalog (the registry names it), its shapes, its clients.
# Importing one names that backend.
BACKEND_MODULES = frozenset(
    {backend.module for backend in BACKENDS.values()}
    | {f"gluecat.backends.{name}" for name in ("glue", "hive", "hive_shapes", "iceberg_hive", "rest", "rest_shapes")}
)
# Outside backends/, only the settings themselves (`backend:` and its union) name a backend.
NAMED_OUTSIDE = {"gluecat/model/backend_settings.py"}


def _names_in(node: ast.AST) -> set[str]:
    """The backend names written as string constants in `node` (one, or a tuple, list or set of them)."""
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and n.value in NAMES}


def _is_backend(node: ast.AST) -> bool:
    """The backend setting itself: a name or attribute called so (`backend`, `config.backend`)."""
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return "backend" in name.lower()


def backend_branches(source: str) -> list[int]:
    """The lines that compare the backend setting with a backend's name, or match on it."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for index, operand in enumerate(operands):
                others = operands[:index] + operands[index + 1 :]
                if _names_in(operand) and any(_is_backend(o) for o in others if not _names_in(o)):
                    found.append(node.lineno)
                    break
        elif isinstance(node, ast.Match) and _is_backend(node.subject):
            if any(_names_in(case.pattern) for case in node.cases):
                found.append(node.lineno)
        elif (
            isinstance(node, ast.Subscript)
            and _is_backend(node.slice)
            and isinstance(node.value, ast.Dict)
            and any(key is not None and _names_in(key) for key in node.value.keys)
        ):
            found.append(node.lineno)  # {"glue": ..., "hive": ...}[config.backend]
    return found


def _docstrings(tree: ast.AST) -> set[int]:
    bodies = [n for n in ast.walk(tree) if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef)]
    return {
        id(body.body[0].value)
        for body in bodies
        if body.body and isinstance(body.body[0], ast.Expr) and isinstance(body.body[0].value, ast.Constant)
    }


def names_a_backend(source: str) -> bool:
    """Whether a module names a backend: branches on one, writes `iceberg-rest`, sets a backend to a
    name (`backend="hive"`, `{"backend": "glue"}`, `Backend = Literal[...]`), or imports a backend's module."""
    if backend_branches(source):
        return True
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value == "iceberg-rest" and id(node) not in docstrings:
            return True
        if isinstance(node, ast.keyword) and node.arg and "backend" in node.arg.lower() and _names_in(node.value):
            return True
        if isinstance(node, ast.Dict) and any(
            isinstance(k, ast.Constant) and k.value == "backend" and _names_in(v)
            for k, v in zip(node.keys, node.values, strict=True)
        ):
            return True
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        value = getattr(node, "value", None)
        if value is not None and any(_is_backend(t) for t in targets) and _names_in(value):
            return True
        if isinstance(node, ast.ImportFrom) and node.module:
            imported = {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
            if imported & BACKEND_MODULES:
                return True
        if isinstance(node, ast.Import) and {alias.name for alias in node.names} & BACKEND_MODULES:
            return True
    return False


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _outside_backends(path: Path) -> bool:
    return not path.is_relative_to(PACKAGE / "backends")


def test_nothing_outside_backends_branches_on_a_backend() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in _modules()
        if _outside_backends(path)
        for line in backend_branches(path.read_text())
    ]
    assert found == [], "ask the registry what the backend can do (gluecat/backends/registry.py): " + ", ".join(found)


def test_the_files_that_name_a_backend_are_backends_and_the_setting() -> None:
    naming = {path.relative_to(ROOT).as_posix() for path in _modules() if names_a_backend(path.read_text())}
    assert {name for name in naming if not name.startswith("gluecat/backends/")} == NAMED_OUTSIDE
    assert {"gluecat/backends/registry.py", "gluecat/backends/connect.py"} <= naming


def own_keys_read(source: str) -> list[int]:
    """The lines that read a backend's own setting by name (`config.metastore_uri`, `getattr(x, "rest_uri")`)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Attribute) and node.attr in OWNERS) or (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and any(isinstance(arg, ast.Constant) and arg.value in OWNERS for arg in node.args)
        ):
            found.append(node.lineno)
    return found


def test_nothing_outside_backends_and_the_model_reads_a_backends_own_settings() -> None:
    """They read what every backend's settings answer (`address`, `scope`, `account`, `version`, `auth`)."""
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in _modules()
        if _outside_backends(path) and not path.is_relative_to(PACKAGE / "model")
        for line in own_keys_read(path.read_text())
    ]
    assert found == [], "read the settings' common answers (gluecat/model/backend_settings.py): " + ", ".join(found)
    assert own_keys_read("uri = config.metastore_uri\n") and own_keys_read('key = getattr(config, "rest_auth")\n')
    assert not own_keys_read("uri = config.connection.address\n")


def test_the_scan_sees_each_way_of_branching_on_a_backend() -> None:
    branches = [
        'if config.backend == "hive":\n    pass\n',
        'if "iceberg-rest" != project.config.backend:\n    pass\n',
        'ok = connection.backend in ("glue", "hive")\n',
        'match config.backend:\n    case "glue":\n        pass\n    case _:\n        pass\n',
        'key = {"glue": 1, "hive": 2}[settings.backend]\n',
    ]
    for source in branches:
        assert backend_branches(source), source
        assert names_a_backend(source), source
    for source in (
        'if change.format == "hive":\n    pass\n',
        'if capabilities(config.backend).engine_catalog == "hive":\n    pass\n',
    ):
        assert not backend_branches(source), source
        assert not names_a_backend(source), source


def test_the_scan_sees_each_way_of_naming_a_backend() -> None:
    for source in (
        'BINDING = "iceberg-rest"\n',
        'connection = Connection(catalog, None, None, backend="hive")\n',
        'row = {"backend": "glue"}\n',
        'Backend = Literal["glue", "hive"]\n',
        "from gluecat.backends.glue import Glue\n",
        "from gluecat.backends import rest\n",
        "import gluecat.backends.hive_shapes\n",
    ):
        assert names_a_backend(source), source
    assert not names_a_backend('"""Talks to an iceberg-rest catalog."""\n')
    assert not names_a_backend('signing_name: Literal["glue", "s3tables"] = "glue"\n')
