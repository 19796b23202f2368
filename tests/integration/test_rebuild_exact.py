"""A catalog imported and rebuilt into an empty catalog holds what it held, field for field (only
what Glue itself sets left out): a view as Athena wrote it, in a catalog whose `readers` do not name
Trino, a view with partition keys, and partitions stored without a descriptor of their own."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest

from gluecat.sandbox.server import LocalGlue
from gluecat.sandbox.strict import StrictOptions
from tests.integration.helpers import gluecat

# What only Glue writes: when, who, which version, which catalog.
SERVER_SET = frozenset({
    "CreateTime", "UpdateTime", "VersionId", "CatalogId", "CreatedBy", "IsRegisteredWithLakeFormation",
    "CreationTime", "LastAccessTime", "LastAnalyzedTime", "IsMultiDialectView", "IsMaterializedView",
})  # fmt: skip
TEXT = {
    "InputFormat": "org.apache.hadoop.mapred.TextInputFormat",
    "OutputFormat": "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat",
    "SerdeInfo": {  # as Athena's DDL writes it
        "SerializationLibrary": "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe",
        "Parameters": {"field.delim": ",", "serialization.format": ","},
    },
}


def _athena_view_text(sql: str, columns: list[tuple[str, str]]) -> str:
    """ViewOriginalText as Athena writes it: no run-as identity, no comment."""
    payload = {
        "originalSql": sql,
        "catalog": "awsdatacatalog",
        "schema": "shop",
        "columns": [{"name": name, "type": kind} for name, kind in columns],
    }
    text = json.dumps(payload, separators=(",", ":"))  # compact, as Athena writes it
    return "/* Presto View: " + base64.b64encode(text.encode()).decode() + " */"


@pytest.fixture
def second_glue() -> Iterator[LocalGlue]:
    with LocalGlue(StrictOptions()) as other:
        yield other


def _client(server: LocalGlue) -> Any:
    return boto3.client("glue", endpoint_url=server.endpoint_url, region_name="us-east-1")


def _arrange(glue: Any) -> None:
    glue.create_database(DatabaseInput={"Name": "shop", "LocationUri": "s3://lake/shop/"})
    glue.create_table(
        DatabaseName="shop",
        TableInput={
            "Name": "orders",
            "TableType": "EXTERNAL_TABLE",
            "Parameters": {"classification": "csv"},
            "StorageDescriptor": {
                "Columns": [{"Name": "id", "Type": "bigint"}, {"Name": "amount", "Type": "double"}],
                "Location": "s3://lake/shop/orders/",
                **TEXT,
            },
            "PartitionKeys": [{"Name": "dt", "Type": "string"}],
        },
    )
    descriptor = {"Columns": [{"Name": "id", "Type": "bigint"}, {"Name": "amount", "Type": "double"}], **TEXT}
    glue.batch_create_partition(
        DatabaseName="shop",
        TableName="orders",
        PartitionInputList=[
            {"Values": ["2024-01-01"], "StorageDescriptor": {**descriptor, "Location": "s3://lake/shop/orders/dt=2024-01-01/"}},
            {"Values": ["2024-01-02"]},  # no descriptor of its own
            {"Values": ["2024-01-03"], "Parameters": {"source": "backfill"}},  # parameters, no descriptor
        ],
    )  # fmt: skip
    glue.create_table(
        DatabaseName="shop",
        TableInput={
            "Name": "big_orders",
            "TableType": "VIRTUAL_VIEW",
            "Description": "Orders over 100",
            "Parameters": {"presto_view": "true", "comment": "Presto View"},
            "ViewOriginalText": _athena_view_text(
                "SELECT id, amount FROM shop.orders WHERE amount > 100", [("id", "bigint"), ("amount", "double")]
            ),
            "ViewExpandedText": "/* Presto View */",
            "StorageDescriptor": {
                "Columns": [{"Name": "id", "Type": "bigint"}, {"Name": "amount", "Type": "double"}],
                "SerdeInfo": {},
            },
            "PartitionKeys": [],
        },
    )

    glue.create_table(
        DatabaseName="shop",
        TableInput={
            "Name": "daily_orders",
            "TableType": "VIRTUAL_VIEW",
            "Parameters": {"presto_view": "true", "comment": "Presto View"},
            "ViewOriginalText": _athena_view_text(
                "SELECT id, dt FROM shop.orders", [("id", "bigint"), ("dt", "varchar")]
            ),
            "ViewExpandedText": "/* Presto View */",
            "StorageDescriptor": {
                "Columns": [{"Name": "id", "Type": "bigint"}, {"Name": "dt", "Type": "string"}],
                "SerdeInfo": {},  # as Athena writes it
            },
            "PartitionKeys": [{"Name": "dt", "Type": "string"}],  # a view's own partition keys
        },
    )


def _held(glue: Any) -> dict[str, Any]:
    """Every table and its partitions as Glue answers them, less what Glue sets by itself."""
    tables = glue.get_tables(DatabaseName="shop")["TableList"]
    held: dict[str, Any] = {}
    for table in sorted(tables, key=lambda t: t["Name"]):
        partitions = glue.get_partitions(DatabaseName="shop", TableName=table["Name"])["Partitions"]
        held[table["Name"]] = {
            "table": _without_server_set(table),
            "partitions": sorted((_without_server_set(p) for p in partitions), key=lambda p: p["Values"]),
        }
    return held


def _without_server_set(shape: Any) -> Any:
    if isinstance(shape, dict):
        return {key: _without_server_set(value) for key, value in shape.items() if key not in SERVER_SET}
    if isinstance(shape, list):
        return [_without_server_set(item) for item in shape]
    return shape


def _differences(rebuilt: Any, held: Any, path: str = "") -> Iterator[str]:
    """Every field path where the rebuilt catalog differs from the one imported."""
    if isinstance(rebuilt, dict) and isinstance(held, dict):
        for key in sorted(set(rebuilt) | set(held)):
            yield from _differences(rebuilt.get(key, "<absent>"), held.get(key, "<absent>"), f"{path}.{key}")
    elif isinstance(rebuilt, list) and isinstance(held, list) and len(rebuilt) == len(held):
        for index, (one, other) in enumerate(zip(rebuilt, held, strict=True)):
            yield from _differences(one, other, f"{path}[{index}]")
    elif rebuilt != held:
        yield f"{path}: {rebuilt!r} != {held!r}"


def test_views_and_descriptorless_partitions_rebuild_field_for_field(
    tmp_path: Path, server: LocalGlue, second_glue: LocalGlue
) -> None:
    live = _client(server)
    _arrange(live)
    root = tmp_path / "p"
    root.mkdir()
    (root / "catalog.yaml").write_text(
        f"region: us-east-1\nendpoint_url: {server.endpoint_url}\nreaders: [athena, spark]\n"
    )
    imported = gluecat("import", str(root), "--partitions")
    assert imported.exit_code == 0, imported.output
    clean = gluecat("plan", str(root), "--detailed-exitcode")
    assert clean.exit_code == 0, clean.output

    catalog = root / "catalog.yaml"
    catalog.write_text(catalog.read_text().replace(server.endpoint_url, second_glue.endpoint_url))
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output

    before, after = _held(live), _held(_client(second_glue))
    differing = list(_differences(after, before))
    assert differing == [], "\n".join(differing)
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0
