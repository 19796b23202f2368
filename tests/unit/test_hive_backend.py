"""The Hive Metastore backend offline: Glue shapes to Thrift and back, partition names, spark-conf, lint."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from gluecat.backends.hive_shapes import (
    partition_from_hive,
    partition_name,
    partition_to_hive,
    table_from_hive,
    table_to_hive,
)
from gluecat.backends.metastore_types import compatible
from gluecat.cli import app
from gluecat.kinds.registry import desired_table_input
from gluecat.model import Database, HiveTable
from tests.unit.test_validate import make_project

DATABASE = Database(name="sales", location="s3://lake/sales/")


def _round_trip(table: HiveTable) -> tuple[dict[str, Any], dict[str, Any]]:
    sent = desired_table_input(table, DATABASE)
    assert sent is not None
    return sent, table_from_hive(table_to_hive("sales", sent))


def test_a_parquet_table_comes_back_as_glue_shows_it() -> None:
    table = HiveTable(
        name="orders", description="one row per order", storage="parquet",
        columns=[{"name": "id", "type": "bigint", "comment": "key"}, {"name": "amount", "type": "decimal(12,2)"}],
        partition_keys=[{"name": "dt", "type": "string"}], parameters={"classification": "parquet"},
    )  # fmt: skip
    sent, back = _round_trip(table)
    assert back["TableType"] == "EXTERNAL_TABLE"
    assert back["Description"] == "one row per order"
    assert back["Parameters"] == {**sent["Parameters"], "EXTERNAL": "TRUE"}  # the description is not a parameter
    assert back["PartitionKeys"] == sent["PartitionKeys"]
    sd, want = back["StorageDescriptor"], sent["StorageDescriptor"]
    for key in ("Columns", "Location", "InputFormat", "OutputFormat"):
        assert sd[key] == want[key]
    assert sd["SerdeInfo"]["SerializationLibrary"] == want["SerdeInfo"]["SerializationLibrary"]
    assert sd["SerdeInfo"]["Parameters"] == want["SerdeInfo"]["Parameters"]


def test_the_hive_table_holds_external_as_hms_wants_it() -> None:
    sent = desired_table_input(HiveTable(name="events", storage="csv", columns=[]), DATABASE)
    assert sent is not None
    hive = table_to_hive("sales", sent)
    assert hive.tableType == "EXTERNAL_TABLE" and hive.parameters["EXTERNAL"] == "TRUE"
    assert hive.sd.serdeInfo.serializationLib == sent["StorageDescriptor"]["SerdeInfo"]["SerializationLibrary"]


def test_a_partition_keeps_its_values_location_and_parameters() -> None:
    partition = {
        "Values": ["2024-01-01", "eu"],
        "StorageDescriptor": {"Location": "s3://lake/sales/orders/dt=2024-01-01/region=eu", "Columns": []},
        "Parameters": {"owner": "etl"},
    }
    back = partition_from_hive(partition_to_hive("sales", "orders", partition))
    assert back["Values"] == partition["Values"]
    assert back["StorageDescriptor"]["Location"] == partition["StorageDescriptor"]["Location"]
    assert back["Parameters"] == {"owner": "etl"}


@pytest.mark.parametrize(
    ("values", "name"),
    [
        (["2024-01-01", "eu"], "dt=2024-01-01/region=eu"),
        (["a/b", "x=y"], "dt=a%2Fb/region=x%3Dy"),
        (["10:30", "50%"], "dt=10%3A30/region=50%25"),
        (["", "eu"], "dt=__HIVE_DEFAULT_PARTITION__/region=eu"),
    ],
)
def test_partition_names_are_escaped_as_hive_escapes_them(values: list[str], name: str) -> None:
    assert partition_name(["dt", "region"], values) == name


@given(st.text(min_size=1, max_size=20))
def test_an_escaped_partition_value_never_splits_the_name(value: str) -> None:
    name = partition_name(["k"], [value])
    assert name.count("/") == 0 and name.count("=") == 1


def test_spark_conf_on_a_metastore_uses_spark_s_hive_catalog(tmp_path: Path) -> None:
    root = make_project(tmp_path, {"catalog.yaml": "backend: hive\nmetastore_uri: thrift://hms:9083\n"})
    result = CliRunner().invoke(app, ["spark-conf", str(root), "--format", "json"])
    assert result.exit_code == 0, result.output
    conf = json.loads(result.stdout)
    assert conf["spark.sql.catalogImplementation"] == "hive"
    assert conf["spark.hadoop.hive.metastore.uris"] == "thrift://hms:9083"
    assert not [key for key in conf if "glue" in key.lower()]
    assert "spark.sql.hive.metastore.version" not in conf  # Spark's built-in 2.3.9 client serves Hive 2.3


def test_spark_conf_for_hive_4_names_the_client_that_can_read_it(tmp_path: Path) -> None:
    catalog = "backend: hive\nmetastore_uri: thrift://hms:9083\nmetastore_version: '4.0'\n"
    root = make_project(tmp_path, {"catalog.yaml": catalog})
    conf = json.loads(CliRunner().invoke(app, ["spark-conf", str(root), "--format", "json"]).stdout)
    assert conf["spark.sql.hive.metastore.version"] == "3.1.3"
    assert conf["spark.sql.hive.metastore.jars"] == "maven"


def test_trino_on_a_metastore_reads_through_thrift(tmp_path: Path) -> None:
    root = make_project(tmp_path, {"catalog.yaml": "backend: hive\nmetastore_uri: thrift://hms:9083\n"})
    result = CliRunner().invoke(app, ["spark-conf", str(root), "--format", "trino"])
    assert result.exit_code == 0, result.output
    assert "hive.metastore=thrift\nhive.metastore.uri=thrift://hms:9083" in result.stdout
    assert "glue" not in result.stdout


def test_a_hive_backend_without_a_metastore_uri_is_named_at_its_line(tmp_path: Path) -> None:
    root = make_project(tmp_path, {"catalog.yaml": "region: eu-west-1\nbackend: hive\n"})
    result = CliRunner().invoke(app, ["validate", str(root)])
    assert result.exit_code == 1
    assert "catalog.yaml:2:1" in result.output and "metastore_uri" in result.output


def test_a_bad_metastore_uri_says_what_would_be_right(tmp_path: Path) -> None:
    root = make_project(tmp_path, {"catalog.yaml": "backend: hive\nmetastore_uri: http://hms:9083\n"})
    result = CliRunner().invoke(app, ["validate", str(root)])
    assert result.exit_code == 1
    assert "catalog.yaml:2" in result.output and "thrift://HOST:PORT" in result.output


def test_partition_indexes_are_refused_on_a_metastore(tmp_path: Path) -> None:
    table = """\
        storage: parquet
        columns: [{name: id, type: bigint}]
        partition_keys: [{name: dt, type: string}]
        partition_indexes: [{name: by_dt, keys: [dt]}]
    """
    root = make_project(
        tmp_path,
        {"catalog.yaml": "backend: hive\nmetastore_uri: thrift://hms:9083\n", "sales/tables/orders.yaml": table},
    )
    result = CliRunner().invoke(app, ["validate", str(root)])
    assert result.exit_code == 1
    assert "orders.yaml:4" in result.output and "no partition indexes" in result.output


@pytest.mark.parametrize(
    ("old", "new", "allowed"),
    [
        ("int", "bigint", True),
        ("bigint", "int", False),
        ("decimal(12,2)", "int", False),
        ("int", "decimal(10,2)", True),
        ("decimal(10,2)", "decimal(12,4)", True),
        ("string", "varchar(10)", True),
        ("date", "string", True),
        ("string", "int", False),
        ("double", "float", False),
        ("array<int>", "array<bigint>", False),
    ],
)
def test_the_metastore_s_column_type_rule(old: str, new: str, allowed: bool) -> None:
    assert compatible(old, new) is allowed


def test_a_metastore_message_quoting_a_whole_object_keeps_what_names_it() -> None:
    from gluecat.backends.hive import _short

    quoted = "Partition already exists: Partition(values:[1], dbName:b, sd:StorageDescriptor(cols:[]), parameters:{})"
    assert _short(quoted) == "Partition already exists: Partition(values:[1])"
    assert _short("Table(tableName:t, sd:SD(a:(b))) already exists") == "Table(tableName:t) already exists"
