"""Trino reads a table moved between the local Glue and the Iceberg REST catalog where it now lives:
the same rows through Glue before the move and through the REST catalog after it; Trino's INSERT there
is a commit the re-plan stays clean after; and the rows, Trino's too, read through Glue again once
the table moved back.

Trino's two catalogs are the files `spark-conf --format trino` prints for the project's Glue and REST
environments, each used as printed (the REST one saved as `rest.properties`, so that Trino names the
two catalogs apart)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.engines.trino_server import EngineUnavailable, Trino, catalog_files
from tests.integration.helpers import gluecat, write_project
from tests.metastores.fixtures import LocalS3
from tests.rest.moves import (
    EVENTS,
    append,
    assert_moved,
    environments,
    glue_catalog,
    glue_client,
    rest_client,
    rows_of,
)
from tests.rest.rest_server import RestCatalogServer

DB = "move_trino"


@contextmanager
def _trino(moved_project: Path, rest_catalog: RestCatalogServer, rest_s3: LocalS3, workdir: Path) -> Iterator[Trino]:
    """Trino with the Glue and the REST catalog `spark-conf --format trino` prints for the project."""
    catalogs = {}
    for env, name in (("glue", "iceberg"), ("rest", "rest")):
        printed = gluecat("spark-conf", str(moved_project), "--env", env, "--format", "trino",
                          "--endpoint", rest_s3.endpoint)  # fmt: skip
        assert printed.exit_code == 0, printed.output
        files = catalog_files(printed.stdout)
        assert list(files) == ["iceberg"], printed.stdout
        catalogs[name] = files["iceberg"]
    assert f"iceberg.rest-catalog.uri={rest_catalog.uri}" in catalogs["rest"].splitlines()
    credentials = {"AWS_ACCESS_KEY_ID": rest_s3.access_key, "AWS_SECRET_ACCESS_KEY": rest_s3.secret_key,
                   "AWS_REGION": "us-east-1"}  # fmt: skip
    workdir.mkdir(parents=True, exist_ok=True)
    server = Trino(workdir, catalogs, credentials)
    try:
        server.start()
    except EngineUnavailable as exc:
        server.stop()
        pytest.fail(str(exc), pytrace=False)
    try:
        yield server
    finally:
        server.stop()


def _read(trino: Trino, catalog: str) -> list[tuple[int, str]]:
    return sorted((int(r[0]), str(r[1])) for r in trino.query(f"SELECT event_id, kind FROM {catalog}.{DB}.events"))


def test_trino_reads_a_moved_table_where_it_lives_and_writes_there(
    tmp_path: Path, rest_catalog: RestCatalogServer, rest_s3: LocalS3
) -> None:
    source = write_project(
        tmp_path / "source", rest_s3.endpoint,
        {f"{DB}/database.yaml": f"location: s3://{rest_s3.bucket}/{DB}/\n", f"{DB}/tables/events.yaml": EVENTS},
    )  # fmt: skip
    assert gluecat("apply", str(source), "--auto-approve").exit_code == 0
    append(glue_catalog(rest_s3).load_table((DB, "events")), rows_of(0, 6))
    expected = [(i, f"k{i}") for i in range(6)]
    moved_project = write_project(tmp_path / "moved", rest_s3.endpoint, {}, environments(rest_catalog, "glue"))
    imported = gluecat("import", str(moved_project), "--database", DB)
    assert imported.exit_code == 0, imported.output
    with _trino(moved_project, rest_catalog, rest_s3, tmp_path / "trino") as trino:
        _moves(moved_project, trino, rest_catalog, rest_s3, expected)


def _moves(
    moved_project: Path,
    trino: Trino,
    rest_catalog: RestCatalogServer,
    rest_s3: LocalS3,
    expected: list[tuple[int, str]],
) -> None:
    assert _read(trino, "iceberg") == expected
    assert_moved(moved_project, "rest", f"{DB}.events")
    assert _read(trino, "rest") == expected

    glue_client(rest_s3).delete_table(DatabaseName=DB, Name="events")  # the old entry, files kept
    trino.query(f"INSERT INTO rest.{DB}.events VALUES (100, 'trino', TIMESTAMP '2026-02-01 10:00:00')")
    with_trino = [*expected, (100, "trino")]
    assert _read(trino, "rest") == with_trino
    replanned = gluecat("plan", str(moved_project), "--env", "rest", "--detailed-exitcode")
    assert replanned.exit_code == 0, replanned.output

    rest_client(rest_catalog, rest_s3).drop_table((DB, "events"))  # no purge
    assert_moved(moved_project, "glue", f"{DB}.events")
    assert _read(trino, "iceberg") == with_trino
    again = gluecat("plan", str(moved_project), "--env", "glue", "--detailed-exitcode")
    assert again.exit_code == 0, again.output
