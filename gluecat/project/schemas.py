"""JSON Schemas for the YAML files, generated from the models.

Run `python -m gluecat.project.schemas [DIR]` to rewrite them (default: ./schemas);
a test fails when the committed files are out of date.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from gluecat.model import CatalogConfig, Database, Table

SCHEMA_URI = "https://json-schema.org/draft/2020-12/schema"


def _schema(target: Any, title: str) -> dict[str, Any]:
    schema = TypeAdapter(target).json_schema(by_alias=True)
    return {"$schema": SCHEMA_URI, "title": title, **schema}


def schemas() -> dict[str, dict[str, Any]]:
    """File name -> JSON Schema, for every kind of YAML file in a catalog project."""
    return {
        "catalog.schema.json": _schema(CatalogConfig, "gluecat catalog.yaml"),
        "database.schema.json": _schema(Database, "gluecat database.yaml"),
        "table.schema.json": _schema(Table, "gluecat tables/<table>.yaml"),
    }


def render(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def write(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in schemas().items():
        path = directory / name
        path.write_text(render(schema), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for written_path in write(Path(sys.argv[1] if len(sys.argv) > 1 else "schemas")):
        print(written_path)
