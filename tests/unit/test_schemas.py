from __future__ import annotations

import json
from pathlib import Path

from gluecat.project import schemas

SCHEMAS = Path(__file__).parents[2] / "schemas"


def test_committed_schemas_match_the_models() -> None:
    for name, schema in schemas.schemas().items():
        committed = (SCHEMAS / name).read_text(encoding="utf-8")
        assert committed == schemas.render(schema), (
            f"schemas/{name} is out of date: run `python -m gluecat.project.schemas`"
        )


def test_table_schema_knows_every_format() -> None:
    schema = json.loads((SCHEMAS / "table.schema.json").read_text())
    assert {"HiveTable", "IcebergTable", "DeltaTable"} <= set(schema["$defs"])
