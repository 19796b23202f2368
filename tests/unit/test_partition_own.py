"""What a partition holds of its own: read from Glue, folded, laid over the table's template."""

from __future__ import annotations

from gluecat.convert.parameters import diffed, is_volatile, managed
from gluecat.convert.partitions import created, own_differs, own_from_glue, own_input, updated
from gluecat.kinds.hive.partition_fold import fold_partitions
from gluecat.model import PartitionEntry

TEMPLATE = {
    "Columns": [{"Name": "a", "Type": "int"}, {"Name": "b", "Type": "string"}],
    "InputFormat": "in",
    "OutputFormat": "out",
    "SerdeInfo": {"SerializationLibrary": "serde", "Parameters": {"x": "1"}},
    "Parameters": {"classification": "csv"},
    "Location": "s3://b/t/",
    "Compressed": False,
}


def test_volatile_and_durable_parameters() -> None:
    live = {"numRows": "3", "sizeKey": "9", "UPDATED_BY_CRAWLER": "c", "classification": "csv",
            "typeOfData": "file", "compressionType": "gzip", "spark.sql.create.version": "3.5.1"}  # fmt: skip
    assert managed(live) == {"classification": "csv", "typeOfData": "file", "compressionType": "gzip",
                             "spark.sql.create.version": "3.5.1"}  # fmt: skip
    assert is_volatile("dq.score", ["dq.*"]) and not is_volatile("classification")
    assert diffed({"spark.sql.sources.schema.part.0": "{}", "k": "v"}) == {"k": "v"}


def test_a_partition_that_copies_its_table_holds_nothing_of_its_own() -> None:
    partition = {"Values": ["1"], "StorageDescriptor": {**TEMPLATE, "Location": "s3://b/t/k=1", "Compressed": None}}
    assert own_from_glue(partition, TEMPLATE) == {}


def test_own_fields_are_read_and_rebuilt_exactly() -> None:
    descriptor = {**TEMPLATE, "Location": "s3://b/t/k=1", "Columns": TEMPLATE["Columns"][:1],
                  "Parameters": {"classification": "json", "sizeKey": "1"}, "NumberOfBuckets": -1}  # fmt: skip
    partition = {"Values": ["1"], "Parameters": {"p": "1", "numRows": "2"}, "StorageDescriptor": descriptor}
    own = own_from_glue(partition, {**TEMPLATE, "NumberOfBuckets": 4})
    assert own == {
        "parameters": {"p": "1"},
        "storage_parameters": {"classification": "json"},
        "extra": {"StorageDescriptor": {"Columns": [{"Name": "a", "Type": "int"}], "NumberOfBuckets": -1}},
    }
    entry = PartitionEntry.model_validate({"values": {"k": "1"}, **own})
    template = {k: v for k, v in {**TEMPLATE, "NumberOfBuckets": 4}.items() if k != "Location"}
    shape = created(template, ["1"], "s3://b/t/k=1", own_input(entry))
    assert shape["Parameters"] == {"p": "1"}
    assert shape["StorageDescriptor"]["Location"] == "s3://b/t/k=1"  # no slash added
    assert shape["StorageDescriptor"]["Columns"] == [{"Name": "a", "Type": "int"}]
    assert shape["StorageDescriptor"]["Parameters"] == {"classification": "json"}
    assert not own_differs(own_input(entry), partition)


def test_an_update_keeps_what_the_live_partition_holds_beyond_the_yaml() -> None:
    live = {"Values": ["1"], "Parameters": {"numRows": "2", "p": "0"},
            "StorageDescriptor": {**TEMPLATE, "Parameters": {"sizeKey": "1"}}}  # fmt: skip
    own = own_input(PartitionEntry.model_validate({"values": {"k": "1"}, "parameters": {"p": "1"},
                                                   "storage_parameters": {"classification": "json"}}))  # fmt: skip
    assert own_differs(own, live)
    shape = updated(live, own, "s3://b/t/k=1/")
    assert shape["Parameters"] == {"numRows": "2", "p": "1"}
    assert shape["StorageDescriptor"]["Parameters"] == {"sizeKey": "1", "classification": "json"}


def test_partitions_holding_the_same_fold_together_and_custom_locations_stay_exact() -> None:
    crawled = {"parameters": {"classification": "csv"}}
    partitions = [((f"2024-01-0{day}",), f"s3://b/t/dt=2024-01-0{day}/", crawled) for day in (1, 2, 3)]
    partitions.append((("2024-01-04",), "s3://b/t/dt=2024-01-04", {}))
    items = fold_partitions(["dt"], partitions, "s3://b/t")
    assert items == [
        {"expand": {"dt": {"from": "2024-01-01", "to": "2024-01-03"}}, "parameters": {"classification": "csv"}},
        {"values": {"dt": "2024-01-04"}, "location": "s3://b/t/dt=2024-01-04"},
    ]
