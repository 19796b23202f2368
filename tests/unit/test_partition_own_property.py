"""What import reads of a partition's own rebuilds it: the table's descriptor with the partition's own
fields laid over holds what the live partition holds, for generated tables and drifted partitions."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gluecat.convert.parameters import managed
from gluecat.convert.partitions import _normal, created, own_from_glue, own_input
from gluecat.model import PartitionEntry

FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "Columns": st.lists(
        st.fixed_dictionaries({"Name": st.sampled_from(["id", "dt", "v"]), "Type": st.sampled_from(["int", "string"])}),
        max_size=3,
    ),
    "InputFormat": st.sampled_from(["", "in.A", "in.B"]),
    "OutputFormat": st.sampled_from(["out.A", "out.B"]),
    "Compressed": st.booleans(),
    "NumberOfBuckets": st.sampled_from([-1, 0, 4]),
    "SerdeInfo": st.fixed_dictionaries(
        {"SerializationLibrary": st.sampled_from(["serde.A", "serde.B"])},
        optional={"Parameters": st.dictionaries(st.sampled_from(["field.delim", "x"]), st.sampled_from([",", "1"]))},
    ),
    "StoredAsSubDirectories": st.booleans(),
    "Parameters": st.dictionaries(
        st.sampled_from(["classification", "compressionType", "numRows", "sizeKey"]), st.sampled_from(["csv", "1"])
    ),
}
descriptors = st.fixed_dictionaries({}, optional=FIELDS)


@st.composite
def table_and_partition(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    template = {**draw(descriptors), "Location": "s3://lake/t"}
    descriptor = {**template, "Location": "s3://lake/t/k=1/"}
    for key in draw(st.lists(st.sampled_from(sorted(FIELDS)), max_size=3, unique=True)):  # drifted fields
        if key in descriptor and draw(st.booleans()):
            del descriptor[key]
        else:
            descriptor[key] = draw(FIELDS[key])
    partition: dict[str, Any] = {"Values": ["1"], "StorageDescriptor": descriptor}
    parameters = draw(st.dictionaries(st.sampled_from(["p", "numRows", "owner"]), st.sampled_from(["a", "2"])))
    if parameters:
        partition["Parameters"] = parameters
    return template, partition


@settings(max_examples=400, deadline=None)
@given(table_and_partition())
def test_a_partition_is_rebuilt_from_its_table_and_what_import_reads_of_its_own(
    case: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    template, partition = case
    own = own_from_glue(partition, template)
    entry = PartitionEntry.model_validate({"values": {"k": "1"}, **own})
    storage = {key: value for key, value in template.items() if key != "Location"}
    rebuilt = created(storage, ["1"], "s3://lake/t/k=1/", own_input(entry))

    live = partition["StorageDescriptor"]
    for key in (set(live) | set(rebuilt["StorageDescriptor"])) - {"Parameters"}:
        assert _normal(key, rebuilt["StorageDescriptor"].get(key)) == _normal(key, live.get(key)), key
    assert managed(rebuilt["StorageDescriptor"].get("Parameters") or {}) == managed(live.get("Parameters") or {})
    assert managed(rebuilt.get("Parameters") or {}) == managed(partition.get("Parameters") or {})
