"""Declared partitions answer membership without expanding; live pages fold into what the diff needs."""

from __future__ import annotations

from typing import Any

from gluecat.changes.fingerprint import fingerprint
from gluecat.convert.locations import PartitionPaths
from gluecat.kinds.hive.live_partitions import DeclaredPartitions, LivePartitions
from gluecat.model import HiveTable
from gluecat.model.partitions import expand_partitions

TABLE = "s3://lake/events"


def _declared() -> DeclaredPartitions:
    model = HiveTable.model_validate(
        {
            "name": "events",
            "storage": "parquet",
            "partition_keys": [{"name": "dt", "type": "string"}, {"name": "n", "type": "int"}],
            "partitions": [
                {
                    "expand": {
                        "dt": {"from": "2024-01", "to": "2024-06", "every": "month"},
                        "n": {"from": 3, "to": 21, "step": 6, "width": 3},
                    }
                },
                {"expand": {"dt": ["x", "y"], "n": [1, 2]}},
                {"values": {"dt": "z", "n": "1"}, "location": "s3://elsewhere/z/"},
                {"values": {"dt": "z", "n": "2"}},
            ],
        }
    )
    assert model.partitions is not None
    return DeclaredPartitions(model.partitions, ("dt", "n"), TABLE)


def test_every_expanded_partition_is_declared_where_the_expansion_puts_it() -> None:
    declared = _declared()
    expanded = [(values, declared.location(values, explicit)) for values, explicit, _ in declared]
    assert len(expanded) == 6 * 4 + 4 + 2
    assert expanded[0] == (("2024-01", "003"), f"{TABLE}/dt=2024-01/n=003/")
    assert (("z", "1"), "s3://elsewhere/z/") in expanded
    for values, location in expanded:
        assert declared.wanted(values) == (location, None)


OFF_GRID = [
    ("2024-01", "3"),  # not zero-padded as the generator writes it
    ("2024-01", "004"),  # off the step
    ("2024-01", "027"),  # past the end
    ("2024-01", "+03"),
    ("2024-07", "003"),  # past the date range
    ("2024-01-01", "003"),  # another spelling of the date
    ("x", "3"),
    ("z", "3"),
    ("2024-01",),  # too few values
    ("x", "003"),  # each value on an axis, but of different generators
    ("2024-01", "1"),
]


def test_values_off_the_generators_grid_are_not_declared() -> None:
    declared = _declared()
    for values in OFF_GRID:
        assert declared.wanted(values) is None, values


def test_values_remembered_from_earlier_partitions_do_not_declare_other_combinations(monkeypatch: Any) -> None:
    """Each value found on an axis is remembered (its path segment kept); what is remembered,
    including after a key's memory starts over, never widens what a generator declares."""
    monkeypatch.setattr(PartitionPaths, "MAX_REMEMBERED", 3)
    declared = _declared()
    expanded = [(values, declared.location(values, explicit)) for values, explicit, _ in declared]
    for _ in range(2):
        for values, location in expanded:
            assert declared.wanted(values) == (location, None)
        for values in OFF_GRID:
            assert declared.wanted(values) is None, values


def test_the_same_partitions_as_expand_partitions() -> None:
    declared = _declared()
    assert [v for v, _, _ in declared] == [v for v, _ in expand_partitions(list(declared.items), ["dt", "n"])]


def _partition(dt: str, n: str, location: str, columns: bool = True) -> dict[str, object]:
    descriptor: dict[str, object] = {"Location": location}
    if columns:
        descriptor["Columns"] = [{"Name": "id", "Type": "bigint"}]
    return {"Values": [dt, n], "StorageDescriptor": descriptor, "Parameters": {"k": "v"}, "CreationTime": 1}


def test_pages_leave_values_behind_and_keep_what_changes_need() -> None:
    live = LivePartitions(_declared(), None, prune=True)
    assert live.columns is False
    live.add([_partition("2024-01", "003", f"{TABLE}/dt=2024-01/n=003/", columns=False)])
    live.add([_partition("x", "1", "s3://moved/x/", columns=False), _partition("q", "1", "s3://q/", columns=False)])

    assert live.total == 3
    assert live.seen == {("2024-01", "003"), ("x", "1")}
    assert list(live.moved) == [("x", "1")]
    assert live.undeclared == {("q", "1"): None}
    assert sorted(live.incomplete()) == [("q", "1"), ("x", "1")]

    whole = [_partition("x", "1", "s3://moved/x/"), _partition("q", "1", "s3://q/")]
    live.complete(whole)
    assert live.moved[("x", "1")].shape["StorageDescriptor"]["Columns"] == [{"Name": "id", "Type": "bigint"}]
    assert "CreationTime" not in live.moved[("x", "1")].shape  # only what PartitionInput carries
    assert live.undeclared[("q", "1")] == fingerprint({k: v for k, v in whole[1].items() if k != "CreationTime"})
    assert live.drift() is None


def test_without_prune_undeclared_partitions_leave_nothing_behind() -> None:
    live = LivePartitions(_declared(), None)
    live.add([_partition("q", "1", "s3://q/", columns=False)])
    assert live.total == 1
    assert live.undeclared == {} and live.incomplete() == []
