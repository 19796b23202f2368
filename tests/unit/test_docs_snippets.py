"""Every ```yaml snippet of the documentation (docs/ and the README) validates as what its marker says
it is, or, marked `fails:`, fails with the message the page shows. A snippet without a marker fails
the test: a page cannot show YAML nobody checks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from gluecat.cli import app
from tests.docs_pages import Block, yaml_blocks

CATALOG = "region: eu-west-1\nvars: {lake: lake, team: commerce}\n"
DATABASE = "location: s3://lake/sales/\n"
HIVE_COLUMNS = [
    {"name": "id", "type": "bigint"},
    {"name": "ts", "type": "timestamp"},
    {"name": "user_id", "type": "bigint"},
]
# What a fragment (`validate: table over hive`, `validate: database over sales`) is laid over: the
# keys a whole file needs beside the fragment's.
BASES: dict[str, dict[str, Any]] = {
    "hive": {"storage": "parquet", "columns": HIVE_COLUMNS},
    "iceberg": {"format": "iceberg", "columns": HIVE_COLUMNS},
    "delta": {"format": "delta", "location": "s3://lake/sales/inventory", "columns": HIVE_COLUMNS},
    "sales": {"location": "s3://lake/sales/"},
}
KINDS = ("catalog", "database", "table")


def _kind(block: Block) -> tuple[str, str | None]:
    """(catalog | database | table, the base a fragment is laid over) from the block's marker."""
    if "validate" in block.marker:
        kind, _, base = block.marker["validate"].partition(" over ")
        return kind.strip(), base.strip() or None
    path = block.marker.get("write") or block.marker.get("file")
    if path:
        name = Path(path).name
        return ("catalog" if name == "catalog.yaml" else "database" if name == "database.yaml" else "table"), None
    raise AssertionError(
        f"{block.where}: a yaml snippet needs a marker before it, e.g. <!-- validate: table --> or"
        " <!-- validate: table over hive --> (see tests/docs_pages.py)"
    )


def _is_catalog(block: Block) -> bool:
    return block.marker.get("validate", "").startswith("catalog") or block.marker.get("write", "").endswith(
        "catalog.yaml"
    )


def _catalog_above(block: Block) -> str:
    """`catalog: above`: the page's last catalog snippet before this one, for snippets that need it
    (LF-tags a catalog defines)."""
    above = [b for b in SNIPPETS if b.page == block.page and b.line < block.line and _is_catalog(b)]
    assert above, f"{block.where}: `catalog: above`, but no catalog snippet comes before it"
    return above[-1].text


def _project(root: Path, block: Block) -> Path:
    """A project holding the snippet where its kind belongs, beside a minimal catalog and database."""
    kind, base = _kind(block)
    catalog = _catalog_above(block) if block.marker.get("catalog") == "above" else CATALOG
    assert kind in KINDS, f"{block.where}: unknown kind {kind!r}; one of {', '.join(KINDS)}"
    text = block.text
    if base is not None:
        assert base in BASES, f"{block.where}: no base {base!r}; one of {', '.join(BASES)}"
        fragment = yaml.safe_load(text) or {}
        whole = {**BASES[base], **fragment}
        if "input_format" in fragment:  # explicit formats instead of the base's `storage`
            whole.pop("storage")
        text = yaml.safe_dump(whole, sort_keys=False)
    document = yaml.safe_load(text) or {}
    (root / "sales" / "tables").mkdir(parents=True)
    (root / "catalog.yaml").write_text(text if kind == "catalog" else catalog, encoding="utf-8")
    database = document.get("name", "sales") if kind == "database" else "sales"
    (root / database / "tables").mkdir(parents=True, exist_ok=True)
    (root / database / "database.yaml").write_text(text if kind == "database" else DATABASE, encoding="utf-8")
    if kind == "table":
        name = document.get("name", "orders")
        (root / database / "tables" / f"{name}.yaml").write_text(text, encoding="utf-8")
    return root


SNIPPETS = yaml_blocks()


def test_the_pages_hold_snippets() -> None:
    assert len(SNIPPETS) >= 20


@pytest.mark.parametrize("block", SNIPPETS, ids=[block.where for block in SNIPPETS])
def test_a_snippet_validates_as_its_page_says(block: Block, tmp_path: Path) -> None:
    if yaml.safe_load(block.text) is None and "validate" not in block.marker:
        return  # only comments (a schema line for editors): nothing to validate
    root = _project(tmp_path / "project", block)
    result = CliRunner().invoke(app, ["validate", str(root)])
    expected = block.marker.get("fails")
    if expected is None:
        assert result.exit_code == 0, f"{block.where}: the snippet does not validate:\n{result.output}"
    else:
        assert result.exit_code == 1, f"{block.where}: the snippet was shown failing, but validates"
        assert expected in result.output, f"{block.where}: expected {expected!r} in:\n{result.output}"
    assert "Traceback" not in result.output
