"""gluecat manages real Hive Metastores (2.3.9 and 4.0.1): apply, a clean re-plan, what the metastore
holds afterwards, real PySpark reading through it as `spark-conf` configures it, and a column added
in YAML arriving as an alter."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from hive_metastore.ThriftHiveMetastore import Client
from hive_metastore.ttypes import GetTableRequest
from thrift.protocol import TBinaryProtocol
from thrift.transport import TSocket, TTransport

from tests.integration.helpers import gluecat, write_project
from tests.metastores.conftest import LocalS3
from tests.metastores.hms_server import HMS4, Metastore, spark_hive_ivy

PARQUET_SERDE = "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe"
PARQUET_INPUT = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat"
CSV_SERDE = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe"

ORDERS = """\
description: Orders
storage: parquet
columns:
  - {name: order_id, type: bigint}
  - {name: amount, type: "decimal(12,2)"}
partition_keys:
  - {name: dt, type: string}
partitions:
  - values: {dt: "2024-01-01"}
  - values: {dt: "2024-01-02"}
    location: s3://lake/{db}/orders/late/2024-01-02/
"""
CUSTOMERS = """\
storage: csv
columns:
  - {name: customer_id, type: bigint}
  - {name: email, type: string}
"""
EVENTS = """\
format: iceberg
columns:
  - {name: event_id, type: bigint, required: true}
  - {name: kind, type: string}
  - {name: at, type: timestamp}
partition_spec:
  - {column: at, transform: day}
"""


def _version_tag(metastore: Metastore) -> str:
    return metastore.version.replace(".", "")


def _project(root: Path, metastore: Metastore, s3: LocalS3, db: str, orders: str = ORDERS) -> Path:
    version = "4.0" if metastore.version == HMS4 else "2.3"
    catalog = f"backend: hive\nmetastore_uri: {metastore.uri}\nmetastore_version: '{version}'\n"
    files = {
        f"{db}/database.yaml": f"location: s3://lake/{db}/\n",
        f"{db}/tables/orders.yaml": orders.replace("{db}", db),
        f"{db}/tables/customers.yaml": CUSTOMERS,
        f"{db}/tables/events.yaml": EVENTS,
    }
    return write_project(root, s3.endpoint, files, catalog)


@contextmanager
def _thrift(metastore: Metastore) -> Iterator[Any]:
    transport = TTransport.TBufferedTransport(TSocket.TSocket("127.0.0.1", metastore.port))
    transport.open()
    try:
        yield Client(TBinaryProtocol.TBinaryProtocol(transport))
    finally:
        transport.close()


def _table(metastore: Metastore, db: str, name: str) -> Any:
    with _thrift(metastore) as client:
        return client.get_table_req(GetTableRequest(dbName=db, tblName=name)).table


def test_a_catalog_applies_to_the_metastore_and_plans_clean(
    hms: Metastore, metastores_s3: LocalS3, tmp_path: Path
) -> None:
    db = f"gc_apply_{_version_tag(hms)}"
    root = _project(tmp_path / "project", hms, metastores_s3, db)
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output

    orders = _table(hms, db, "orders")
    assert orders.tableType == "EXTERNAL_TABLE" and orders.parameters["EXTERNAL"] == "TRUE"
    assert orders.parameters["comment"] == "Orders"
    assert orders.sd.serdeInfo.serializationLib == PARQUET_SERDE
    assert orders.sd.inputFormat == PARQUET_INPUT
    assert [(c.name, c.type) for c in orders.partitionKeys] == [("dt", "string")]
    customers = _table(hms, db, "customers")
    assert customers.tableType == "EXTERNAL_TABLE"
    assert customers.sd.serdeInfo.serializationLib == CSV_SERDE
    assert customers.sd.serdeInfo.parameters["field.delim"] == ","
    with _thrift(hms) as client:
        partitions = client.get_partitions(db, "orders", -1)
    locations = {tuple(p.values): p.sd.location.rstrip("/") for p in partitions}
    assert locations == {
        ("2024-01-01",): f"s3://lake/{db}/orders/dt=2024-01-01",
        ("2024-01-02",): f"s3://lake/{db}/orders/late/2024-01-02",
    }
    events = _table(hms, db, "events")
    assert events.parameters["table_type"].upper() == "ICEBERG"
    assert events.parameters["metadata_location"].startswith(f"s3://lake/{db}/events/metadata/")

    again = gluecat("plan", str(root))
    assert again.exit_code == 0, again.output
    assert "No changes" in again.output


def test_spark_reads_through_the_metastore_and_sees_an_added_column(
    hms: Metastore, metastores_s3: LocalS3, tmp_path: Path
) -> None:
    db = f"gc_spark_{_version_tag(hms)}"
    root = _project(tmp_path / "project", hms, metastores_s3, db)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    _put_parquet(metastores_s3, f"{db}/orders/dt=2024-01-01/part-0.parquet", [(1, "12.50"), (2, "3.00")])
    created = _table(hms, db, "orders").createTime

    rows = _spark(root, tmp_path, metastores_s3, f"SELECT order_id, amount, dt FROM {db}.orders ORDER BY order_id")
    assert rows == [[1, "12.50", "2024-01-01"], [2, "3.00", "2024-01-01"]]

    widened = ORDERS.replace("  - {name: amount", "  - {name: note, type: string}\n  - {name: amount")
    _project(root, hms, metastores_s3, db, widened)
    changed = gluecat("apply", str(root), "--auto-approve")
    assert changed.exit_code == 0, changed.output
    assert _table(hms, db, "orders").createTime == created  # altered in place, not re-created

    columns = _spark(root, tmp_path, metastores_s3, f"DESCRIBE {db}.orders")
    assert [c[0] for c in columns[:4]] == ["order_id", "note", "amount", "dt"]


def _put_parquet(s3: LocalS3, key: str, rows: list[tuple[int, str]]) -> None:
    schema = pa.schema([("order_id", pa.int64()), ("amount", pa.decimal128(12, 2))])
    from decimal import Decimal

    table = pa.table({"order_id": [r[0] for r in rows], "amount": [Decimal(r[1]) for r in rows]}, schema=schema)
    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    s3.client.put_object(Bucket=s3.bucket, Key=key, Body=buffer.getvalue())


SPARK_RUN = """
import json, sys
exec(open(sys.argv[1]).read())
rows = spark.sql(sys.argv[2]).collect()
print("ROWS " + json.dumps([[str(v) if v.__class__.__name__ == "Decimal" else v for v in r] for r in rows]))
spark.stop()
"""


def _spark(root: Path, tmp: Path, s3: LocalS3, query: str) -> list[list[Any]]:
    """The `--format pyspark` script, verbatim, in a Python of its own (one Hive client per JVM), with
    what this machine adds as spark-defaults it overrides (local master, loopback, the Ivy cache)."""
    script = gluecat("spark-conf", str(root), "--format", "pyspark")
    assert script.exit_code == 0, script.output
    work = tmp / f"spark-{abs(hash(query))}"
    (work / "conf").mkdir(parents=True)
    (work / "session.py").write_text(script.stdout)
    machine = {
        "spark.master": "local[2]",
        "spark.driver.host": "127.0.0.1",
        "spark.ui.enabled": "false",
        "spark.sql.shuffle.partitions": "2",
        "spark.sql.warehouse.dir": str(work / "warehouse"),
        "spark.driver.extraJavaOptions": f"-Divy.home={spark_hive_ivy()} -Dderby.stream.error.file={work}/derby.log",
    }
    (work / "conf" / "spark-defaults.conf").write_text("".join(f"{k} {v}\n" for k, v in machine.items()))
    environment = {**os.environ, "SPARK_CONF_DIR": str(work / "conf")}
    environment.update(AWS_ACCESS_KEY_ID=s3.access_key, AWS_SECRET_ACCESS_KEY=s3.secret_key)
    run = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SPARK_RUN), str(work / "session.py"), query],
        capture_output=True, text=True, timeout=900, env=environment, cwd=work,
    )  # fmt: skip
    found = [line for line in run.stdout.splitlines() if line.startswith("ROWS ")]
    assert run.returncode == 0 and found, run.stderr[-3000:]
    result: list[list[Any]] = json.loads(found[0].removeprefix("ROWS "))
    return result


def test_an_unreachable_metastore_is_one_line(metastores_s3: LocalS3, tmp_path: Path) -> None:
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    catalog = f"backend: hive\nmetastore_uri: thrift://127.0.0.1:{port}\n"
    files = {"sales/database.yaml": "location: s3://lake/sales/\n", "sales/tables/customers.yaml": CUSTOMERS}
    root = write_project(tmp_path / "project", metastores_s3.endpoint, files, catalog)
    result = gluecat("plan", str(root))
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert f"cannot reach the Hive Metastore at thrift://127.0.0.1:{port}" in lines[0]
    assert "metastore_uri" in lines[0]


def test_a_change_the_metastore_refuses_names_the_table_and_leaves_the_rest_applied(
    hms23: Metastore, metastores_s3: LocalS3, tmp_path: Path
) -> None:
    db = "gc_refused"
    root = _project(tmp_path / "project", hms23, metastores_s3, db)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    # Hive 2.3 refuses an incompatible column type change (decimal -> int) unless told otherwise.
    narrowed = ORDERS.replace('"decimal(12,2)"', "int").replace("description: Orders", "allow_breaking: test")
    _project(root, hms23, metastores_s3, db, narrowed)
    (root / db / "tables" / "customers.yaml").write_text(CUSTOMERS.replace("email", "mail"))
    planned = gluecat("plan", str(root))
    assert "a Hive Metastore refuses these column type changes" in planned.output
    assert f"{db}.orders: amount decimal(12,2) -> int" in planned.output
    result = gluecat("apply", str(root), "--auto-approve")
    assert result.exit_code == 1
    failures = [line for line in result.output.splitlines() if line.startswith(f"failed {db}.orders: ")]
    assert failures and "incompatible" in failures[0] and "add a new column instead" in failures[0]
    assert "Apply finished with 1 failure (1 table updated)" in result.output
    assert [c.name for c in _table(hms23, db, "customers").sd.cols] == ["customer_id", "mail"]
    assert [c.type for c in _table(hms23, db, "orders").sd.cols] == ["bigint", "decimal(12,2)"]


def test_a_catalog_moves_from_the_metastore_to_glue(hms: Metastore, metastores_s3: LocalS3, tmp_path: Path) -> None:
    """Import from the metastore, plan and apply the same files against Glue: the same tables and
    partitions arrive, and the next plan against Glue is clean."""
    db = f"gc_move_{_version_tag(hms)}"
    source = _project(tmp_path / "source", hms, metastores_s3, db)
    assert gluecat("apply", str(source), "--auto-approve").exit_code == 0

    version = "4.0" if hms.version == HMS4 else "2.3"
    environments = f"""\
        default_env: hms
        environments:
          hms: {{backend: hive, metastore_uri: "{hms.uri}", metastore_version: "{version}"}}
          glue: {{backend: glue}}
    """
    moved = write_project(tmp_path / "moved", metastores_s3.endpoint, {}, textwrap.dedent(environments))
    imported = gluecat("import", str(moved), "--database", db, "--partitions")
    assert imported.exit_code == 0, imported.output
    assert gluecat("plan", str(moved)).exit_code == 0  # the import re-plans clean on the metastore

    applied = gluecat("apply", str(moved), "--env", "glue", "--auto-approve")
    assert applied.exit_code == 0, applied.output
    again = gluecat("plan", str(moved), "--env", "glue")
    assert again.exit_code == 0 and "No changes" in again.output, again.output

    glue = boto3_glue(metastores_s3)
    tables = {t["Name"]: t for t in glue.get_tables(DatabaseName=db)["TableList"]}
    assert sorted(tables) == ["customers", "events", "orders"]
    assert tables["orders"]["TableType"] == "EXTERNAL_TABLE"
    assert tables["orders"]["Description"] == "Orders"
    serde = tables["orders"]["StorageDescriptor"]["SerdeInfo"]["SerializationLibrary"]
    assert serde == PARQUET_SERDE
    assert tables["events"]["Parameters"]["table_type"].upper() == "ICEBERG"
    assert (
        tables["events"]["Parameters"]["metadata_location"] == _table(hms, db, "events").parameters["metadata_location"]
    )  # the same Iceberg table, registered, not a new one
    partitions = glue.get_partitions(DatabaseName=db, TableName="orders")["Partitions"]
    assert {tuple(p["Values"]): p["StorageDescriptor"]["Location"].rstrip("/") for p in partitions} == {
        ("2024-01-01",): f"s3://lake/{db}/orders/dt=2024-01-01",
        ("2024-01-02",): f"s3://lake/{db}/orders/late/2024-01-02",
    }


def boto3_glue(s3: LocalS3) -> Any:
    import boto3

    return boto3.client(
        "glue", endpoint_url=s3.endpoint, region_name="us-east-1",
        aws_access_key_id=s3.access_key, aws_secret_access_key=s3.secret_key,
    )  # fmt: skip


HOSTILE_VALUES = ["a/b", "x=y", "10:30", "50%", "münchen", "sp ace", "q'uote", "hash#1", "{brace}"]


def test_partition_values_hive_must_escape_round_trip_and_prune(
    hms: Metastore, metastores_s3: LocalS3, tmp_path: Path
) -> None:
    """Values Hive escapes in partition names (/, =, :, %, quotes, braces) and non-ASCII ones are
    created, re-planned clean, and deleted under prune by the names Hive gives them."""
    db = f"gc_values_{_version_tag(hms)}"
    table = "storage: parquet\ncolumns: [{name: id, type: bigint}]\npartition_keys: [{name: k, type: string}]\n"
    listed = json.dumps(HOSTILE_VALUES, ensure_ascii=False)
    files = {
        f"{db}/database.yaml": f"location: s3://lake/{db}/\n",
        f"{db}/tables/hostile.yaml": table + f"partitions:\n  - expand: {{k: {listed}}}\n",
    }
    catalog = f"backend: hive\nmetastore_uri: {hms.uri}\nprune: true\n"
    root = write_project(tmp_path / "project", metastores_s3.endpoint, files, catalog)
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    with _thrift(hms) as client:
        assert sorted(tuple(p.values) for p in client.get_partitions(db, "hostile", -1)) == sorted(
            (v,) for v in HOSTILE_VALUES
        )
    again = gluecat("plan", str(root))
    assert again.exit_code == 0 and "No changes" in again.output, again.output

    kept = HOSTILE_VALUES[:2]
    (root / db / "tables" / "hostile.yaml").write_text(
        table + f"partitions:\n  - expand: {{k: {json.dumps(kept)}}}\n", encoding="utf-8"
    )
    pruned = gluecat("apply", str(root), "--auto-approve", "--allow-destroy")
    assert pruned.exit_code == 0, pruned.output
    with _thrift(hms) as client:
        assert sorted(tuple(p.values) for p in client.get_partitions(db, "hostile", -1)) == sorted((v,) for v in kept)


DELTA = """\
format: delta
description: Stock per warehouse
location: s3://lake/{db}/inventory
columns:
  - {name: sku, type: string, comment: stock keeping unit}
  - {name: on_hand, type: int}
  - {name: dt, type: date}
partition_columns: [dt]
"""
SPARK_VIEW = """\
format: view
dialect: spark
description: orders of the day
sql: SELECT order_id FROM {db}.orders
columns:
  - {name: order_id, type: bigint}
"""


def test_delta_tables_and_spark_views_live_in_the_metastore_too(
    hms: Metastore, metastores_s3: LocalS3, tmp_path: Path
) -> None:
    db = f"gc_lake_{_version_tag(hms)}"
    root = _project(tmp_path / "project", hms, metastores_s3, db)
    (root / db / "tables" / "inventory.yaml").write_text(DELTA.replace("{db}", db))
    (root / db / "tables" / "daily.yaml").write_text(SPARK_VIEW.replace("{db}", db))
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    inventory = _table(hms, db, "inventory")
    assert inventory.parameters["spark.sql.sources.provider"] == "delta"
    listed = metastores_s3.client.list_objects_v2(Bucket="lake", Prefix=f"{db}/inventory/_delta_log/")
    assert listed.get("KeyCount", 0) >= 1
    daily = _table(hms, db, "daily")
    assert daily.tableType == "VIRTUAL_VIEW" and f"FROM {db}.orders" in daily.viewOriginalText
    again = gluecat("plan", str(root))
    assert again.exit_code == 0 and "No changes" in again.output, again.output


GOTCHAS = """\
description: "Bestellungen — Übersicht ✓ 注文"
storage: parquet
location: s3a://lake/{db}/gotchas/
parameters: {empty: "", quote: "it's", classification: parquet}
columns:
  - {name: amount, type: "decimal(38,9)", comment: "Betrag in €"}
  - {name: at, type: timestamp}
  - {name: tags, type: "map<string,array<struct<k:string,v:decimal(10,2)>>>"}
  - {name: bare, type: string}
partition_keys:
  - {name: day, type: date}
partitions:
  - values: {day: "2024-02-29"}
"""


def test_encodings_precision_nested_types_and_schemes_round_trip(
    hms: Metastore, metastores_s3: LocalS3, tmp_path: Path
) -> None:
    """What differs between catalogs and metastore versions, each held: non-ASCII text, an empty
    parameter, decimal(38,9), timestamps, nested types, a column without a comment, an s3a:// location."""
    db = f"gc_gotchas_{_version_tag(hms)}"
    files = {
        f"{db}/database.yaml": f"location: s3://lake/{db}/\n",
        f"{db}/tables/gotchas.yaml": GOTCHAS.replace("{db}", db),
    }
    catalog = f"backend: hive\nmetastore_uri: {hms.uri}\n"
    root = write_project(tmp_path / "project", metastores_s3.endpoint, files, catalog)
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    held = _table(hms, db, "gotchas")
    assert held.parameters["comment"] == "Bestellungen — Übersicht ✓ 注文"
    assert held.parameters["empty"] == "" and held.parameters["quote"] == "it's"
    assert [(c.name, c.type, c.comment) for c in held.sd.cols] == [
        ("amount", "decimal(38,9)", "Betrag in €"),
        ("at", "timestamp", None),
        ("tags", "map<string,array<struct<k:string,v:decimal(10,2)>>>", None),
        ("bare", "string", None),
    ]
    assert held.sd.location.rstrip("/") == f"s3a://lake/{db}/gotchas"
    again = gluecat("plan", str(root))
    assert again.exit_code == 0 and "No changes" in again.output, again.output


def test_a_pull_request_plan_reads_only_the_changed_table_from_the_metastore(
    hms: Metastore, metastores_s3: LocalS3, tmp_path: Path
) -> None:
    db = f"gc_changed_{_version_tag(hms)}"
    root = _project(tmp_path / "project", hms, metastores_s3, db)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    for step in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "catalog"]):
        subprocess.run([*git, *step], check=True, capture_output=True)
    (root / db / "tables" / "customers.yaml").write_text(CUSTOMERS + "description: Customers\n")
    (root / db / "tables" / "orders.yaml").unlink()  # prune is off: named, never deleted

    scoped = gluecat("plan", str(root), "--changed-since", "main", "--format", "json")
    assert scoped.exit_code == 0, scoped.output
    planned = json.loads(scoped.stdout)
    assert [(c["address"], c["action"]) for c in planned["changes"]] == [(f"{db}.customers", "update")]
    assert any(f"{db}.orders" in note for note in planned["notes"])
    applied = gluecat("apply", str(root), "--auto-approve", "--changed-since", "main")
    assert applied.exit_code == 0, applied.output
    assert _table(hms, db, "customers").parameters["comment"] == "Customers"
    assert _table(hms, db, "orders").tableType == "EXTERNAL_TABLE"
