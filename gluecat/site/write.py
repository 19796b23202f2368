"""Write the document as a static site: one folder that opens from disk (file://) or any static host.

A browser opening a page from disk may not fetch JSON, so the data travels as JavaScript files
that hand it to the page: `data/catalog.js` (databases and a one-line summary of each table, enough
for the first page), `data/search.js` (names and comments, loaded when a search starts) and one
`data/t/N.js` per table or view (loaded when its page opens), so a catalog of 10,000 tables opens
as fast as a small one. `catalog.json` holds the whole document for other tools."""

from __future__ import annotations

import json
import shutil
from importlib import resources
from pathlib import Path
from typing import Any

ASSETS = ("index.html", "app.js", "style.css")
SUMMARY_CHARS = 160  # of a description, on the lists; the page shows all of it


def write_site(document: dict[str, Any], out: Path) -> int:
    """Write the site into `out` (created; files a previous build left there are replaced). Returns
    how many table pages it wrote."""
    out.mkdir(parents=True, exist_ok=True)
    pages = out / "data" / "t"
    if pages.exists():
        shutil.rmtree(pages)
    pages.mkdir(parents=True)
    assets = resources.files("gluecat.site").joinpath("assets")
    for name in ASSETS:
        (out / name).write_text(assets.joinpath(name).read_text(encoding="utf-8"), encoding="utf-8")
    search: list[list[Any]] = []
    catalog = {key: value for key, value in document.items() if key not in ("databases", "lineage")}
    catalog["databases"] = []
    number = 0
    for db in document["databases"]:
        tables = []
        for table in db["tables"]:
            _script(pages / f"{number}.js", f"GLUECAT.page({number}, ", table, ");\n")
            tables.append(_summary(table, number))
            search.extend(_search_entries(table, number))
            number += 1
        catalog["databases"].append({**{k: v for k, v in db.items() if k != "tables"}, "tables": tables})
        search.append(["database", -1, db["name"], db.get("description") or ""])
    catalog["pages"] = number
    _script(out / "data" / "catalog.js", "GLUECAT.catalog(", catalog, ");\n")
    _script(out / "data" / "search.js", "GLUECAT.searchIndex(", search, ");\n")
    (out / "catalog.json").write_text(_json(document), encoding="utf-8")
    return number


def _summary(table: dict[str, Any], number: int) -> list[Any]:
    """[name, page, kind, description, column count, unmanaged]: one table on the lists."""
    description = table.get("description") or ""
    if len(description) > SUMMARY_CHARS:
        description = description[: SUMMARY_CHARS - 1] + "…"
    return [
        table["name"],
        number,
        table["kind"],
        description,
        len(table.get("columns") or []),
        bool(table.get("unmanaged")),
    ]


def _search_entries(table: dict[str, Any], number: int) -> list[list[Any]]:
    """[what, page, name, text]: the table or view by its address and description, each column by
    table.column and its comment."""
    what = "view" if table["kind"] == "view" else "table"
    entries: list[list[Any]] = [[what, number, table["id"], table.get("description") or ""]]
    for column in [*table.get("columns", []), *table.get("partition_keys", [])]:
        entries.append(["column", number, f"{table['id']}.{column['name']}", column.get("comment") or ""])
    return entries


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)


def _script(path: Path, head: str, data: Any, tail: str) -> None:
    # `</` could end an inline script, and U+2028/2029 end lines in older JavaScript: escape them.
    text = _json(data).replace("</", "<\\/").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    path.write_text(head + text + tail, encoding="utf-8")


def write_json(document: dict[str, Any], out: Path) -> None:
    """The whole document as one JSON file (`gluecat docs --format json --out FILE`)."""
    out.write_text(json.dumps(document, indent=2, ensure_ascii=False, default=str) + "\n", encoding="utf-8")
