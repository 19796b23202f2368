"""The metastores the fixtures start answer the Thrift client pyiceberg bundles and serve Spark:
external partitioned Parquet tables on the local S3 (`s3://` and `s3a://`), created, read, altered,
locked, and read back by Spark through the metastore."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
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
from tests.metastores.hms_server import HMS4, Metastore, spark_settings

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


# Spark runs in its own process: its Hive client is fixed for the life of its JVM, and the engines
# tests may hold a session of their own in this one.
SPARK_JOB = """
import json, sys, time
from pyspark.sql import SparkSession
job = json.loads(sys.argv[1])
started = time.monotonic()
builder = SparkSession.builder
for key, value in job["conf"].items():
    builder = builder.config(key, value)
spark = builder.getOrCreate()
session = time.monotonic()
spark.sql("SHOW DATABASES").collect()  # the Hive client: resolved, loaded and connected here
client = time.monotonic()
for location, rows in job["writes"]:
    spark.createDataFrame(rows, "id bigint, name string").write.mode("overwrite").parquet(location)
rows = [list(row) for row in spark.sql(job["query"]).collect()]
spark.stop()
timings = {"session_seconds": round(session - started, 1), "hive_client_seconds": round(client - session, 1)}
print("RESULT " + json.dumps({"rows": rows, **timings}))
"""


def run_spark(conf: dict[str, str], writes: list[Any], query: str, tmp: Path) -> dict[str, Any]:
    machine = {
        "spark.master": "local[2]",
        "spark.driver.host": "127.0.0.1",
        "spark.ui.enabled": "false",
        "spark.sql.shuffle.partitions": "2",
        "spark.sql.warehouse.dir": str(tmp / "spark-warehouse"),
    }
    job = json.dumps({"conf": machine | conf, "writes": writes, "query": query})
    env = {k: v for k, v in os.environ.items() if k != "SPARK_CONF_DIR"}
    done = subprocess.run(
        [sys.executable, "-c", SPARK_JOB, job], capture_output=True, text=True, timeout=900, env=env, cwd=tmp,
        check=False,
    )  # fmt: skip
    results = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert done.returncode == 0 and results, "Spark failed: " + " | ".join(done.stderr.strip().splitlines()[-15:])
    answer: dict[str, Any] = json.loads(results[-1].removeprefix("RESULT "))
    return answer


def test_spark_reads_through_the_metastore_what_was_written_to_a_partition(
    hms: Metastore, metastores_s3: LocalS3, tmp_path: Path
) -> None:
    database = f"spark_{tag(hms)}"
    with connected(hms) as client:
        make_table(client, metastores_s3, database, "clicks", ["2024-01-01", "2024-01-02"])
    # One partition's file uploaded as any writer would; the other's written by Spark itself.
    buffer = io.BytesIO()
    pq.write_table(pa.table({"id": pa.array([1, 2], pa.int64()), "name": ["a", "b"]}), buffer)
    metastores_s3.client.put_object(
        Bucket="lake", Key=f"{database}/clicks/dt=2024-01-01/part-0.parquet", Body=buffer.getvalue()
    )
    writes = [[f"s3a://lake/{database}/clicks/dt=2024-01-02", [[3, "c"]]]]
    conf = spark_settings(hms, metastores_s3.endpoint, metastores_s3.access_key, metastores_s3.secret_key)
    answer = run_spark(conf, writes, f"SELECT id, name, dt FROM {database}.clicks ORDER BY id", tmp_path)
    print(f"HMS {hms.version}: boot {hms.boot_seconds:.1f} s, Spark {answer}")
    assert answer["rows"] == [[1, "a", "2024-01-01"], [2, "b", "2024-01-01"], [3, "c", "2024-01-02"]]
    if hms.version == HMS4:
        assert conf["spark.sql.hive.metastore.version"] == "3.1.3"
