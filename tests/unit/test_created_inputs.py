"""A table's new partition inputs are made slice by slice, each exactly as made all at once."""

from __future__ import annotations

from gluecat.apply.created_inputs import CreatedInputs
from gluecat.backends.aws import chunks
from gluecat.changes.model import PartitionChanges, PartitionWrite
from gluecat.convert.partitions import created

STORAGE = {"InputFormat": "in", "OutputFormat": "out", "SerdeInfo": {"SerializationLibrary": "serde"}}


def test_each_batch_is_made_as_sliced_and_equals_the_whole_list() -> None:
    writes = tuple(
        PartitionWrite((str(n),), f"s3://t/n={n}/", own={"Parameters": {"p": str(n)}} if n % 3 else None)
        for n in range(250)
    )
    group = PartitionChanges("db", "t", ("n",), STORAGE, creates=writes)
    whole = [created(STORAGE, w.values, w.location, w.own) for w in writes]

    inputs = CreatedInputs(group)
    assert len(inputs) == 250
    assert [item for batch in chunks(inputs, 100) for item in batch] == whole
    assert [len(batch) for batch in chunks(inputs, 100)] == [100, 100, 50]
    assert inputs[7] == whole[7] and inputs[-1] == whole[-1]
    assert inputs[5]["StorageDescriptor"] is not inputs[5]["StorageDescriptor"]  # made anew: never shared
