"""The real-world corpus (tests/corpus: table definitions from AWS's docs and public repositories),
imported by gluecat, removed from Glue, applied again by gluecat from the YAML, and read by Trino.

Each table Trino's Hive connector reads answers `SELECT * ... LIMIT 0` (its columns, typed); each
it refuses is one `gluecat validate` warns about, naming Trino and the reason. Iceberg and Delta
registrations without their metadata or log are Trino's other connectors' and stay out.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.corpus import load_corpus
from tests.engines.conftest import Lake
from tests.integration.helpers import gluecat

LAKE_FORMATS = ("ICEBERG", "DELTA")  # read by Trino's iceberg and delta_lake connectors, from metadata
# Refused for a reason outside the definition: the view names a table the corpus does not hold.
OUTSIDE = {"trino_mmc_hive_employees_by_department.json": "its view reads mmc_hive.employees, not in the corpus"}


def _entries() -> list[dict[str, Any]]:
    chosen = []
    for entry in load_corpus():
        parameters = entry["table_input"].get("Parameters") or {}
        lake_format = parameters.get("table_type", "").upper() in LAKE_FORMATS
        if (
            lake_format
            or parameters.get("spark.sql.sources.provider", "").lower() == "delta"
            or entry["file"] in OUTSIDE
        ):
            continue
        chosen.append(entry)
    return chosen


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@pytest.fixture(scope="module")
def corpus(module_lake: Lake) -> dict[str, Any]:
    entries = _entries()
    glue = module_lake.glue_client
    databases = sorted({e["database"].lower() for e in entries})
    for database in databases:
        glue.create_database(DatabaseInput={"Name": database, "LocationUri": f"s3://lake/corpus/{database}/"})
    for entry in entries:
        glue.create_table(DatabaseName=entry["database"], TableInput=entry["table_input"])
    root = module_lake.root
    root.mkdir(parents=True)
    (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {module_lake.glue.endpoint_url}\n")
    imported = {d: gluecat("import", str(root), "--database", d) for d in databases}
    for entry in entries:
        glue.delete_table(DatabaseName=entry["database"].lower(), Name=entry["table_input"]["Name"].lower())
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    validated = gluecat("validate", str(root))
    return {"entries": entries, "imported": imported, "validated": validated.output}


def _warned(validated: str, database: str, name: str) -> list[str]:
    """validate's Trino warnings for one table file (the file stem may differ in case from Glue's name)."""
    return [
        line
        for line in validated.splitlines()
        if "[engine-trino]" in line
        and f"/{database}/tables/".lower() in line.lower()
        and f"/{name}.yaml".lower() in line.lower()
    ]


def test_every_corpus_table_reads_in_trino_or_validate_says_why(corpus: dict[str, Any], module_lake: Lake) -> None:
    unexplained, read, warned = [], 0, 0
    for entry in corpus["entries"]:
        database, name = entry["database"].lower(), entry["table_input"]["Name"].lower()
        warnings = _warned(corpus["validated"], database, name)
        try:
            module_lake.query(f"SELECT * FROM hive.{_quoted(database)}.{_quoted(name)} LIMIT 0")
        except Exception as exc:
            refusal = re.sub(r"\s+", " ", str(exc))[:300]
            if not warnings:
                unexplained.append(f"{entry['file']}: Trino refused it and validate said nothing: {refusal}")
            warned += 1
            continue
        read += 1
        if warnings:
            unexplained.append(f"{entry['file']}: validate warns {warnings[0]} but Trino reads it")
    assert not unexplained, "\n".join(unexplained)
    assert read >= 75, f"only {read} corpus tables read in Trino"
    assert warned, "the corpus holds tables Trino refuses: each must be warned about"
