"""The local Glue freezes what survives any collection (its stored catalog), so later
collections walk only what arrived since; garbage made after is still collected."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import gc
from gluecat.sandbox import collector
collector.freeze_what_survives()
stored = [{"Values": [str(n)], "StorageDescriptor": {"Location": f"s3://t/n={n}/"}} for n in range(2000)]
gc.collect(0)  # the young generation's collection: what survives it is the server's to keep
tracked = {id(o) for generation in range(3) for o in gc.get_objects(generation)}
print(sum(id(item) in tracked for item in stored))

class Cycle:
    pass
garbage = Cycle(); garbage.me = garbage
probe = __import__("weakref").ref(garbage)
del garbage
gc.collect(0)
print(probe() is None)
print(gc.get_threshold()[0] == collector.YOUNG_THRESHOLD)
"""


def test_what_survives_any_collection_is_frozen_and_later_garbage_is_still_collected() -> None:
    shown = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True).stdout.split()
    assert shown == ["0", "True", "True"]
