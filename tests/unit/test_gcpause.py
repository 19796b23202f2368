"""The collector is paused while large acyclic data is built, and does not walk it again after."""

from __future__ import annotations

import gc

from gluecat.project.gcpause import paused_gc


def test_no_collection_inside_and_what_was_built_is_out_of_the_collectors_sight_after() -> None:
    assert gc.isenabled()
    with paused_gc():
        assert not gc.isenabled()
        built = [{"Values": [str(n)], "StorageDescriptor": {"Location": f"s3://t/n={n}/"}} for n in range(1000)]
    assert gc.isenabled()
    tracked = {id(o) for generation in range(3) for o in gc.get_objects(generation)}
    assert not any(id(partition) in tracked for partition in built)
    assert gc.get_freeze_count() >= len(built)


def test_a_disabled_collector_stays_disabled() -> None:
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
