"""What `gluecat import` writes passes the JSON Schemas editors check files with."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import boto3

from gluecat.sandbox.server import LocalGlue
from tests.corpus import create_corpus
from tests.integration.helpers import copy_example, gluecat
from tests.unit.test_schemas import project_files, schema_problems


def _import_into_empty_project(root: Path, server: LocalGlue) -> list[Path]:
    root.mkdir()
    (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
    imported = gluecat("import", str(root), "--partitions")
    assert imported.exit_code == 0, imported.output
    files = project_files(root)
    assert len(files) > 1
    return files


def test_every_file_imported_from_the_real_world_corpus_passes_its_schema(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    corpus = create_corpus(raw_glue)

    files = _import_into_empty_project(tmp_path / "imported", server)

    assert len([path for path in files if path.parent.name == "tables"]) == len(corpus)
    assert [problem for path in files for problem in schema_problems(path)] == []


def test_every_file_imported_back_from_the_applied_example_passes_its_schema(tmp_path: Path, server: LocalGlue) -> None:
    """The example's Iceberg, Delta and partitioned tables, as import writes them (`format-version: 2` ...)."""
    example = copy_example(tmp_path / "example")
    catalog = (example / "catalog.yaml").read_text()
    (example / "catalog.yaml").write_text(catalog.replace("sandbox: true", f"endpoint_url: {server.endpoint_url}"))
    boto3.client("s3", endpoint_url=server.endpoint_url, region_name="us-east-1").create_bucket(Bucket="example-lake")
    applied = gluecat("apply", str(example), "--auto-approve")
    assert applied.exit_code == 0, applied.output

    files = _import_into_empty_project(tmp_path / "imported", server)

    assert {path.parent.parent.name for path in files if path.parent.name == "tables"} == {"sales", "web", "lake"}
    assert [problem for path in files for problem in schema_problems(path)] == []
