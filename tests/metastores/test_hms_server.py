"""The metastores the fixtures start answer the Thrift client pyiceberg bundles: external
partitioned Parquet tables on the local S3 (`s3://` and `s3a://`), created, read, altered and locked.
Spark reading through them, as `spark-conf` configures it, is in test_gluecat_on_hms.py."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from hive_metastore.ThriftHiveMetastore import Client
from hive_metastore.ttypes import (
    AddPartitionsRequest,
    CheckLockRequest,
    Database,
    DropPartitionsRequest,
    EnvironmentContext,
    FieldSchema,
    GetTableRequest,
    GetTablesRequest,
    LockComponent,
    LockLevel,
    LockRequest,
    LockState,
    LockType,
    Partition,
    RequestPartsSpec,
    SerDeInfo,
    StorageDescriptor,
    Table,
    UnlockRequest,
)
from thrift.protocol import TBinaryProtocol
from thrift.transport import TSocket, TTransport

from tests.metastores.conftest import LocalS3
from tests.metastores.hms_server import Metastore

PARQUET = {
    "inputFormat": "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
    "outputFormat": "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat",
    "serde": "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe",
}


@contextmanager
def connected(metastore: Metastore) -> Iterator[Client]:
    transport = TTransport.TBufferedTransport(TSocket.TSocket(metastore.host, metastore.port))
    client = Client(TBinaryProtocol.TBinaryProtocol(transport))
    transport.open()
    try:
        yield client
    finally:
        transport.close()


def storage(location: str) -> StorageDescriptor:
    return StorageDescriptor(
        cols=[FieldSchema(name="Id", type="bigint"), FieldSchema(name="name", type="string")],
        location=location,
        inputFormat=PARQUET["inputFormat"],
        outputFormat=PARQUET["outputFormat"],
        serdeInfo=SerDeInfo(serializationLib=PARQUET["serde"], parameters={"serialization.format": "1"}),
        compressed=False,
        numBuckets=-1,
        bucketCols=[],
        sortCols=[],
        parameters={},
    )


def external_table(database: str, name: str, location: str) -> Table:
    return Table(
        tableName=name,
        dbName=database,
        owner="gluecat-tests",
        sd=storage(location),
        partitionKeys=[FieldSchema(name="dt", type="string")],
        parameters={"EXTERNAL": "TRUE", "classification": "parquet"},
        tableType="EXTERNAL_TABLE",
    )


def partition(table: Table, dt: str) -> Partition:
    sd = storage(f"{table.sd.location.rstrip('/')}/dt={dt}")
    return Partition(values=[dt], dbName=table.dbName, tableName=table.tableName, sd=sd, parameters={})


def make_table(client: Client, s3: LocalS3, database: str, table: str, days: list[str]) -> Table:
    """A database on s3a://, an external partitioned Parquet table on s3:// (with a trailing slash and
    a mixed-case name, as a user might write them), and its partitions."""
    client.create_database(Database(name=database, locationUri=f"s3a://{s3.bucket}/{database}", parameters={}))
    created = external_table(database, table, f"s3://{s3.bucket}/{database}/{table.lower()}/")
    client.create_table(created)
    if days:
        parts = [partition(created, day) for day in days]
        request = AddPartitionsRequest(dbName=database, tblName=table, parts=parts, ifNotExists=False, needResult=True)
        client.add_partitions_req(request)
    return created


def tag(metastore: Metastore) -> str:
    return "hms" + metastore.version.replace(".", "")


def test_a_metastore_keeps_an_external_partitioned_table_on_s3(hms: Metastore, metastores_s3: LocalS3) -> None:
    database = f"thrift_{tag(hms)}"
    with connected(hms) as client:
        make_table(client, metastores_s3, database, "Events", ["2024-01-01", "2024-01-02"])
        table = client.get_table_req(GetTableRequest(dbName=database, tblName="events")).table
        parts = client.get_partitions(database, "events", -1)

    assert (table.dbName, table.tableName) == (database, "events")  # names come back lowercased
    assert table.tableType == "EXTERNAL_TABLE"
    assert table.parameters["EXTERNAL"] == "TRUE"
    assert table.sd.location == f"s3://lake/{database}/events"  # the trailing slash is dropped
    assert [c.name for c in table.sd.cols] == ["id", "name"]  # column names too are lowercased
    assert [(c.name, c.type) for c in table.partitionKeys] == [("dt", "string")]
    assert table.sd.serdeInfo.serializationLib == PARQUET["serde"]
    assert sorted((p.values, p.sd.location) for p in parts) == [
        (["2024-01-01"], f"s3://lake/{database}/events/dt=2024-01-01"),
        (["2024-01-02"], f"s3://lake/{database}/events/dt=2024-01-02"),
    ]
    # The metastore made each location through S3A (which keeps only the deepest directory markers).
    listed = metastores_s3.client.list_objects_v2(Bucket="lake", Prefix=f"{database}/")
    assert {entry["Key"] for entry in listed.get("Contents", [])} == {
        f"{database}/events/dt=2024-01-01/",
        f"{database}/events/dt=2024-01-02/",
    }


def test_the_calls_pyiceberg_and_gluecat_make_work(hms: Metastore, metastores_s3: LocalS3) -> None:
    """What pyiceberg's HiveCatalog and a Hive backend call beyond the basics: the `_req` reads,
    partition batches, altering with an environment context, and table locks."""
    database = f"calls_{tag(hms)}"
    with connected(hms) as client:
        created = make_table(client, metastores_s3, database, "orders", ["2024-01-01", "2024-01-02", "2024-01-03"])

        tables = client.get_table_objects_by_name_req(GetTablesRequest(dbName=database, tblNames=["orders", "none"]))
        assert [t.tableName for t in tables.tables] == ["orders"]

        table = client.get_table_req(GetTableRequest(dbName=database, tblName="orders")).table
        table.parameters["comment"] = "altered"
        table.sd.cols.append(FieldSchema(name="amount", type="double"))
        context = EnvironmentContext(properties={"DO_NOT_UPDATE_STATS": "true"})
        client.alter_table_with_environment_context(database, "orders", table, context)
        altered = client.get_table_req(GetTableRequest(dbName=database, tblName="orders")).table
        assert altered.parameters["comment"] == "altered"
        assert [c.name for c in altered.sd.cols] == ["id", "name", "amount"]

        names = ["dt=2024-01-01", "dt=2024-01-02"]
        found = client.get_partitions_by_names(database, "orders", names)
        assert sorted(p.values[0] for p in found) == ["2024-01-01", "2024-01-02"]
        for part in found:
            part.parameters["touched"] = "yes"
            part.sd.location = f"s3://lake/{database}/moved/dt={part.values[0]}"
        client.alter_partitions(database, "orders", found)
        again = client.get_partitions_by_names(database, "orders", names)
        assert sorted((p.parameters.get("touched"), p.sd.location) for p in again) == [
            ("yes", f"s3://lake/{database}/moved/dt=2024-01-01"),
            ("yes", f"s3://lake/{database}/moved/dt=2024-01-02"),
        ]

        spec = RequestPartsSpec(names=["dt=2024-01-03"])
        drop = DropPartitionsRequest(dbName=database, tblName="orders", parts=spec, deleteData=False, needResult=True)
        dropped = client.drop_partitions_req(drop)
        assert [p.values for p in dropped.partitions] == [["2024-01-03"]]
        assert sorted(p.values[0] for p in client.get_partitions(database, "orders", -1)) == [
            "2024-01-01",
            "2024-01-02",
        ]
        assert created.tableName == "orders"

        # pyiceberg's commit lock, exactly as its HiveCatalog asks for it.
        component = LockComponent(
            level=LockLevel.TABLE, type=LockType.EXCLUSIVE, dbname=database, tablename="orders", isTransactional=True
        )
        lock = client.lock(LockRequest(component=[component], user="gluecat-tests", hostname="localhost"))
        assert lock.state == LockState.ACQUIRED
        second = client.lock(LockRequest(component=[component], user="gluecat-tests", hostname="localhost"))
        assert second.state == LockState.WAITING  # a second writer waits for the first
        client.unlock(UnlockRequest(lockid=lock.lockid))
        assert client.check_lock(CheckLockRequest(lockid=second.lockid)).state == LockState.ACQUIRED
        client.unlock(UnlockRequest(lockid=second.lockid))
