"""Seconds for a no-change plan of the example sandbox as partitions accumulate in it.

    python bench/sandbox_speed.py                # 0, 1,000 and 10,000 accumulated partitions
    python bench/sandbox_speed.py --sizes 0 30000
    python bench/sandbox_speed.py --small        # CI: seconds, not minutes

Applies the example catalog to a fresh sandbox, then adds partitions to `sales.orders`
the way a Spark job writing new days would (live, not declared in the YAML), and
times `gluecat plan --detailed-exitcode` as a user runs it, one process per plan.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import boto3

from gluecat.sandbox.state import serving_sandbox

EXAMPLE = Path(__file__).resolve().parents[1] / "catalogs" / "example"
BATCH = 100


def gluecat(cwd: Path, *args: str) -> tuple[int, float]:
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "gluecat", *args], cwd=cwd, capture_output=True, text=True, check=False
    )
    seconds = time.perf_counter() - started
    if result.returncode not in (0, 2):
        raise SystemExit(f"gluecat {' '.join(args)} failed:\n{result.stdout}{result.stderr}")
    return result.returncode, seconds


def accumulate(project: Path, total: int) -> None:
    """Bring sales.orders up to `total` partitions beyond the declared ones."""
    with serving_sandbox(project, "us-east-1", port=0) as server:
        glue = boto3.client(
            "glue",
            endpoint_url=server.endpoint_url,
            region_name="us-east-1",
            aws_access_key_id="sandbox",
            aws_secret_access_key="sandbox",
        )
        template = glue.get_partitions(DatabaseName="sales", TableName="orders", MaxResults=1)["Partitions"][0]
        present = sum(
            1
            for page in glue.get_paginator("get_partitions").paginate(DatabaseName="sales", TableName="orders")
            for p in page["Partitions"]
            if p["Values"][0].startswith("acc-")
        )
        inputs = [_partition(template, index) for index in range(present, total)]
        for start in range(0, len(inputs), BATCH):
            glue.batch_create_partition(
                DatabaseName="sales", TableName="orders", PartitionInputList=inputs[start : start + BATCH]
            )


def _partition(template: dict[str, Any], index: int) -> dict[str, Any]:
    value = f"acc-{index:07d}"
    descriptor = dict(template["StorageDescriptor"], Location=f"s3://example-lake/sales/orders/dt={value}/")
    return {"Values": [value], "StorageDescriptor": descriptor, "Parameters": template.get("Parameters", {})}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[0, 1000, 10000])
    parser.add_argument("--small", action="store_true", help="a quick run at a small size (CI)")
    options = parser.parse_args()
    sizes = [0, 200] if options.small else sorted(options.sizes)
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "bench")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "bench")
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "example"
        shutil.copytree(EXAMPLE, project)
        _, seconds = gluecat(project.parent, "apply", "example", "--auto-approve")
        print(f"apply of the example: {seconds:.1f} s")
        for size in sizes:
            accumulate(project, size)
            state_mb = (project / ".gluecat" / "sandbox" / "state.json").stat().st_size / 1e6
            code, seconds = gluecat(project.parent, "plan", "example", "--detailed-exitcode")
            changes = "no changes" if code == 0 else "CHANGES"
            print(f"{size:>7,} accumulated partitions: plan {seconds:5.1f} s ({changes}; state.json {state_mb:.1f} MB)")


if __name__ == "__main__":
    main()
