"""Iceberg evolution gluecat plans, read through Trino: old files stay readable under the old
layout and names, new writes follow the new spec, and the next plan is clean."""

from __future__ import annotations

import datetime
from decimal import Decimal

from tests.engines.conftest import Lake

DATABASE = "location: s3://lake/evolve/\n"
CLICKS = """\
format: iceberg
columns:
  - {name: user_id, type: bigint}
  - {name: ts, type: timestamp}
  - {name: page, type: string}
partition_spec:
  - {column: ts, transform: day}
  - {column: user_id, transform: "bucket[16]"}
"""


def _at(hour: int) -> str:
    return f"TIMESTAMP '2024-01-0{1 + hour // 24} {hour % 24:02d}:00:00'"


def test_day_to_hour_beside_a_bucket_keeps_every_row_and_writes_by_the_new_spec(lake: Lake) -> None:
    lake.project({"evolve/database.yaml": DATABASE, "evolve/tables/clicks.yaml": CLICKS})
    lake.apply()
    values = ", ".join(f"({i}, {_at(i * 7)}, 'p{i}')" for i in range(5))
    lake.query(f"INSERT INTO iceberg.evolve.clicks VALUES {values}")

    (lake.root / "evolve/tables/clicks.yaml").write_text(
        CLICKS.replace("{column: ts, transform: day}", "{column: ts, transform: hour}")
    )
    lake.apply()
    assert lake.plan_exit_code() == 0, "Iceberg appended hour(ts) after the bucket: no change by meaning"
    ddl = lake.query("SHOW CREATE TABLE iceberg.evolve.clicks")[0][0]
    assert "partitioning = ARRAY['bucket(user_id, 16)','hour(ts)']" in ddl, ddl

    lake.query(f"INSERT INTO iceberg.evolve.clicks VALUES (9, {_at(30)}, 'p9')")
    assert lake.query("SELECT user_id FROM iceberg.evolve.clicks ORDER BY 1") == [[0], [1], [2], [3], [4], [9]]
    by_hour = lake.query(
        'SELECT partition.ts_hour, record_count FROM iceberg.evolve."clicks$partitions"'
        " WHERE partition.ts_hour IS NOT NULL"
    )
    hours = (datetime.datetime(2024, 1, 2, 6) - datetime.datetime(1970, 1, 1)) // datetime.timedelta(hours=1)
    assert by_hour == [[hours, 1]], "only the row written after the change is partitioned by hour"
    assert lake.plan_exit_code() == 0


USERS = """\
format: iceberg
columns:
  - {name: id, type: bigint}
  - {name: user_name, type: string}
"""


def test_a_renamed_column_reads_its_old_rows_under_the_new_name(lake: Lake) -> None:
    lake.project({"evolve/database.yaml": DATABASE, "evolve/tables/users.yaml": USERS})
    lake.apply()
    lake.query("INSERT INTO iceberg.evolve.users VALUES (1, 'ada'), (2, 'grace')")
    renamed = USERS.replace("{name: user_name, type: string}", "{name: login, type: string, renamed_from: user_name}")
    (lake.root / "evolve/tables/users.yaml").write_text(renamed)
    lake.apply()
    assert lake.query("SELECT id, login FROM iceberg.evolve.users ORDER BY id") == [[1, "ada"], [2, "grace"]]
    lake.query("INSERT INTO iceberg.evolve.users VALUES (3, 'alan')")
    assert lake.query("SELECT login FROM iceberg.evolve.users ORDER BY id") == [["ada"], ["grace"], ["alan"]]
    assert lake.plan_exit_code() == 0, "renamed_from stays in the file and plans clean"


GADGETS = """\
format: iceberg
columns:
  - {name: id, type: bigint, required: true}
  - {name: qty, type: int}
  - {name: price, type: "decimal(10,2)"}
  - {name: device, type: "struct<os:string,model:string>"}
"""
GADGETS_EVOLVED = """\
format: iceberg
columns:
  - {name: id, type: bigint}
  - {name: qty, type: bigint}
  - {name: price, type: "decimal(12,2)"}
  - name: device
    type: "struct<os_name:string,model:string,screen:int>"
    renamed_fields: {os_name: os}
"""


def test_the_evolutions_iceberg_allows_keep_the_rows_trino_wrote(lake: Lake) -> None:
    lake.project({"evolve/database.yaml": DATABASE, "evolve/tables/gadgets.yaml": GADGETS})
    lake.apply()
    lake.query(
        "INSERT INTO iceberg.evolve.gadgets VALUES (1, 2, DECIMAL '1.25', ROW('ios', 'x1')),"
        " (2, 2147483647, DECIMAL '99999999.99', ROW('android', 'p7'))"
    )
    select = "SELECT id, qty, price, device.model FROM iceberg.evolve.gadgets ORDER BY id"
    before = lake.query(select)
    (lake.root / "evolve/tables/gadgets.yaml").write_text(GADGETS_EVOLVED)
    lake.apply()
    assert lake.query(select) == before
    assert lake.query("SELECT device.os_name, device.screen FROM iceberg.evolve.gadgets ORDER BY id") == [
        ["ios", None], ["android", None]]  # fmt: skip
    lake.query(
        "INSERT INTO iceberg.evolve.gadgets VALUES (NULL, 3000000000, DECIMAL '1234567890.12', ROW('web', 'b', 13))"
    )
    assert lake.query("SELECT qty, price, device.screen FROM iceberg.evolve.gadgets WHERE id IS NULL") == [
        [3000000000, Decimal("1234567890.12"), 13]]  # fmt: skip
    assert lake.plan_exit_code() == 0
