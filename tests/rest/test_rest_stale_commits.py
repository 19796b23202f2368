"""gluecat never overwrites a table that changed in the Iceberg REST catalog after it planned: a saved
plan made before the change is refused as stale, a fresh apply whose table changed meanwhile is
refused before its commit, and a commit the catalog itself refuses (409, another commit won between
gluecat's read and its commit) is reported in one line. Each time the other writer's change stays,
gluecat's is not made, and the next plan proposes it again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.types import StringType

from gluecat.backends.iceberg import IcebergTables
from tests.integration.helpers import gluecat, write_project
from tests.metastores.fixtures import LocalS3
from tests.rest.rest_server import RestCatalogServer

TABLE = """\
format: iceberg
columns:
  - {name: id, type: bigint}
"""
OURS = TABLE + "  - {name: ours, type: string}\n"


def _client(server: RestCatalogServer, s3: LocalS3) -> RestCatalog:
    return RestCatalog(
        "theirs", uri=server.uri,
        **{"s3.endpoint": s3.endpoint, "s3.access-key-id": s3.access_key,
           "s3.secret-access-key": s3.secret_key, "s3.region": "us-east-1"},
    )  # fmt: skip


def _applied(tmp_path: Path, server: RestCatalogServer, s3: LocalS3, namespace: str) -> Path:
    """A namespace with one table, applied; the YAML then adds the column `ours`."""
    root = write_project(
        tmp_path / "p", s3.endpoint,
        {f"{namespace}/database.yaml": f"location: s3://{s3.bucket}/{namespace}/\n",
         f"{namespace}/tables/t.yaml": TABLE},
        f"backend: iceberg-rest\nrest_uri: {server.uri}\n",
    )  # fmt: skip
    applied = gluecat("apply", "--auto-approve", str(root))
    assert applied.exit_code == 0, applied.output
    (root / namespace / "tables" / "t.yaml").write_text(OURS)
    return root


def _theirs(server: RestCatalogServer, s3: LocalS3, namespace: str) -> None:
    """Another writer's schema change, committed through the catalog."""
    with _client(server, s3).load_table((namespace, "t")).update_schema() as update:
        update.add_column("theirs", StringType())


def _columns(server: RestCatalogServer, s3: LocalS3, namespace: str) -> list[str]:
    return [f.name for f in _client(server, s3).load_table((namespace, "t")).schema().fields]


def _lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.strip()]


def test_a_saved_plan_is_refused_when_the_table_changed_after_it(
    tmp_path: Path, rest_catalog: RestCatalogServer, rest_s3: LocalS3
) -> None:
    ns = "stale_saved"
    root = _applied(tmp_path, rest_catalog, rest_s3, ns)
    saved = tmp_path / "plan.json"
    assert gluecat("plan", str(root), "--out", str(saved)).exit_code == 0
    _theirs(rest_catalog, rest_s3, ns)

    refused = gluecat("apply", str(saved))

    assert refused.exit_code == 1, refused.output
    assert "stale" in refused.output and f"{ns}.t" in refused.output, refused.output
    assert "Traceback" not in refused.output
    assert _columns(rest_catalog, rest_s3, ns) == ["id", "theirs"]


def test_a_fresh_apply_refuses_a_table_changed_since_its_plan(
    tmp_path: Path, rest_catalog: RestCatalogServer, rest_s3: LocalS3, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other writer commits after gluecat read the live state and before it commits: gluecat's
    fingerprint check (schema, spec, sort order, properties) sees it and sends nothing."""
    ns = "stale_fresh"
    root = _applied(tmp_path, rest_catalog, rest_s3, ns)
    planned = IcebergTables.update

    def theirs_first(self: IcebergTables, database: str, name: str, ops: Any, expected: str | None) -> None:
        _theirs(rest_catalog, rest_s3, ns)
        planned(self, database, name, ops, expected)

    monkeypatch.setattr(IcebergTables, "update", theirs_first)
    result = gluecat("apply", "--auto-approve", str(root))
    monkeypatch.undo()

    assert result.exit_code == 1, result.output
    failed = [line for line in _lines(result.output) if f"{ns}.t" in line and "changed since the plan" in line]
    assert len(failed) == 1 and "not overwritten" in failed[0], result.output
    assert "Traceback" not in result.output
    assert _columns(rest_catalog, rest_s3, ns) == ["id", "theirs"]
    again = gluecat("plan", "--detailed-exitcode", str(root))
    assert again.exit_code == 2 and "ours" in again.output, again.output  # proposed again, on the new schema


def test_a_409_from_the_catalog_is_reported_in_one_line_and_nothing_is_overwritten(
    tmp_path: Path, rest_catalog: RestCatalogServer, rest_s3: LocalS3, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other writer commits after gluecat loaded the table for its commit: the commit goes with
    its requirements (the schema it was made from), the catalog answers 409, gluecat says so."""
    ns = "stale_409"
    root = _applied(tmp_path, rest_catalog, rest_s3, ns)
    load, update = IcebergTables._load, IcebergTables.update
    committing: list[bool] = []

    def committed(self: IcebergTables, database: str, name: str, ops: Any, expected: str | None) -> None:
        committing.append(True)
        update(self, database, name, ops, expected)

    def loaded_then_theirs(self: IcebergTables, database: str, name: str) -> Any:
        table = load(self, database, name)
        if committing and len(committing) == 1:  # the load its commit is made from, once
            committing.append(False)
            _theirs(rest_catalog, rest_s3, ns)
        return table

    monkeypatch.setattr(IcebergTables, "_load", loaded_then_theirs)
    monkeypatch.setattr(IcebergTables, "update", committed)
    result = gluecat("apply", "--auto-approve", str(root))
    monkeypatch.undo()

    assert result.exit_code == 1, result.output
    failed = [line for line in _lines(result.output) if f"{ns}.t" in line and "concurrent Iceberg commit" in line]
    assert len(failed) == 1 and "not overwritten" in failed[0], result.output
    assert "Traceback" not in result.output
    assert _columns(rest_catalog, rest_s3, ns) == ["id", "theirs"]
    (root / ns / "tables" / "t.yaml").write_text(TABLE + "  - {name: theirs, type: string}\n" + OURS[len(TABLE) :])
    converged = gluecat("apply", "--auto-approve", str(root))  # the YAML now keeps their column too
    assert converged.exit_code == 0, converged.output
    assert _columns(rest_catalog, rest_s3, ns) == ["id", "theirs", "ours"]
    assert gluecat("plan", "--detailed-exitcode", str(root)).exit_code == 0
