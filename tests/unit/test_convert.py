from __future__ import annotations

import pytest
from hypothesis import given

from gluecat.convert.database import database_from_glue, database_input
from gluecat.convert.hive import hive_table_from_glue, hive_table_input, partition_input
from gluecat.convert.locations import escape_path_name, partition_location, table_location
from gluecat.model import Database, HiveTable
from tests.strategies import hive_tables


@given(hive_tables())
def test_hive_table_round_trip_is_identity(table: HiveTable) -> None:
    shape = hive_table_input(table, table.location)
    # A table Glue holds without a location imports as `location: ""`, so no default is added.
    assert hive_table_from_glue(shape) == table.model_copy(update={"location": table.location or ""})


def test_database_round_trip() -> None:
    database = Database(name="sales", description="d", location="s3://b/sales/", parameters={"a": "1"})
    assert database_from_glue(database_input(database)) == database


@pytest.mark.parametrize(
    ("storage", "input_format", "output_format", "serde", "parameters"),
    [
        (
            "parquet",
            "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
            "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat",
            "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe",
            {"serialization.format": "1"},
        ),
        (
            "orc",
            "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat",
            "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat",
            "org.apache.hadoop.hive.ql.io.orc.OrcSerde",
            {"serialization.format": "1"},
        ),
        (
            "avro",
            "org.apache.hadoop.hive.ql.io.avro.AvroContainerInputFormat",
            "org.apache.hadoop.hive.ql.io.avro.AvroContainerOutputFormat",
            "org.apache.hadoop.hive.serde2.avro.AvroSerDe",
            {},
        ),
        (
            "json",
            "org.apache.hadoop.mapred.TextInputFormat",
            "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat",
            "org.openx.data.jsonserde.JsonSerDe",
            {},
        ),
        (
            "hive-json",
            "org.apache.hadoop.mapred.TextInputFormat",
            "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat",
            "org.apache.hive.hcatalog.data.JsonSerDe",
            {},
        ),
        (
            "csv",
            "org.apache.hadoop.mapred.TextInputFormat",
            "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat",
            "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe",
            {"field.delim": ",", "serialization.format": ","},
        ),
        (
            "opencsv",
            "org.apache.hadoop.mapred.TextInputFormat",
            "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat",
            "org.apache.hadoop.hive.serde2.OpenCSVSerde",
            {"separatorChar": ",", "quoteChar": '"', "escapeChar": "\\"},
        ),
    ],
)
def test_storage_shorthand_writes_the_exact_formats(
    storage: str, input_format: str, output_format: str, serde: str, parameters: dict[str, str]
) -> None:
    table = HiveTable(name="t", storage=storage, columns=[{"name": "a", "type": "int"}])  # type: ignore[list-item]
    descriptor = hive_table_input(table, "s3://b/t")["StorageDescriptor"]
    assert descriptor["InputFormat"] == input_format
    assert descriptor["OutputFormat"] == output_format
    assert descriptor["SerdeInfo"] == {"SerializationLibrary": serde, "Parameters": parameters}


def test_serde_parameters_extend_the_shorthand() -> None:
    table = HiveTable(
        name="t",
        storage="opencsv",
        serde={"parameters": {"skip.header.line.count": "1"}},  # type: ignore[arg-type]
    )
    params = hive_table_input(table, None)["StorageDescriptor"]["SerdeInfo"]["Parameters"]
    assert params["skip.header.line.count"] == "1"
    assert params["separatorChar"] == ","
    assert hive_table_from_glue(hive_table_input(table, None)) == table.model_copy(update={"location": ""})


def test_unknown_formats_stay_explicit() -> None:
    live = {
        "Name": "logs",
        "StorageDescriptor": {
            "InputFormat": "org.apache.hadoop.mapred.TextInputFormat",
            "OutputFormat": "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat",
            "SerdeInfo": {
                "SerializationLibrary": "org.apache.hadoop.hive.serde2.RegexSerDe",
                "Parameters": {"input.regex": "^(\\S+) (\\S+)$"},
            },
        },
    }
    table = hive_table_from_glue(live)
    assert table.storage is None
    assert table.serde is not None and table.serde.library == "org.apache.hadoop.hive.serde2.RegexSerDe"


@pytest.mark.parametrize(
    ("value", "escaped"),
    [
        ("2024-01-01", "2024-01-01"),
        ("a/b", "a%2Fb"),
        ("10:30:00", "10%3A30%3A00"),
        ("x=y", "x%3Dy"),
        ("50%", "50%25"),
        ("a b", "a b"),
        ("caf\u00e9", "caf\u00e9"),
        ("q?#", "q%3F%23"),
        ("tab\there", "tab%09here"),
        ("", "__HIVE_DEFAULT_PARTITION__"),
    ],
)
def test_partition_values_escape_like_hive(value: str, escaped: str) -> None:
    assert escape_path_name(value) == escaped


def test_partition_location_defaults_the_hive_way() -> None:
    location = partition_location("s3://b/t/", ["dt", "hour"], ["2024-01-01", "10:00"])
    assert location == "s3://b/t/dt=2024-01-01/hour=10%3A00/"


def test_table_location_defaults_under_the_database() -> None:
    database = Database(name="sales", location="s3://b/sales/")
    table = HiveTable(name="orders", storage="parquet")
    assert table_location(table, database) == "s3://b/sales/orders"


def test_partition_input_copies_the_table_storage() -> None:
    table = HiveTable(name="t", storage="parquet", columns=[{"name": "a", "type": "int"}])  # type: ignore[list-item]
    shape = partition_input(table, ["2024-01-01"], "s3://b/t/dt=2024-01-01/")
    assert shape["Values"] == ["2024-01-01"]
    descriptor = shape["StorageDescriptor"]
    assert descriptor["Location"] == "s3://b/t/dt=2024-01-01/"
    assert descriptor["SerdeInfo"]["SerializationLibrary"].endswith("ParquetHiveSerDe")
