"""What masking secrets costs a large plan: the masked copy every rendered format shows.

    python bench/redact_cost.py                      # 100,000 partitions to create, 10,000 to move
    python bench/redact_cost.py --small              # seconds, for CI

Prints the time to render the plan as JSON without masking, the time to mask it,
and the time to write it as a saved plan (digest and 0600 file included).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from gluecat.changes.model import PartitionChanges, PartitionWrite, Plan
from gluecat.plan import saved, serialize
from gluecat.secrets import redact

ROOT = "s3://lake/sales/orders"


def _plan(creates: int, updates: int) -> Plan:
    def live(i: int) -> dict[str, object]:
        return {
            "Values": [str(i)],
            "Parameters": {"jdbc.password": "hunter22", "owner": "etl"},
            "StorageDescriptor": {"Location": f"{ROOT}/old/{i}/", "SerdeInfo": {"Parameters": {"a": "b"}}},
        }

    group = PartitionChanges(
        database="sales",
        table="orders",
        keys=("n",),
        storage={"SerdeInfo": {"Parameters": {"sas.token": "t0ken"}}},
        creates=tuple(PartitionWrite((str(i),), f"{ROOT}/n={i}/") for i in range(creates)),
        updates=tuple(PartitionWrite((str(i),), f"{ROOT}/n={i}/", f"{ROOT}/old/{i}/", live(i)) for i in range(updates)),
    )
    return Plan("catalogs/bench", (), (group,))


def _timed(label: str, work: object) -> float:
    start = time.perf_counter()
    work()  # type: ignore[operator]
    seconds = time.perf_counter() - start
    print(f"{label:<44} {seconds:8.3f} s")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--creates", type=int, default=100_000)
    parser.add_argument("--updates", type=int, default=10_000)
    parser.add_argument("--small", action="store_true", help="1,000 creates and 100 moves")
    args = parser.parse_args()
    creates, updates = (1_000, 100) if args.small else (args.creates, args.updates)
    plan = _plan(creates, updates)
    redact.remember("an-environment-secret")
    print(f"plan: {creates:,} partitions to create, {updates:,} to move (with live parameters)")
    plain = _timed("JSON text, unmasked", lambda: json.dumps(serialize.to_json(plan)))
    masking = _timed("masked copy (serialize.masked)", lambda: serialize.masked(plan))
    with tempfile.TemporaryDirectory() as directory:
        binding = saved.Binding(directory, "123456789012", "us-east-1", "aws")
        _timed(
            "saved plan (digest, 0600, atomic rename)", lambda: saved.write(Path(directory) / "p.json", plan, binding)
        )
    print(f"masking adds {100 * masking / plain:.0f}% to rendering the JSON plan")


if __name__ == "__main__":
    main()
