"""Views, partition projection, Iceberg and Delta tables gluecat applies, read through Trino."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

import pyarrow as pa
from deltalake import write_deltalake

from tests.engines.conftest import BUCKET, Lake
from tests.engines.samples import COLUMNS, encode, rows

ORDERS = f"storage: parquet\ncolumns:\n{COLUMNS}"


def _seed_orders(lake: Lake, database: str) -> None:
    lake.put(f"{database}/orders/part-0.parquet", encode("parquet", rows(1)))


def test_an_athena_view_gluecat_writes_is_one_trino_selects(lake: Lake) -> None:
    lake.project(
        {
            "athena_views/database.yaml": "location: s3://lake/athena_views/\n",
            "athena_views/tables/orders.yaml": ORDERS,
            "athena_views/tables/cheap.yaml": """\
format: view
dialect: athena
description: Orders under 2
sql: SELECT id, name, price FROM athena_views.orders WHERE price < 2
columns:
  - {name: id, type: bigint}
  - {name: name, type: string}
  - {name: price, type: "decimal(10,2)"}
""",
        }
    )
    lake.apply()
    _seed_orders(lake, "athena_views")
    assert lake.query("SELECT id, name, price FROM hive.athena_views.cheap") == [[11, "alpha1", Decimal("1.50")]]
    assert lake.query("SELECT comment FROM system.metadata.table_comments WHERE catalog_name = 'hive' AND schema_name = 'athena_views'"
                      " AND table_name = 'cheap'") == [["Orders under 2"]]  # fmt: skip
    assert lake.plan_exit_code() == 0


def test_a_spark_view_reads_through_trinos_hive_view_support(lake: Lake) -> None:
    lake.project(
        {
            "spark_views/database.yaml": "location: s3://lake/spark_views/\n",
            "spark_views/tables/orders.yaml": ORDERS,
            "spark_views/tables/names.yaml": """\
format: view
dialect: spark
sql: SELECT id, upper(name) AS name FROM spark_views.orders WHERE id > 11
columns:
  - {name: id, type: bigint}
  - {name: name, type: string}
""",
        }
    )
    lake.apply()
    _seed_orders(lake, "spark_views")
    assert lake.query("SELECT id, name FROM hive.spark_views.names") == [[12, "BETA1"]]


PROJECTED = """\
storage: parquet
columns:
  - {name: id, type: bigint}
partition_keys:
  - {name: dt, type: string}
  - {name: hr, type: int}
  - {name: region, type: string}
  - {name: tenant, type: string}
projection:
  location_template: "s3://lake/projected/events/${tenant}/${region}/${dt}/${hr}/"
  keys:
    dt: {type: date, range: ["2024-01-01", "2024-01-03"], format: "yyyy-MM-dd", interval: 1, unit: DAYS}
    hr: {type: integer, range: [0, 23], digits: 2}
    region: {type: enum, values: [eu, us]}
    tenant: {type: injected}
"""


def test_projected_partitions_are_found_by_trino_with_none_registered(lake: Lake) -> None:
    lake.project(
        {"projected/database.yaml": "location: s3://lake/projected/\n", "projected/tables/events.yaml": PROJECTED}
    )
    lake.apply()
    assert lake.glue_client.get_partitions(DatabaseName="projected", TableName="events")["Partitions"] == []
    placed = {
        ("acme", "eu", "2024-01-01", "03"): 1,
        ("acme", "us", "2024-01-03", "23"): 2,
        ("other", "eu", "2024-01-02", "00"): 3,
    }
    for (tenant, region, dt, hr), ident in placed.items():
        table = pa.table({"id": pa.array([ident], pa.int64())})
        lake.put(f"projected/events/{tenant}/{region}/{dt}/{hr}/part-0.parquet", _parquet(table))
    got = lake.query("SELECT id, dt, hr, region FROM hive.projected.events WHERE tenant = 'acme' ORDER BY id")
    assert got == [[1, "2024-01-01", 3, "eu"], [2, "2024-01-03", 23, "us"]]
    assert lake.query("SELECT id FROM hive.projected.events WHERE tenant = 'other' AND region = 'eu'") == [[3]]


def _parquet(table: pa.Table) -> bytes:
    import io

    import pyarrow.parquet as pq

    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    return buffer.getvalue()


ICEBERG = """\
format: iceberg
columns:
  - {name: id, type: bigint, required: true}
  - {name: kind, type: string}
  - {name: at, type: timestamp}
partition_spec:
  - {column: at, transform: day}
sort_order:
  - {column: id, direction: desc, null_order: nulls-last}
properties: {format-version: "2"}
"""


def test_trino_appends_to_an_iceberg_table_and_the_next_plan_is_clean(lake: Lake) -> None:
    lake.project({"ice/database.yaml": "location: s3://lake/ice/\n", "ice/tables/events.yaml": ICEBERG})
    lake.apply()
    lake.query("INSERT INTO iceberg.ice.events VALUES (1, 'click', TIMESTAMP '2024-01-01 10:00:00'),"
               " (2, 'view', TIMESTAMP '2024-01-02 11:00:00')")  # fmt: skip
    lake.query("INSERT INTO iceberg.ice.events VALUES (3, 'click', TIMESTAMP '2024-01-02 12:00:00')")
    assert lake.query("SELECT id, kind FROM iceberg.ice.events ORDER BY id") == [
        [1, "click"],
        [2, "view"],
        [3, "click"],
    ]
    assert lake.plan_exit_code() == 0, "Trino's commits must leave nothing for gluecat to change"

    # The partition spec and sort order gluecat wrote are the ones Trino shows and writes by.
    ddl = lake.query("SHOW CREATE TABLE iceberg.ice.events")[0][0]
    assert "partitioning = ARRAY['day(at)']" in ddl, ddl
    assert "sorted_by = ARRAY['id DESC NULLS LAST']" in ddl, ddl
    partitions = lake.query('SELECT partition.at_day, record_count FROM iceberg.ice."events$partitions" ORDER BY 1')
    assert partitions == [[datetime.date(2024, 1, 1), 1], [datetime.date(2024, 1, 2), 2]]

    # gluecat evolves the schema, the spec and the sort order; Trino sees and follows each.
    evolved = (
        ICEBERG.replace(
            "  - {name: at, type: timestamp}\n", "  - {name: at, type: timestamp}\n  - {name: source, type: string}\n"
        )
        .replace("  - {column: at, transform: day}\n", "  - {column: at, transform: month}\n")
        .replace("{column: id, direction: desc, null_order: nulls-last}", "{column: kind}")
    )
    (lake.root / "ice/tables/events.yaml").write_text(evolved)
    lake.apply()
    lake.query("INSERT INTO iceberg.ice.events VALUES (4, 'buy', TIMESTAMP '2024-03-05 09:00:00', 'web')")
    assert lake.query("SELECT id, source FROM iceberg.ice.events ORDER BY id") == [
        [1, None], [2, None], [3, None], [4, "web"]]  # fmt: skip
    ddl = lake.query("SHOW CREATE TABLE iceberg.ice.events")[0][0]
    assert "partitioning = ARRAY['month(at)']" in ddl, ddl
    assert "sorted_by = ARRAY['kind ASC NULLS FIRST']" in ddl, ddl
    months = lake.query(
        'SELECT partition.at_month FROM iceberg.ice."events$partitions" WHERE partition.at_month IS NOT NULL'
    )
    assert months == [[(2024 - 1970) * 12 + 2]], "the new row is written under the month spec"
    assert lake.plan_exit_code() == 0


DELTA = """\
format: delta
location: s3://lake/deltas/stock
columns:
  - {name: sku, type: string}
  - {name: on_hand, type: int}
  - {name: price, type: "decimal(10,2)"}
  - {name: dt, type: date}
partition_columns: [dt]
"""


def test_trinos_delta_connector_returns_the_rows_of_a_table_gluecat_registered(lake: Lake) -> None:
    lake.project({"deltas/database.yaml": "location: s3://lake/deltas/\n", "deltas/tables/stock.yaml": DELTA})
    lake.apply()
    data: list[dict[str, Any]] = [
        {"sku": "a", "on_hand": 1, "price": Decimal("2.50"), "dt": datetime.date(2024, 1, 1)},
        {"sku": "b", "on_hand": 7, "price": Decimal("0.99"), "dt": datetime.date(2024, 1, 2)},
    ]
    schema = pa.schema(
        [("sku", pa.string()), ("on_hand", pa.int32()), ("price", pa.decimal128(10, 2)), ("dt", pa.date32())]
    )
    write_deltalake(f"s3://{BUCKET}/deltas/stock", pa.Table.from_pylist(data, schema=schema), mode="append",
                    storage_options=lake.delta_options())  # fmt: skip
    got = lake.query("SELECT sku, on_hand, price, dt FROM delta.deltas.stock ORDER BY sku")
    assert got == [[d["sku"], d["on_hand"], d["price"], d["dt"]] for d in data]
    assert lake.plan_exit_code() == 0
