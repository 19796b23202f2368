"""The listings gluecat parses lean (orjson instead of botocore's shape walk) read exactly what
botocore's own parse reads, timestamps aside (kept as the epoch seconds Glue sent), from the local
Glue and Lake Formation; errors still come as botocore raises them."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore import xform_name
from botocore.exceptions import ClientError

from gluecat.backends import lean_json
from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

ETL = "arn:aws:iam::123456789012:role/etl"
FILES = {
    "sales/database.yaml": f"""\
location: s3://lake/sales/
description: Sales
grants:
  - {{principal: {ETL}, permissions: [CREATE_TABLE, DESCRIBE], grantable: [DESCRIBE]}}
""",
    "sales/tables/orders.yaml": f"""\
storage: parquet
columns: [{{name: id, type: bigint, comment: key}}, {{name: total, type: "decimal(12,2)"}}]
partition_keys: [{{name: dt, type: string}}, {{name: region, type: string}}]
parameters: {{classification: parquet}}
partitions:
  - expand: {{dt: {{from: 2024-01-01, to: 2024-01-03}}, region: [eu, us]}}
  - values: {{dt: 2024-02-01, region: eu}}
    location: s3://elsewhere/feb/
    parameters: {{note: late}}
grants:
  - {{principal: {ETL}, permissions: [SELECT], columns: [id]}}
""",
}
CALLS: list[tuple[str, str, dict[str, Any]]] = [
    ("glue", "get_databases", {}),
    ("glue", "get_tables", {"DatabaseName": "sales"}),
    ("glue", "get_partitions", {"DatabaseName": "sales", "TableName": "orders"}),
    ("glue", "get_partitions", {"DatabaseName": "sales", "TableName": "orders", "ExcludeColumnSchema": True}),
    (
        "glue",
        "batch_get_partition",
        {
            "DatabaseName": "sales",
            "TableName": "orders",
            "PartitionsToGet": [{"Values": ["2024-01-01", "eu"]}, {"Values": ["2024-02-01", "eu"]}],
        },
    ),
    ("lakeformation", "list_permissions", {}),
]


def _epochs(value: Any) -> Any:
    """botocore's parse with its datetimes as the epoch seconds they came from (to the millisecond)."""
    if isinstance(value, datetime):
        return round(value.timestamp(), 3)
    if isinstance(value, float):
        return round(value, 3)
    if isinstance(value, dict):
        return {k: _epochs(v) for k, v in value.items() if k != "ResponseMetadata"}
    if isinstance(value, list):
        return [_epochs(v) for v in value]
    return value


def _client(server: LocalGlue, service: str, lean: bool) -> Any:
    client = boto3.client(service, endpoint_url=server.endpoint_url, region_name="us-east-1")
    if lean:
        (lean_json.register if service == "glue" else lean_json.register_lake_formation)(client.meta.events)
    return client


def test_every_lean_listing_reads_what_botocore_reads(tmp_path: Path, server: LocalGlue) -> None:
    root = write_project(tmp_path, server.endpoint_url, FILES)
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output

    for service, operation, arguments in CALLS:
        lean = getattr(_client(server, service, lean=True), operation)(**arguments)
        full = getattr(_client(server, service, lean=False), operation)(**arguments)
        assert _epochs(lean) == _epochs(full), operation
        assert any(isinstance(v, list) and v for v in lean.values()), f"{operation} read nothing to compare"
    lean_operations = (*lean_json.LEAN_OPERATIONS, *lean_json.LEAN_LAKE_FORMATION)
    assert {xform_name(name) for name in lean_operations} == {name for _, name, _ in CALLS}  # each one compared


def test_a_lean_listing_that_fails_raises_as_botocore_does(server: LocalGlue) -> None:
    for lean in (True, False):
        with pytest.raises(ClientError) as raised:
            _client(server, "glue", lean).get_tables(DatabaseName="missing")
        assert raised.value.response["Error"]["Code"] == "EntityNotFoundException"
