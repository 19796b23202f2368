"""Every method of the protocols a kind or a backend implements says what it must do: the next
kind or backend is written from these, not from reading the other implementations."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import gluecat

PROTOCOLS = ("kinds/base.py", "backends/base.py")


def _protocol_methods(path: Path) -> list[tuple[str, str, bool]]:
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if not isinstance(node, ast.ClassDef):
            continue
        bases = [base.value if isinstance(base, ast.Subscript) else base for base in node.bases]
        if not any(isinstance(base, ast.Name) and base.id == "Protocol" for base in bases):
            continue
        for item in node.body:
            if isinstance(item, ast.FunctionDef):
                found.append((node.name, item.name, ast.get_docstring(item) is not None))
    return found


@pytest.mark.parametrize("module", PROTOCOLS)
def test_every_protocol_method_has_a_docstring(module: str) -> None:
    methods = _protocol_methods(Path(gluecat.__file__).parent / module)
    assert methods, f"{module} declares no protocol"
    assert [f"{cls}.{name}" for cls, name, documented in methods if not documented] == []
