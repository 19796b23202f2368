"""Spark, started from what `gluecat spark-conf` prints (see conftest), reads and writes what gluecat made."""

from __future__ import annotations

import io
from decimal import Decimal
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from deltalake import DeltaTable

from tests.engines.conftest import BUCKET, WAREHOUSE, Lake, parse_conf
from tests.integration.helpers import gluecat

pytestmark = pytest.mark.spark

EVENTS = """\
format: iceberg
columns:
  - {name: id, type: bigint, required: true}
  - {name: kind, type: string}
partition_spec:
  - {column: kind}
properties: {format-version: "2"}
"""
STOCK = """\
format: delta
location: s3://lake/sparky/stock
columns:
  - {name: sku, type: string}
  - {name: on_hand, type: int}
  - {name: price, type: "decimal(10,2)"}
partition_columns: []
"""
ORDERS = """\
storage: parquet
columns:
  - {name: order_id, type: bigint}
  - {name: amount, type: double}
partition_keys: [{name: dt, type: string}]
partitions:
  - expand:
      dt: {from: 2024-01-01, to: 2024-01-02}
"""
CUSTOMERS = """\
storage: csv
columns:
  - {name: id, type: bigint}
  - {name: email, type: string}
"""


@pytest.fixture(scope="module")
def spark_lake(module_lake: Lake, spark: Any) -> dict[str, Any]:
    root = module_lake.project(
        {
            "sparky/database.yaml": "location: s3://lake/sparky/\n",
            "sparky/tables/events.yaml": EVENTS,
            "sparky/tables/stock.yaml": STOCK,
            "sparky/tables/orders.yaml": ORDERS,
            "sparky/tables/customers.yaml": CUSTOMERS,
        },
        catalog_extra=WAREHOUSE,
    )
    module_lake.apply()
    printed = gluecat("spark-conf", str(root), "--endpoint", module_lake.glue.endpoint_url)
    assert printed.exit_code == 0, printed.output
    running = {key: spark.conf.get(key) for key in parse_conf(printed.stdout)}
    assert running == parse_conf(printed.stdout), "Spark runs with what this project's spark-conf prints"
    return {"spark": spark, "lake": module_lake}


def test_spark_reads_and_appends_an_iceberg_table_gluecat_made(spark_lake: dict[str, Any]) -> None:
    spark, lake = spark_lake["spark"], spark_lake["lake"]
    assert "events" in [row.tableName for row in spark.sql("SHOW TABLES IN glue.sparky").collect()]
    spark.sql("INSERT INTO glue.sparky.events VALUES (1, 'click'), (2, 'view')")
    spark.sql("INSERT INTO glue.sparky.events VALUES (3, 'click')")
    assert sorted(tuple(r) for r in spark.sql("SELECT id, kind FROM glue.sparky.events").collect()) == [
        (1, "click"), (2, "view"), (3, "click")]  # fmt: skip
    specs = spark.sql("SELECT partition.kind FROM glue.sparky.events.partitions ORDER BY 1").collect()
    assert [r.kind for r in specs] == ["click", "view"], "Spark writes by the spec gluecat declared"
    assert lake.plan_exit_code() == 0, "Spark's commits must leave nothing for gluecat to change"
    # Trino sees Spark's commits, and Spark sees Trino's.
    lake.query("INSERT INTO iceberg.sparky.events VALUES (4, 'buy')")
    assert lake.query("SELECT count(*) FROM iceberg.sparky.events") == [[4]]
    spark.sql("REFRESH TABLE glue.sparky.events")
    assert spark.sql("SELECT count(*) AS n FROM glue.sparky.events").collect()[0].n == 4
    assert lake.plan_exit_code() == 0


def test_spark_reads_and_writes_a_delta_table_gluecat_registered(spark_lake: dict[str, Any]) -> None:
    spark, lake = spark_lake["spark"], spark_lake["lake"]
    path = f"s3a://{BUCKET}/sparky/stock"
    frame = spark.createDataFrame(
        [("a", 1, Decimal("2.50")), ("b", 7, Decimal("0.99"))], "sku string, on_hand int, price decimal(10,2)"
    )
    frame.write.format("delta").mode("append").save(path)
    rows = spark.read.format("delta").load(path).orderBy("sku").collect()
    assert [(r.sku, r.on_hand, r.price) for r in rows] == [("a", 1, Decimal("2.50")), ("b", 7, Decimal("0.99"))]
    # The log Spark wrote is one deltalake and Trino read as the table gluecat registered.
    assert DeltaTable(f"s3://{BUCKET}/sparky/stock", storage_options=lake.delta_options()).version() >= 1
    assert lake.query("SELECT sku, on_hand FROM delta.sparky.stock ORDER BY sku") == [["a", 1], ["b", 7]]
    assert lake.plan_exit_code() == 0


def test_hive_ddl_runs_in_spark_and_reads_the_partitions(spark_lake: dict[str, Any]) -> None:
    spark, lake = spark_lake["spark"], spark_lake["lake"]
    for dt, amounts in (("2024-01-01", [1.5, 2.5]), ("2024-01-02", [4.0])):
        buffer = io.BytesIO()
        pq.write_table(pa.table({"order_id": list(range(len(amounts))), "amount": amounts}), buffer)
        lake.put(f"sparky/orders/dt={dt}/part-0.parquet", buffer.getvalue())
    lake.put("sparky/customers/part-0.csv", b"1,a@x.org\n2,b@x.org\n")
    ddl = gluecat("spark-conf", str(lake.root), "--format", "ddl")
    assert ddl.exit_code == 0, ddl.output
    statements = [s.strip() for s in ddl.stdout.split(";\n") if s.strip()]
    assert any("PARTITIONED BY (`dt` string)" in s for s in statements)
    for statement in statements:
        spark.sql(statement.rstrip(";"))
    rows = spark.sql("SELECT dt, sum(amount) AS total FROM sparky.orders GROUP BY dt ORDER BY dt").collect()
    assert [(r.dt, r.total) for r in rows] == [("2024-01-01", 4.0), ("2024-01-02", 4.0)]
    emails = sorted(r.email for r in spark.sql("SELECT email FROM sparky.customers").collect())
    assert emails == ["a@x.org", "b@x.org"]
