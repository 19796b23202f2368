"""`gluecat docs --live` on a real Iceberg REST catalog: the site builds from the live catalog, nested
namespaces included, and an Iceberg table written to shows its snapshots summary."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa

from tests.integration.helpers import gluecat
from tests.metastores.fixtures import LocalS3
from tests.rest.rest_server import RestCatalogServer
from tests.rest.test_gluecat_on_rest import _client, _project


def test_the_site_builds_from_the_live_rest_catalog(
    tmp_path: Path, rest_catalog: RestCatalogServer, rest_s3: LocalS3
) -> None:
    root = _project(tmp_path / "p", rest_catalog, rest_s3, "documented")
    applied = gluecat("apply", "--auto-approve", str(root))
    assert applied.exit_code == 0, applied.output
    users = _client(rest_catalog, rest_s3).load_table(("documented", "eu", "users"))
    rows = [{"user_id": 1, "email": "a@example.com"}, {"user_id": 2, "email": "b@example.com"}]
    users.append(pa.Table.from_pylist(rows, schema=users.schema().as_arrow()))
    current = _client(rest_catalog, rest_s3).load_table(("documented", "eu", "users")).metadata.current_snapshot_id

    site = tmp_path / "site"
    built = gluecat("docs", str(root), "--live", "--out", str(site))
    assert built.exit_code == 0, built.output
    document = json.loads((site / "catalog.json").read_text())
    assert document["catalog"]["backend"] == "iceberg-rest" and document["catalog"]["live_grants"] is False
    pages = {t["id"]: t for d in document["databases"] for t in d["tables"]}
    assert {"documented.events", "documented.eu.users"} <= set(pages)
    assert not pages["documented.events"].get("unmanaged")
    assert pages["documented.events"]["live"]["Snapshots"]["count"] == 0
    snapshots = pages["documented.eu.users"]["live"]["Snapshots"]
    assert snapshots["count"] == 1 and snapshots["current"]["id"] == str(current)
    assert snapshots["current"]["operation"] == "append" and snapshots["current"]["added_records"] == "2"
    assert "Versions" not in pages["documented.eu.users"]["live"]
