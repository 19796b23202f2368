"""CPU and memory of `gluecat validate` against bare libyaml parsing of the same files.

    python bench/load_speed.py 10000                  # 10,000 small table files
    python bench/load_speed.py 200 --partitions 50000  # plus one table of explicit partitions

Each measurement runs in a fresh process; CPU is user + system time of that
process alone, peak RSS its high-water mark. Prints the figures and the ratio.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

TABLE = """\
description: Table {index}, generated for the load benchmark
storage: parquet
location: s3://bench/db{db}/t{index}
columns:
  - name: id
    type: bigint
    comment: Primary key
  - name: amount
    type: decimal(12,2)
  - name: items
    type: array<struct<sku:string,qty:int>>
  - name: created
    type: timestamp
partition_keys:
  - name: dt
    type: string
partitions:
  - expand:
      dt: {{from: 2024-01-01, to: 2024-01-31}}
parameters:
  classification: parquet
"""

BARE_PARSE = """
import sys, yaml
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as handle:
        yaml.load(handle.read(), Loader=yaml.CSafeLoader)
"""

FILES_PER_DATABASE = 1000


def build(root: Path, tables: int, partitions: int) -> list[Path]:
    (root / "catalog.yaml").write_text("region: us-east-1\n")
    files = []
    for index in range(tables):
        db = index // FILES_PER_DATABASE
        directory = root / f"db{db}"
        if not directory.exists():
            (directory / "tables").mkdir(parents=True)
            (directory / "database.yaml").write_text(f"location: s3://bench/db{db}/\n")
        path = directory / "tables" / f"t{index:06d}.yaml"
        path.write_text(TABLE.format(index=index, db=db))
        files.append(path)
    if partitions:
        path = root / "db0" / "tables" / "many.yaml"
        entries = "".join(f"  - values: {{n: '{n}'}}\n" for n in range(partitions))
        path.write_text(
            "storage: parquet\nlocation: s3://bench/db0/many\npartition_keys: [{name: n, type: string}]\n"
            f"partitions:\n{entries}"
        )
        files.append(path)
    return files


def measure(command: list[str]) -> tuple[float, float, int]:
    """CPU seconds, peak RSS in MB, and exit code of one child process."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(_repo())})
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, process.returncode


def _repo() -> Path:
    return Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tables", type=int, nargs="?", default=200)
    parser.add_argument("--partitions", type=int, default=0, help="explicit partition entries in one extra table")
    parser.add_argument("--small", action="store_true", help="a quick run at a small size (CI)")
    args = parser.parse_args()
    if args.small:
        args.tables, args.partitions = 50, 500
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        files = build(root, args.tables, args.partitions)
        validate_cpu, validate_rss, code = measure([sys.executable, "-m", "gluecat", "validate", str(root)])
        if code != 0:
            raise SystemExit(f"validate failed with exit code {code}")
        bare_cpu, bare_rss, _ = measure([sys.executable, "-c", BARE_PARSE, *map(str, files)])
    print(f"files:                 {len(files)} (+ {args.partitions} explicit partitions)")
    print(f"validate CPU:          {validate_cpu:.2f} s, peak RSS {validate_rss:.0f} MB")
    print(f"bare libyaml parse CPU: {bare_cpu:.2f} s, peak RSS {bare_rss:.0f} MB")
    print(f"ratio:                 {validate_cpu / bare_cpu:.2f}x")


if __name__ == "__main__":
    main()
