"""The example catalog with two views over it, for the documentation site's tests, bench and screenshots."""

from __future__ import annotations

import shutil
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1] / "catalogs" / "example"

ORDER_FACTS = """\
description: Orders with the customer's country
format: view
dialect: athena
sql: |
  SELECT o.order_id, c.country, o.amount * 1 AS amount, o.dt
  FROM orders o JOIN customers c ON o.customer_id = c.customer_id
columns:
  - {name: order_id, type: bigint}
  - {name: country, type: string}
  - {name: amount, type: "decimal(12,2)"}
  - {name: dt, type: string}
"""
COUNTRY_REVENUE = """\
description: Revenue per country, for the finance dashboard
format: view
dialect: spark
sql: SELECT country, sum(amount) AS revenue FROM sales.order_facts GROUP BY country
columns:
  - {name: country, type: string}
  - {name: revenue, type: "decimal(22,2)"}
"""


def example_with_views(destination: Path) -> Path:
    """A copy of the example catalog (no sandbox state) with sales.order_facts joining orders and
    customers, and sales.country_revenue reading that view."""
    shutil.copytree(EXAMPLE, destination, ignore=shutil.ignore_patterns(".gluecat"))
    (destination / "sales" / "tables" / "order_facts.yaml").write_text(ORDER_FACTS)
    (destination / "sales" / "tables" / "country_revenue.yaml").write_text(COUNTRY_REVENUE)
    return destination
