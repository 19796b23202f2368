"""gluecat manages a real Iceberg REST catalog (Apache Iceberg's own server, files on the local S3):
two namespaces (one nested), a partitioned and sorted Iceberg table and an unpartitioned one; what
the catalog holds afterwards; a clean re-plan; evolution; import; and the one-line refusals."""

from __future__ import annotations

import json
from pathlib import Path

from pyiceberg.catalog.rest import RestCatalog

from tests.integration.helpers import gluecat, write_project
from tests.metastores.fixtures import LocalS3
from tests.rest.rest_server import RestCatalogServer

EVENTS = """\
format: iceberg
description: Events
columns:
  - {name: event_id, type: bigint, required: true}
  - {name: kind, type: string}
  - {name: at, type: timestamp}
partition_spec:
  - {column: at, transform: day}
  - {column: event_id, transform: "bucket[8]"}
sort_order:
  - {column: kind}
  - {column: event_id, direction: desc, null_order: nulls-last}
properties:
  write.format.default: parquet
"""
USERS = """\
format: iceberg
columns:
  - {name: user_id, type: bigint}
  - {name: email, type: string}
"""


def _catalog_yaml(server: RestCatalogServer, s3: LocalS3, extra: str = "") -> str:
    return f"backend: iceberg-rest\nrest_uri: {server.uri}\nwarehouse: s3://{s3.bucket}/gluecat/\n{extra}"


def _project(root: Path, server: RestCatalogServer, s3: LocalS3, ns: str, extra: str = "") -> Path:
    files = {
        f"{ns}/database.yaml": f"description: Analytics\nlocation: s3://{s3.bucket}/{ns}/\n",
        f"{ns}/tables/events.yaml": EVENTS,
        f"{ns}.eu/database.yaml": f"location: s3://{s3.bucket}/{ns}/eu/\nparameters: {{owner: data}}\n",
        f"{ns}.eu/tables/users.yaml": USERS,
    }
    return write_project(root, s3.endpoint, files, _catalog_yaml(server, s3, extra))


def _client(server: RestCatalogServer, s3: LocalS3) -> RestCatalog:
    return RestCatalog(
        "check", uri=server.uri,
        **{"s3.endpoint": s3.endpoint, "s3.access-key-id": s3.access_key,
           "s3.secret-access-key": s3.secret_key, "s3.region": "us-east-1"},
    )  # fmt: skip


def test_apply_holds_the_declared_tables_and_replans_clean(
    tmp_path: Path, rest_catalog: RestCatalogServer, rest_s3: LocalS3
) -> None:
    root = _project(tmp_path / "p", rest_catalog, rest_s3, "analytics")

    applied = gluecat("apply", "--auto-approve", str(root))
    assert applied.exit_code == 0, applied.output

    client = _client(rest_catalog, rest_s3)
    assert ("analytics", "eu") in client.list_namespaces(("analytics",))
    assert client.load_namespace_properties(("analytics",))["comment"] == "Analytics"
    assert client.load_namespace_properties(("analytics", "eu"))["owner"] == "data"
    events = client.load_table(("analytics", "events"))
    schema = events.schema()
    assert [(f.name, str(f.field_type), f.required) for f in schema.fields] == [
        ("event_id", "long", True), ("kind", "string", False), ("at", "timestamp", False),
    ]  # fmt: skip
    assert [(schema.find_column_name(f.source_id), str(f.transform)) for f in events.spec().fields] == [
        ("at", "day"), ("event_id", "bucket[8]"),
    ]  # fmt: skip
    order = events.sort_order()
    assert [(schema.find_column_name(f.source_id), f.direction.value, f.null_order.value) for f in order.fields] == [
        ("kind", "asc", "nulls-first"), ("event_id", "desc", "nulls-last"),
    ]  # fmt: skip
    assert events.properties["write.format.default"] == "parquet"
    assert events.location() == f"s3://{rest_s3.bucket}/gluecat/analytics.db/events"  # the warehouse first
    users = client.load_table(("analytics", "eu", "users"))
    assert users.spec().is_unpartitioned()
    assert [f.name for f in users.schema().fields] == ["user_id", "email"]

    replanned = gluecat("plan", "--detailed-exitcode", str(root))
    assert replanned.exit_code == 0, replanned.output
    assert "No changes" in replanned.output


def test_evolution_commits_with_requirements_and_replans_clean(
    tmp_path: Path, rest_catalog: RestCatalogServer, rest_s3: LocalS3
) -> None:
    root = _project(tmp_path / "p", rest_catalog, rest_s3, "evolving")
    assert gluecat("apply", "--auto-approve", str(root)).exit_code == 0
    evolved = EVENTS.replace(
        "  - {name: at, type: timestamp}\n", "  - {name: at, type: timestamp}\n  - {name: region, type: string}\n"
    )
    evolved = evolved.replace(
        '  - {column: event_id, transform: "bucket[8]"}\n', "  - {column: region, transform: identity}\n"
    )
    (root / "evolving" / "tables" / "events.yaml").write_text(evolved)

    applied = gluecat("apply", "--auto-approve", str(root))
    assert applied.exit_code == 0, applied.output

    events = _client(rest_catalog, rest_s3).load_table(("evolving", "events"))
    schema = events.schema()
    assert [f.name for f in schema.fields] == ["event_id", "kind", "at", "region"]
    assert [(schema.find_column_name(f.source_id), str(f.transform)) for f in events.spec().fields] == [
        ("at", "day"), ("region", "identity"),
    ]  # fmt: skip
    assert gluecat("plan", "--detailed-exitcode", str(root)).exit_code == 0


def test_import_writes_the_shapes_it_reads_and_replans_clean(
    tmp_path: Path, rest_catalog: RestCatalogServer, rest_s3: LocalS3
) -> None:
    source = _project(tmp_path / "source", rest_catalog, rest_s3, "imported")
    assert gluecat("apply", "--auto-approve", str(source)).exit_code == 0
    target = tmp_path / "target"
    write_project(target, rest_s3.endpoint, {}, _catalog_yaml(rest_catalog, rest_s3))

    imported = gluecat("import", str(target), "--database", "imported", "--database", "imported.eu")
    assert imported.exit_code == 0, imported.output

    written = (target / "imported" / "tables" / "events.yaml").read_text()
    assert "format: iceberg" in written and "bucket[8]" in written
    assert (target / "imported.eu" / "tables" / "users.yaml").is_file()
    replanned = gluecat("plan", "--detailed-exitcode", str(target))
    assert replanned.exit_code == 0, replanned.output


def test_a_hive_table_in_a_rest_project_is_refused_at_its_line(
    tmp_path: Path, rest_catalog: RestCatalogServer, rest_s3: LocalS3
) -> None:
    root = _project(tmp_path / "p", rest_catalog, rest_s3, "refused")
    (root / "refused" / "tables" / "clicks.yaml").write_text(
        "storage: parquet\nformat: hive\ncolumns:\n  - {name: id, type: bigint}\n"
    )

    planned = gluecat("plan", str(root))

    assert planned.exit_code == 1
    assert "clicks.yaml:2:" in planned.output and "backend: iceberg-rest" in planned.output, planned.output
    assert "refused" not in [ns[0] for ns in _client(rest_catalog, rest_s3).list_namespaces()]


def test_an_unreachable_rest_uri_is_one_line_naming_it(tmp_path: Path, rest_s3: LocalS3) -> None:
    from tests.processes import free_port

    uri = f"http://127.0.0.1:{free_port()}"
    root = write_project(tmp_path / "p", rest_s3.endpoint, {"db/database.yaml": "location: s3://lake/db/\n"},
                         f"backend: iceberg-rest\nrest_uri: {uri}\n")  # fmt: skip

    planned = gluecat("plan", str(root))

    assert planned.exit_code == 1
    lines = [line for line in planned.output.splitlines() if line.strip()]
    assert len(lines) == 1 and uri in lines[0] and "Traceback" not in planned.output, planned.output


def test_what_is_not_built_for_rest_is_refused_in_one_line(
    tmp_path: Path, rest_catalog: RestCatalogServer, rest_s3: LocalS3
) -> None:
    root = _project(tmp_path / "p", rest_catalog, rest_s3, "refusals")
    assert gluecat("apply", "--auto-approve", str(root)).exit_code == 0

    for command, expected in [
        (("history", str(root), "refusals.events"), "an Iceberg REST catalog keeps none"),
        (("rollback", str(root), "refusals.events", "--to-version", "1", "--auto-approve"), "keeps none"),
    ]:
        result = gluecat(*command)
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert result.exit_code == 1 and len(lines) == 1 and expected in lines[0], result.output

    # spark-conf is built for REST: Spark's Iceberg catalog type=rest and Trino's (tests/engines/)
    spark = gluecat("spark-conf", str(root), "--format", "json")
    assert spark.exit_code == 0, spark.output
    assert json.loads(spark.stdout)["spark.sql.catalog.glue.uri"] == rest_catalog.uri
    trino = gluecat("spark-conf", str(root), "--format", "trino")
    assert trino.exit_code == 0 and "iceberg.catalog.type=rest" in trino.stdout, trino.output
