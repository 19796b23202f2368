"""The REST catalog the fixtures start answers pyiceberg's RestCatalog: nested namespaces, a table
whose metadata lands on the local S3, a stale commit refused with 409."""

from __future__ import annotations

import pytest
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.exceptions import CommitFailedException
from pyiceberg.schema import Schema
from pyiceberg.types import LongType, NestedField, StringType

from tests.metastores.fixtures import LocalS3
from tests.rest.rest_server import RestCatalogServer


def _client(server: RestCatalogServer, s3: LocalS3) -> RestCatalog:
    return RestCatalog(
        "test", uri=server.uri,
        **{"s3.endpoint": s3.endpoint, "s3.access-key-id": s3.access_key,
           "s3.secret-access-key": s3.secret_key, "s3.region": "us-east-1"},
    )  # fmt: skip


def test_nested_namespaces_and_a_table_on_the_local_s3(rest_catalog: RestCatalogServer, rest_s3: LocalS3) -> None:
    catalog = _client(rest_catalog, rest_s3)
    catalog.create_namespace(("srv_outer",))
    catalog.create_namespace(("srv_outer", "inner"))
    table = catalog.create_table(("srv_outer", "inner", "t"), Schema(NestedField(1, "id", LongType(), required=False)))

    assert ("srv_outer", "inner") in catalog.list_namespaces(("srv_outer",))
    assert catalog.list_tables(("srv_outer", "inner")) == [("srv_outer", "inner", "t")]
    key = table.metadata_location.removeprefix(f"s3://{rest_s3.bucket}/")
    assert rest_s3.client.head_object(Bucket=rest_s3.bucket, Key=key)["ContentLength"] > 0


def test_a_stale_commit_is_refused(rest_catalog: RestCatalogServer, rest_s3: LocalS3) -> None:
    catalog = _client(rest_catalog, rest_s3)
    catalog.create_namespace(("srv_stale",))
    first = catalog.create_table(("srv_stale", "t"), Schema(NestedField(1, "id", LongType(), required=False)))
    second = catalog.load_table(("srv_stale", "t"))
    with first.update_schema() as update:
        update.add_column("a", StringType())

    with pytest.raises(CommitFailedException), second.update_schema() as update:
        update.add_column("b", StringType())

    assert [f.name for f in catalog.load_table(("srv_stale", "t")).schema().fields] == ["id", "a"]
