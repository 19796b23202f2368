"""Trino 476 on an Iceberg REST catalog (Apache Iceberg's own server, files on the local S3),
configured with exactly the files `gluecat spark-conf --format trino` prints for the project: it
reads rows pyiceberg appended to a table gluecat applied, INSERTs into it, sees the column and the
partition field gluecat adds afterwards, and every old row still reads; gluecat's plan stays clean
after Trino's commits.

The catalog sits behind the tests' OAuth2 proxy (the server itself checks no credentials): gluecat
and Trino each exchange the client secret for a token there, Trino with the secret its file names
as `${ENV:NAME}`. Trino starts here, for this module, with the REST project's files (the session's
Trino reads the local Glue). Its only additions are what any machine has: that secret and AWS
credentials in its environment, the latter read through the AWS chain (the local S3 takes any)."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pytest
from pyiceberg.catalog.rest import RestCatalog

from tests.engines.trino_server import EngineUnavailable, Trino, catalog_files
from tests.integration.helpers import gluecat, write_project
from tests.metastores.fixtures import LocalS3
from tests.rest.auth_proxy import Expected, auth_proxy
from tests.rest.rest_server import RestCatalogServer

REGION = "us-east-1"
NAMESPACE = "trino_rest"
SECRET = "engines-client-secret"
AUTH = "rest_auth: {type: oauth2, client_id: engines, client_secret: '${env.REST_ENGINES_SECRET}'}\n"
EVENTS = """\
format: iceberg
description: Events
columns:
  - {name: id, type: bigint}
  - {name: kind, type: string}
  - {name: at, type: timestamp}
partition_spec:
  - {column: at, transform: day}
"""
EVOLVED = (
    EVENTS.replace(
        "  - {name: at, type: timestamp}\n", "  - {name: at, type: timestamp}\n  - {name: region, type: string}\n"
    )
    + "  - {column: region, transform: identity}\n"
)


def _project(root: Path, uri: str, s3: LocalS3) -> Path:
    files = {
        f"{NAMESPACE}/database.yaml": f"location: s3://{s3.bucket}/{NAMESPACE}/\n",
        f"{NAMESPACE}/tables/events.yaml": EVENTS,
    }
    return write_project(root, s3.endpoint, files, f"backend: iceberg-rest\nrest_uri: {uri}\n{AUTH}")


def _printed(root: Path) -> dict[str, str]:
    printed = gluecat("spark-conf", str(root), "--format", "trino")
    assert printed.exit_code == 0, printed.output
    return catalog_files(printed.stdout)


@pytest.fixture(scope="module")
def proxy(rest_catalog: RestCatalogServer) -> Iterator[tuple[str, list[str]]]:
    """The catalog behind the OAuth2 proxy: its URI, and one line per request it saw."""
    expected = Expected("oauth2", "engines", SECRET)
    with pytest.MonkeyPatch.context() as patch, auth_proxy(rest_catalog.uri, expected) as seen:
        patch.setenv("REST_ENGINES_SECRET", SECRET)  # gluecat's own environment
        yield seen


@pytest.fixture(scope="module")
def project(proxy: tuple[str, list[str]], rest_s3: LocalS3, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _project(tmp_path_factory.mktemp("rest-project") / "catalog", proxy[0], rest_s3)


@pytest.fixture(scope="module")
def rest_trino(project: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Trino]:
    environment = {
        "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_REGION": REGION,
        "REST_ENGINES_SECRET": SECRET,
    }  # fmt: skip
    server = Trino(tmp_path_factory.mktemp("trino-rest"), _printed(project), environment)
    try:
        server.start()
    except EngineUnavailable as exc:
        server.stop()
        pytest.fail(str(exc), pytrace=False)
    try:
        yield server
    finally:
        server.stop()


def _client(server: RestCatalogServer, s3: LocalS3) -> RestCatalog:
    return RestCatalog(
        "writer", uri=server.uri,
        **{"s3.endpoint": s3.endpoint, "s3.access-key-id": s3.access_key,
           "s3.secret-access-key": s3.secret_key, "s3.region": REGION},
    )  # fmt: skip


def _plans_clean(root: Path) -> None:
    planned = gluecat("plan", str(root), "--detailed-exitcode")
    assert planned.exit_code == 0, planned.output


def test_trino_reads_and_writes_what_gluecat_and_pyiceberg_made_and_sees_the_evolution(
    project: Path, rest_trino: Trino, rest_catalog: RestCatalogServer, rest_s3: LocalS3, proxy: tuple[str, list[str]]
) -> None:
    applied = gluecat("apply", str(project), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert rest_trino.catalogs == _printed(project), "Trino runs with exactly what spark-conf prints"
    printed = rest_trino.catalogs["iceberg"].splitlines()
    assert "iceberg.catalog.type=rest" in printed
    assert "iceberg.rest-catalog.oauth2.credential=engines:${ENV:REST_ENGINES_SECRET}" in printed
    assert SECRET not in rest_trino.catalogs["iceberg"]

    table = _client(rest_catalog, rest_s3).load_table((NAMESPACE, "events"))
    day = datetime.datetime(2024, 1, 1)
    table.append(
        pa.table(
            {"id": [1, 2], "kind": ["click", "view"], "at": [day, day + datetime.timedelta(days=1)]},
            schema=pa.schema([("id", pa.int64()), ("kind", pa.string()), ("at", pa.timestamp("us"))]),
        )
    )
    events = f"iceberg.{NAMESPACE}.events"
    assert rest_trino.query(f"SELECT id, kind FROM {events} ORDER BY id") == [[1, "click"], [2, "view"]]
    rest_trino.query(f"INSERT INTO {events} VALUES (3, 'buy', TIMESTAMP '2024-01-03 10:00:00')")
    assert rest_trino.query(f"SELECT count(*) FROM {events}") == [[3]]
    _plans_clean(project)  # Trino's and pyiceberg's commits change nothing gluecat declares

    (project / NAMESPACE / "tables" / "events.yaml").write_text(EVOLVED)
    evolved = gluecat("apply", str(project), "--auto-approve")
    assert evolved.exit_code == 0, evolved.output
    assert _printed(project) == rest_trino.catalogs, "the evolution needs no other Trino configuration"

    ddl = rest_trino.query(f"SHOW CREATE TABLE {events}")[0][0]
    assert "region varchar" in ddl and "partitioning = ARRAY['day(at)','region']" in ddl, ddl
    rest_trino.query(f"INSERT INTO {events} VALUES (4, 'buy', TIMESTAMP '2024-01-04 10:00:00', 'eu')")
    assert rest_trino.query(f"SELECT id, kind, region FROM {events} ORDER BY id") == [
        [1, "click", None], [2, "view", None], [3, "buy", None], [4, "buy", "eu"],
    ]  # fmt: skip
    by_region = rest_trino.query(
        f'SELECT partition.region, record_count FROM iceberg.{NAMESPACE}."events$partitions"'
        " WHERE partition.region IS NOT NULL"
    )
    assert by_region == [["eu", 1]], "only the row written after the change is partitioned by region"
    _plans_clean(project)
    _, seen = proxy
    assert not [line for line in seen if not line.startswith("200")], "every request carried the issued token"
    assert any(line.startswith("200 POST /v1/namespaces/trino_rest/tables/events") for line in seen), seen
