"""The reference pages are generated from the code and committed; these tests regenerate them in memory.

Why a removed option (or model key) fails here without a regeneration: `commands_page()` walks the
typer app's click tree and writes one row per option of every command, and `yaml_page()` writes one
row per field of every model the loader validates with. Remove `--fail-on` from `plan`, or `prune`
from `CatalogConfig`, and the page rendered now lacks that row while the committed page still has
it, so `test_the_committed_pages_are_the_generated_ones` fails with "run python docs/gen_reference.py".
The coverage tests below prove the premise: every option and every key does get a row.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).parents[2]
DOCS = ROOT / "docs"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_reference", DOCS / "gen_reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("gen_reference", module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    rendered: dict[str, str] = _generator().pages()
    return rendered


def test_the_committed_pages_are_the_generated_ones(pages: dict[str, str]) -> None:
    stale = [name for name, text in pages.items() if (DOCS / name).read_text(encoding="utf-8") != text]
    assert not stale, f"out of date: {', '.join(stale)}: run python docs/gen_reference.py"


def _commands() -> list[tuple[str, Any]]:
    import typer

    from gluecat.cli import app

    found: list[tuple[str, Any]] = []

    def walk(path: str, command: Any) -> None:
        found.append((path, command))
        for name, sub in getattr(command, "commands", {}).items():
            walk(f"{path} {name}", sub)

    walk("gluecat", typer.main.get_command(app))
    return found[1:]


def _section(page: str, heading: str) -> str:
    start = page.index(heading + "\n")
    end = page.find("\n## ", start + 1)
    return page[start : end if end != -1 else len(page)]


def test_every_command_and_option_has_its_row(pages: dict[str, str]) -> None:
    page = pages["reference/commands.md"]
    assert len(_commands()) >= 13
    for path, command in _commands():
        section = _section(page, f"## `{path}`")
        for param in command.params:
            if param.hidden:
                continue
            name = param.opts[0] if param.opts[0].startswith("-") else param.name.upper()
            assert f"| `{name}`" in section, f"{path}: {name} has no row"


def _written_keys(model: Any) -> list[str]:
    """The keys a file writes for `model`: the backend's settings, folded into one field, are written flat."""
    from gluecat.model.backend_settings import FIELD, KEYS

    written = [KEYS if name == FIELD else (field.alias or name,) for name, field in model.model_fields.items()]
    return [key for keys in written for key in keys]


def test_every_key_of_every_file_has_its_row(pages: dict[str, str]) -> None:
    from gluecat.model import TABLE_MODELS, CatalogConfig, Database

    page = pages["reference/yaml.md"]
    files: list[tuple[str, Any]] = [("## catalog.yaml", CatalogConfig), ("## database.yaml", Database)]
    files += [(f"## tables/&lt;table&gt;.yaml, format: {kind}", model) for kind, model in TABLE_MODELS.items()]
    for heading, model in files:
        section = _section(page, heading)
        for name in _written_keys(model):
            assert f"| `{name}` |" in section, f"{heading}: {name} has no row"
    assert "| `client_secret` |" in page, "nested objects (rest_auth's forms) are described too"


def test_a_removed_option_would_change_the_page(monkeypatch: pytest.MonkeyPatch, pages: dict[str, str]) -> None:
    """The failure the docstring reasons about, made: drop `plan --fail-on` from the click tree."""
    import typer

    generator = _generator()
    real = typer.main.get_command

    def without_fail_on(app: Any) -> Any:
        root = real(app)
        plan = root.commands["plan"]
        plan.params = [p for p in plan.params if p.name != "fail_on"]
        return root

    monkeypatch.setattr(typer.main, "get_command", without_fail_on)
    rendered = generator.commands_page()
    assert "`--fail-on`" in pages["reference/commands.md"] and "`--fail-on`" not in rendered
    assert rendered != (DOCS / "reference/commands.md").read_text(encoding="utf-8")


def test_a_removed_key_would_change_the_page(monkeypatch: pytest.MonkeyPatch, pages: dict[str, str]) -> None:
    """The same for a model: `prune` gone from CatalogConfig's fields."""
    from gluecat.model import CatalogConfig

    fields = {name: field for name, field in CatalogConfig.model_fields.items() if name != "prune"}
    monkeypatch.setattr(CatalogConfig, "__pydantic_fields__", fields)
    rendered = _generator().yaml_page()
    assert "| `prune` |" in _section(pages["reference/yaml.md"], "## catalog.yaml")
    assert "| `prune` |" not in _section(rendered, "## catalog.yaml")
