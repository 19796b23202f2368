"""Build catalog projects on disk and run gluecat commands in-process."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

from typer.testing import CliRunner, Result

from gluecat.cli import app


def write_project(root: Path, endpoint: str, files: dict[str, str], catalog_extra: str = "") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {endpoint}\n{catalog_extra}")
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


EXAMPLE = Path(__file__).parents[2] / "catalogs" / "example"


def copy_example(destination: Path) -> Path:
    """The example catalog as committed: what a user's own commands left beside it (the sandbox state
    in `.gluecat/`) stays behind."""
    shutil.copytree(EXAMPLE, destination, ignore=shutil.ignore_patterns(".gluecat"))
    return destination


def gluecat(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


SALES_DB = "location: s3://lake/sales/\n"
ORDERS = """\
description: Orders
storage: parquet
columns:
  - {name: order_id, type: bigint}
  - {name: amount, type: "decimal(12,2)"}
partition_keys:
  - {name: dt, type: string}
partitions:
  - expand:
      dt: {from: 2024-01-01, to: 2024-01-10}
"""
CUSTOMERS = """\
storage: csv
columns:
  - {name: customer_id, type: bigint}
  - {name: email, type: string}
"""


def sales_project(root: Path, endpoint: str, catalog_extra: str = "", **tables: str) -> Path:
    files = {
        "sales/database.yaml": SALES_DB,
        "sales/tables/orders.yaml": ORDERS,
        "sales/tables/customers.yaml": CUSTOMERS,
    }
    files.update({f"sales/tables/{name}.yaml": text for name, text in tables.items()})
    return write_project(root, endpoint, files, catalog_extra)
