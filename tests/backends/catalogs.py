"""The catalogs the shared backend suite runs against, one row each, and what each holds read
without gluecat (boto3 for Glue, Thrift for a Hive Metastore, pyiceberg's own REST client for an
Iceberg REST catalog), so a test asserts the catalog's state, not gluecat's idea of it.

Adding a backend is one row in `ROWS`: its name, its marks, and a factory that starts (or reaches)
the catalog and returns a `CatalogUnderTest`. What a backend cannot hold (an Iceberg REST catalog
holds no Hive tables, so no catalog partitions) the suite asks of the backend's capabilities in
gluecat's registry, never of the row's name.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import boto3
import pytest
from hive_metastore.ThriftHiveMetastore import Client
from hive_metastore.ttypes import GetTableRequest, NoSuchObjectException, Partition, StorageDescriptor
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.exceptions import NoSuchNamespaceError, NoSuchTableError
from thrift.protocol import TBinaryProtocol
from thrift.transport import TSocket, TTransport

from gluecat.backends.registry import Capabilities, capabilities
from tests.integration.helpers import write_project
from tests.metastores.fixtures import LocalS3
from tests.metastores.hms_server import HMS4, Metastore
from tests.rest.rest_server import RestCatalogServer

REGION = "us-east-1"


@dataclass(frozen=True)
class LiveTable:
    """What a catalog holds of a table, in the terms every backend shares."""

    columns: list[tuple[str, str]]
    partition_keys: list[tuple[str, str]]
    description: str | None
    location: str
    created: int  # which creation it is: an update keeps it, a re-create does not


class Holds(Protocol):
    """Reads and out-of-band writes straight against the catalog, without gluecat."""

    def databases(self) -> set[str]: ...
    def tables(self, database: str) -> set[str]: ...
    def table(self, database: str, name: str) -> LiveTable | None: ...
    def partitions(self, database: str, table: str) -> dict[tuple[str, ...], str]: ...
    def describe(self, database: str, table: str, text: str) -> None: ...
    def add_partition(self, database: str, table: str, values: list[str], location: str) -> None: ...


@dataclass(frozen=True)
class CatalogUnderTest:
    name: str
    backend: str  # as `backend:` in catalog.yaml names it
    endpoint: str  # the local S3 (and, for Glue, the local Glue) the catalog's tables live in
    settings: str  # the catalog.yaml keys that point gluecat at this catalog
    holds: Holds
    refuses_batches_whole: bool  # a refused entry fails its whole batch (a Metastore) or itself alone (Glue)
    unreachable: Callable[[int], tuple[str, str]]  # a dead port -> a catalog.yaml reaching it, what the error names

    @property
    def capabilities(self) -> Capabilities:
        """What gluecat's registry says this backend holds and can do."""
        return capabilities(self.backend)

    def database(self, purpose: str) -> str:
        """A database name of this test's own (metastores are shared by the session)."""
        return f"b_{purpose}_{self.name.replace('.', '')}".replace("-", "_")

    def project(self, root: Path, files: dict[str, str]) -> Path:
        return write_project(root, self.endpoint, files, self.settings)


@dataclass(frozen=True)
class Row:
    name: str
    make: Callable[[pytest.FixtureRequest], CatalogUnderTest]
    marks: tuple[pytest.MarkDecorator, ...] = ()


def _stripped(location: str | None) -> str:
    return (location or "").rstrip("/")


class GlueHolds:
    def __init__(self, endpoint: str) -> None:
        self.glue = boto3.client("glue", endpoint_url=endpoint, region_name=REGION)

    def databases(self) -> set[str]:
        return {d["Name"] for d in self.glue.get_databases()["DatabaseList"]}

    def tables(self, database: str) -> set[str]:
        pages = self.glue.get_paginator("get_tables").paginate(DatabaseName=database)
        return {t["Name"] for page in pages for t in page["TableList"]}

    def table(self, database: str, name: str) -> LiveTable | None:
        try:
            table = self.glue.get_table(DatabaseName=database, Name=name)["Table"]
        except self.glue.exceptions.EntityNotFoundException:
            return None
        sd = table.get("StorageDescriptor", {})
        return LiveTable(
            columns=[(c["Name"], c["Type"]) for c in sd.get("Columns", [])],
            partition_keys=[(k["Name"], k["Type"]) for k in table.get("PartitionKeys", [])],
            description=table.get("Description"),
            location=_stripped(sd.get("Location")),
            created=int(table["CreateTime"].timestamp()),
        )

    def partitions(self, database: str, table: str) -> dict[tuple[str, ...], str]:
        pages = self.glue.get_paginator("get_partitions").paginate(DatabaseName=database, TableName=table)
        return {
            tuple(p["Values"]): _stripped(p["StorageDescriptor"]["Location"])
            for page in pages
            for p in page["Partitions"]
        }

    def describe(self, database: str, table: str, text: str) -> None:
        live = self.glue.get_table(DatabaseName=database, Name=table)["Table"]
        keys = ("Name", "Description", "Owner", "Retention", "StorageDescriptor", "PartitionKeys", "TableType",
                "Parameters")  # fmt: skip
        table_input = {k: live[k] for k in keys if k in live} | {"Description": text}
        self.glue.update_table(DatabaseName=database, TableInput=table_input, VersionId=live["VersionId"])

    def add_partition(self, database: str, table: str, values: list[str], location: str) -> None:
        partition = {"Values": values, "StorageDescriptor": {"Location": location}}
        self.glue.create_partition(DatabaseName=database, TableName=table, PartitionInput=partition)


class MetastoreHolds:
    def __init__(self, metastore: Metastore) -> None:
        self.port = metastore.port

    @contextmanager
    def _client(self) -> Iterator[Any]:
        transport = TTransport.TBufferedTransport(TSocket.TSocket("127.0.0.1", self.port))
        transport.open()
        try:
            yield Client(TBinaryProtocol.TBinaryProtocol(transport))
        finally:
            transport.close()

    def _table(self, client: Any, database: str, name: str) -> Any:
        try:
            return client.get_table_req(GetTableRequest(dbName=database, tblName=name)).table
        except NoSuchObjectException:
            return None

    def databases(self) -> set[str]:
        with self._client() as client:
            return set(client.get_all_databases())

    def tables(self, database: str) -> set[str]:
        with self._client() as client:
            return set(client.get_all_tables(database))

    def table(self, database: str, name: str) -> LiveTable | None:
        with self._client() as client:
            table = self._table(client, database, name)
        if table is None:
            return None
        return LiveTable(
            columns=[(c.name, c.type) for c in table.sd.cols],
            partition_keys=[(k.name, k.type) for k in table.partitionKeys or []],
            description=(table.parameters or {}).get("comment"),
            location=_stripped(table.sd.location),
            created=table.createTime,
        )

    def partitions(self, database: str, table: str) -> dict[tuple[str, ...], str]:
        with self._client() as client:
            found = client.get_partitions(database, table, -1)
        return {tuple(p.values): _stripped(p.sd.location) for p in found}

    def describe(self, database: str, table: str, text: str) -> None:
        with self._client() as client:
            live = self._table(client, database, table)
            live.parameters = {**(live.parameters or {}), "comment": text}
            client.alter_table(database, table, live)

    def add_partition(self, database: str, table: str, values: list[str], location: str) -> None:
        with self._client() as client:
            live = self._table(client, database, table)
            sd = StorageDescriptor(
                cols=live.sd.cols, location=location, inputFormat=live.sd.inputFormat,
                outputFormat=live.sd.outputFormat, serdeInfo=live.sd.serdeInfo,
            )  # fmt: skip
            client.add_partition(Partition(values=values, dbName=database, tableName=table, sd=sd, parameters={}))


ICEBERG_TYPES = {"long": "bigint", "int": "int", "string": "string", "boolean": "boolean", "double": "double"}


def _sql_type(iceberg_type: object) -> str:
    """An Iceberg primitive type in the SQL names the other catalogs list (long is bigint)."""
    text = str(iceberg_type).replace(" ", "")
    return ICEBERG_TYPES.get(text, text)


class RestHolds:
    """An Iceberg REST catalog read through pyiceberg's RestCatalog: a namespace is a database, a
    table's columns its schema's, its partition keys the columns of its identity partition fields."""

    def __init__(self, server: RestCatalogServer, s3: LocalS3) -> None:
        self.client = RestCatalog(
            "holds", uri=server.uri,
            **{"s3.endpoint": s3.endpoint, "s3.access-key-id": s3.access_key,
               "s3.secret-access-key": s3.secret_key, "s3.region": REGION},
        )  # fmt: skip

    def databases(self) -> set[str]:
        return {".".join(namespace) for namespace in self.client.list_namespaces()}

    def tables(self, database: str) -> set[str]:
        try:
            return {identifier[-1] for identifier in self.client.list_tables(tuple(database.split(".")))}
        except NoSuchNamespaceError:
            return set()

    def table(self, database: str, name: str) -> LiveTable | None:
        try:
            table = self.client.load_table((*database.split("."), name))
        except (NoSuchTableError, NoSuchNamespaceError):
            return None
        schema = table.schema()
        identity = [schema.find_field(f.source_id) for f in table.spec().fields if str(f.transform) == "identity"]
        return LiveTable(
            columns=[(f.name, _sql_type(f.field_type)) for f in schema.fields],
            partition_keys=[(f.name, _sql_type(f.field_type)) for f in identity],
            description=table.properties.get("comment"),
            location=_stripped(table.location()),
            created=table.metadata.table_uuid.int,  # a re-created table has a new uuid
        )

    def partitions(self, database: str, table: str) -> dict[tuple[str, ...], str]:
        return {}  # an Iceberg table's partitions are in its metadata files, not in the catalog

    def describe(self, database: str, table: str, text: str) -> None:
        loaded = self.client.load_table((*database.split("."), table))
        with loaded.transaction() as transaction:
            transaction.set_properties(comment=text)

    def add_partition(self, database: str, table: str, values: list[str], location: str) -> None:
        raise AssertionError("an Iceberg REST catalog holds no partitions: the suite asks its capabilities first")


def _glue(request: pytest.FixtureRequest) -> CatalogUnderTest:
    server = request.getfixturevalue("server")  # the local Glue + S3, emptied for this test
    request.getfixturevalue("lake_bucket")

    def unreachable(port: int) -> tuple[str, str]:
        return f"region: {REGION}\nendpoint_url: http://127.0.0.1:{port}\n", f"http://127.0.0.1:{port}"

    holds = GlueHolds(server.endpoint_url)
    return CatalogUnderTest("glue", "glue", server.endpoint_url, "", holds, False, unreachable)


def _metastore(fixture: str) -> Callable[[pytest.FixtureRequest], CatalogUnderTest]:
    def make(request: pytest.FixtureRequest) -> CatalogUnderTest:
        metastore: Metastore = request.getfixturevalue(fixture)
        s3 = request.getfixturevalue("metastores_s3")
        version = "4.0" if metastore.version == HMS4 else "2.3"
        settings = f"backend: hive\nmetastore_uri: {metastore.uri}\nmetastore_version: '{version}'\n"

        def unreachable(port: int) -> tuple[str, str]:
            uri = f"thrift://127.0.0.1:{port}"
            return f"region: {REGION}\nendpoint_url: {s3.endpoint}\nbackend: hive\nmetastore_uri: {uri}\n", uri

        name = f"hms{metastore.version}"
        return CatalogUnderTest(name, "hive", s3.endpoint, settings, MetastoreHolds(metastore), True, unreachable)

    return make


def _rest(request: pytest.FixtureRequest) -> CatalogUnderTest:
    """Apache Iceberg's own REST server; no `warehouse:`, so a table's location follows its database's."""
    server: RestCatalogServer = request.getfixturevalue("rest_catalog")
    s3: LocalS3 = request.getfixturevalue("rest_s3")
    settings = f"backend: iceberg-rest\nrest_uri: {server.uri}\n"

    def unreachable(port: int) -> tuple[str, str]:
        uri = f"http://127.0.0.1:{port}"
        return f"region: {REGION}\nendpoint_url: {s3.endpoint}\nbackend: iceberg-rest\nrest_uri: {uri}\n", uri

    return CatalogUnderTest("iceberg-rest", "iceberg-rest", s3.endpoint, settings, RestHolds(server, s3), False,
                            unreachable)  # fmt: skip


METASTORES = pytest.mark.metastores
REST = pytest.mark.rest
# One row per backend: the suite in tests/backends/ runs every behaviour against each.
ROWS = [
    Row("glue", _glue),
    Row("hms2.3.9", _metastore("hms23"), (METASTORES,)),
    Row("hms4.0.1", _metastore("hms40"), (METASTORES,)),
    Row("iceberg-rest", _rest, (REST,)),
]


def dead_port() -> int:
    """A port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port
