"""A small catalog for the site's settings pages: an Iceberg table with optimizers, a Hive table with
an owner, and a database of 250 tables (drawn a page of rows at a time)."""

from __future__ import annotations

from pathlib import Path

from tests.integration.helpers import write_project

ROLE = "arn:aws:iam::123456789012:role/glue-optimizer"
EVENTS = f"""\
format: iceberg
properties: {{owner: analytics-team}}
columns:
  - {{name: id, type: bigint}}
  - {{name: ts, type: timestamp}}
sort_order:
  - {{column: ts}}
optimizers:
  role_arn: {ROLE}
  compaction: {{strategy: sort, min_input_files: 50}}
  retention: {{enabled: false, snapshot_retention_days: 7}}
  orphan_file_deletion: {{}}
"""
ORDERS = """\
storage: parquet
extra: {Owner: sales-engineering}
columns: [{name: id, type: bigint}]
"""
WIDE_TABLES = 250


def settings_project(root: Path) -> Path:
    files = {
        "lake/database.yaml": "location: s3://lake/lake.db/\nparameters: {owner: platform}\n",
        "lake/tables/events.yaml": EVENTS,
        "lake/tables/orders.yaml": ORDERS,
        "wide/database.yaml": "location: s3://lake/wide/\n",
    }
    for n in range(WIDE_TABLES):
        files[f"wide/tables/t{n:03d}.yaml"] = "storage: csv\ncolumns: [{name: id, type: bigint}]\n"
    return write_project(root, "http://127.0.0.1:9", files, "warehouse: s3://lake/warehouse\n")
