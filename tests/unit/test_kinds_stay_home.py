"""A table's kind is known in `gluecat/kinds/` (and its model in `gluecat/model/`) alone: nothing
else recognises a kind by its name or by the strings Glue marks it with, and the files that name a
kind are a known, short list, so a new kind cannot leak into the rooms its data passes through."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "gluecat"
HOME = ("kinds", "model")
# A kind's `format:` name, and what Glue marks one with (`table_type`, `TableType`, Spark's provider).
KIND_WORDS = {"hive", "iceberg", "delta", "view", "registration", "virtual_view"}
KIND_PACKAGES = {"hive", "iceberg", "delta", "view", "registration"}
KIND_OBJECTS = {"HIVE", "ICEBERG", "DELTA", "VIEW", "REGISTRATION"}

# Branches that remain, each with why; the test fails when one is added and when one goes (shrink it).
# A comparison with a backend (`config.backend == "hive"`) is the backends' business, not counted here.
STILL_BRANCHING = {
    # Which S3 permissions a lake format's tables need: iam-policy should ask the kind.
    "gluecat/backends/policy.py": 2,
    # A registration's TableInput checked for the engines: a view's texts.
    "gluecat/project/engine_check.py": 1,
    # The local Glue emulates AWS, which recognises an Iceberg table by its own marks.
    "gluecat/sandbox/optimizers.py": 1,
    # The documentation site's page of a view.
    "gluecat/site/write.py": 1,
    # spark-conf's catalogs per table format (each kind's `spark_catalog`): which to configure.
    "gluecat/spark/render.py": 8,
    # (settings.py's sixth compares the backend's engine catalog, `engine_catalog == "hive"`: no kind's name.)
    "gluecat/spark/settings.py": 6,
}

# The files outside kinds/ that import one kind (its package or its registry entry) by name.
NAMING_A_KIND = {
    "gluecat/adopt/optimizers.py",  # import reads table optimizers, which Glue keeps for Iceberg alone
    "gluecat/apply/indexes.py",  # partition indexes: Hive tables'
    "gluecat/apply/optimizers.py",  # table optimizers: Iceberg tables'
    "gluecat/history/listing.py",  # an Iceberg table's history holds its snapshots too
    "gluecat/plan/downstream.py",  # the views that read a changed table
    "gluecat/site/live.py",  # the docs site's page of an unmanaged table or view
    "gluecat/site/history.py",  # the docs site's history of an Iceberg table lists its snapshots
    "gluecat/spark/ddl.py",  # Spark DDL of a Hive table's schema
}


def _words(node: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.lower() in KIND_WORDS
        for n in ast.walk(node)
    )


def _about_a_backend(node: ast.Compare) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr == "backend" for n in (node.left, *node.comparators))


def _branches_by_string(path: Path) -> int:
    """Comparisons and `match` cases on a kind's name or Glue's marks of one."""
    found = 0
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare) and not _about_a_backend(node):
            found += any(_words(part) for part in (node.left, *node.comparators))
        elif isinstance(node, ast.match_case):
            found += _words(node.pattern)
    return found


def _names_a_kind(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gluecat.kinds"):
            parts = (node.module or "").split(".")
            if len(parts) > 2 and parts[2] in KIND_PACKAGES:
                return True
            if any(alias.name in KIND_OBJECTS | KIND_PACKAGES for alias in node.names):
                return True
    return False


def _outside() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py")) if p.relative_to(PACKAGE).parts[0] not in HOME]


def test_nothing_outside_the_kinds_branches_on_a_kind_by_its_name() -> None:
    found = {str(p.relative_to(ROOT)): n for p in _outside() if (n := _branches_by_string(p))}
    assert found == STILL_BRANCHING, (
        "ask gluecat.kinds.registry (recognise, kind_of, writer_of) or the kind itself instead of comparing"
        f" a kind's name or Glue's marks of one: {found}"
    )


def test_the_files_that_name_a_kind_are_these() -> None:
    found = {str(p.relative_to(ROOT)) for p in _outside() if _names_a_kind(p)}
    assert found == NAMING_A_KIND, "a kind is named outside gluecat/kinds/: add to the kind instead"


def test_the_scan_sees_a_branch_on_a_kind(tmp_path: Path) -> None:
    branching = tmp_path / "branching.py"
    branching.write_text(
        'def f(change, live):\n    if change.table_kind == "iceberg":\n        return 1\n'
        '    match live["TableType"]:\n        case "VIRTUAL_VIEW":\n            return 2\n'
        '    return config.backend == "hive"\n'
    )
    assert _branches_by_string(branching) == 2
    naming = tmp_path / "naming.py"
    naming.write_text("from gluecat.kinds.registry import ICEBERG, recognise\n")
    assert _names_a_kind(naming)
    assert not _names_a_kind(tmp_path / "branching.py")
