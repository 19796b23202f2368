"""validate, a no-change plan and import of a large catalog: gluecat's CPU and memory, against yardsticks.

    python bench/catalog_scale.py --tables 10000 --no-plan          # validate of 10,000 table files
    python bench/catalog_scale.py --tables 1 --partitions 1000000 --no-plan
    python bench/catalog_scale.py --tables 300 --partitions 100000  # plus plan and import, 100,000 live partitions

The catalog is `--tables` table files plus one table whose `--partitions` come
from one generator. Every gluecat command runs in a fresh process; its CPU
(user + system) and peak RSS are its own. The yardstick for validate is the
bare libyaml parse of the same files in a fresh Python. For the plan, the
catalog is first applied to the strict local Glue; the emulator's CPU during
the plan is printed apart, since real Glue spends its own, not ours. The plan,
import and their floors run `--runs` times each, in turn, and the figures are
medians: one run moves with the machine's load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

TABLE = """\
description: Table {index}, generated for the scale benchmark
storage: parquet
location: s3://bench/db{db}/t{index}
columns:
  - {{name: id, type: bigint, comment: Primary key}}
  - {{name: amount, type: "decimal(12,2)"}}
  - {{name: items, type: "array<struct<sku:string,qty:int>>"}}
  - {{name: created, type: timestamp}}
parameters:
  classification: parquet
"""
PARTITIONED = """\
storage: parquet
location: s3://bench/db0/events
columns: [{{name: id, type: bigint}}]
partition_keys: [{{name: dt, type: string}}, {{name: n, type: int}}]
partitions:
  - expand:
      dt: {{from: 2000-01-01, to: 2099-12-31}}
      n: {{from: 0, to: {last}}}
"""
DAYS = 36525  # 2000-01-01 .. 2099-12-31, the `dt` axis above
BARE_PARSE = """
import sys, yaml
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as handle:
        yaml.load(handle.read(), Loader=yaml.CSafeLoader)
"""
# The plan's floor, second half: json.loads of the very Glue answers a plan reads (saved by `capture`).
BARE_JSON = """
import json, sys
with open(sys.argv[1], "rb") as handle:
    data = handle.read()
start = 0
while start < len(data):
    size = int.from_bytes(data[start : start + 8], "big")
    json.loads(data[start + 8 : start + 8 + size])
    start += 8 + size
"""
# Import's floor: json.loads of the Glue answers import reads (partitions with their columns), and
# one YAML file written with libyaml for each table those answers hold.
BARE_IMPORT = """
import json, os, sys, yaml
with open(sys.argv[1], "rb") as handle:
    data = handle.read()
out = sys.argv[2]
start = 0
while start < len(data):
    size = int.from_bytes(data[start : start + 8], "big")
    answer = json.loads(data[start + 8 : start + 8 + size])
    start += 8 + size
    for table in answer.get("TableList", []):
        with open(os.path.join(out, table["DatabaseName"] + "." + table["Name"] + ".yaml"), "w") as handle:
            handle.write(yaml.dump(table, Dumper=yaml.CSafeDumper, sort_keys=False))
"""
FILES_PER_DATABASE = 1000
SEGMENTS = 10


def build(root: Path, tables: int, partitions: int, endpoint: str | None) -> list[Path]:
    connection = f"endpoint_url: {endpoint}\n" if endpoint else ""
    (root / "catalog.yaml").write_text(f"region: us-east-1\n{connection}")
    files = []
    for index in range(tables):
        files.append(
            _write(
                root,
                index // FILES_PER_DATABASE,
                f"t{index:06d}",
                TABLE.format(index=index, db=index // FILES_PER_DATABASE),
            )
        )
    if partitions:
        files.append(_write(root, 0, "events", _partitioned(partitions)))
    return files


def _partitioned(partitions: int) -> str:
    """One generator: `n` per day; the date range is cut to the days needed."""
    per_day = min(partitions, 100)
    text = PARTITIONED.format(last=per_day - 1)
    days = -(-partitions // per_day)
    if days > DAYS:
        raise SystemExit(f"at most {DAYS * 100:,} partitions")
    end = _day(days - 1)
    return text.replace("to: 2099-12-31", f"to: {end}")


def _day(offset: int) -> str:
    from datetime import date, timedelta

    return (date(2000, 1, 1) + timedelta(days=offset)).isoformat()


def _write(root: Path, db: int, name: str, text: str) -> Path:
    directory = root / f"db{db}"
    if not directory.exists():
        (directory / "tables").mkdir(parents=True)
        (directory / "database.yaml").write_text(f"location: s3://bench/db{db}/\n")
    path = directory / "tables" / f"{name}.yaml"
    path.write_text(text)
    return path


def measure(command: list[str]) -> tuple[float, float, float, int]:
    """CPU seconds, peak RSS in MB, wall seconds and exit code of one child process."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_env())
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    if code not in (0,):
        assert process.stderr is not None
        raise SystemExit(f"{' '.join(command[2:4])} failed ({code}): {process.stderr.read().decode()[-2000:]}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, wall, code


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of a running process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _env() -> dict[str, str]:
    repo = str(Path(__file__).resolve().parents[1])
    paths = [repo, os.environ.get("PYTHONPATH", "")]
    # Bytecode cached as an installed package has it: without, every run would compile gluecat anew.
    inherited = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**inherited, "PYTHONPATH": os.pathsep.join(p for p in paths if p), "GLUECAT_READ_TIMEOUT": "600"}


def gluecat(*args: str) -> list[str]:
    return [sys.executable, "-m", "gluecat", *args]


def report_validate(root: Path, files: list[Path], partitions: int) -> None:
    cpu, rss, _, _ = measure(gluecat("validate", str(root)))
    bare_cpu, bare_rss, _, _ = measure([sys.executable, "-c", BARE_PARSE, *map(str, files)])
    print(f"catalog:                {len(files):,} table files, one with {partitions:,} generated partitions")
    print(f"validate:               {cpu:6.2f} s CPU, peak RSS {rss:4.0f} MB")
    print(f"bare libyaml parse:     {bare_cpu:6.2f} s CPU, peak RSS {bare_rss:4.0f} MB (the yardstick)")
    print(f"ratio:                  {cpu / bare_cpu:6.2f}x")


def report_plan(root: Path, tables: int, partitions: int, runs: int) -> None:
    """Each figure is the median of `runs` runs, gluecat's and its floor's taken in turn (one run of
    either moves with the machine's load)."""
    from gluecat.sandbox.server import LocalGlue

    os.environ.setdefault("AWS_ACCESS_KEY_ID", "bench")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "bench")
    with LocalGlue() as server:
        build(root, tables, partitions, server.endpoint_url)
        apply_cpu, apply_rss, apply_wall, _ = measure(gluecat("apply", str(root), "--auto-approve"))
        print(f"apply (setup):          {apply_cpu:6.2f} s CPU, peak RSS {apply_rss:4.0f} MB, {apply_wall:.1f} s wall")
        pages = capture(server.endpoint_url, root / "pages.bin")
        capture(server.endpoint_url, root / "import-pages.bin", columns=True)
        files = sorted(root.glob("*/tables/*.yaml"))
        plans, imports, floors, import_floors, emulators = [], [], [], [], []
        for run in range(runs):
            emulator_before = process_cpu(server.pid)
            plans.append(measure(gluecat("plan", str(root), "--detailed-exitcode")))
            emulators.append(process_cpu(server.pid) - emulator_before)
            yaml_cpu = measure([sys.executable, "-c", BARE_PARSE, *map(str, files)])[0]
            json_cpu = measure([sys.executable, "-c", BARE_JSON, str(root / "pages.bin")])[0]
            floors.append((yaml_cpu + json_cpu, yaml_cpu, json_cpu))
            imported = root.parent / f"imported-{run}"  # a new project each time: every file written
            imported.mkdir()
            (imported / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
            imports.append(measure(gluecat("import", str(imported), "--partitions")))
            floor_out = root.parent / f"floor-import-{run}"
            floor_out.mkdir()
            bare_import = [sys.executable, "-c", BARE_IMPORT, str(root / "import-pages.bin"), str(floor_out)]
            import_floors.append(measure(bare_import)[0])
        clean = subprocess.run(gluecat("plan", str(imported), "--detailed-exitcode"), env=_env(), capture_output=True)
    cpu, rss, wall = (statistics.median(run[i] for run in plans) for i in range(3))
    floor, yaml_cpu, json_cpu = (statistics.median(f[i] for f in floors) for i in range(3))
    import_cpu, import_rss, import_wall = (statistics.median(run[i] for run in imports) for i in range(3))
    import_floor = statistics.median(import_floors)
    print(f"runs:                   {runs} of each command and floor, in turn; the figures are their medians")
    print(f"no-change plan:         {cpu:6.2f} s CPU, peak RSS {rss:4.0f} MB (gluecat alone), {wall:.1f} s wall")
    print(f"  each run:             {_each(run[0] for run in plans)}")
    emulator = statistics.median(emulators)
    print(f"  emulator during plan: {emulator:6.2f} s CPU (the local Glue's own work, not gluecat's)")
    print(
        f"floor:                  {floor:6.2f} s CPU (libyaml parse {yaml_cpu:.2f} s"
        f" + json.loads of {pages:,} Glue pages {json_cpu:.2f} s)"
    )
    print(f"  each run:             {_each(f[0] for f in floors)}")
    print(f"ratio:                  {cpu / floor:6.2f}x the floor")
    print(f"import --partitions:    {import_cpu:6.2f} s CPU, peak RSS {import_rss:4.0f} MB, {import_wall:.1f} s wall")
    print(f"  each run:             {_each(run[0] for run in imports)}")
    print(f"import floor:           {import_floor:6.2f} s CPU (json.loads of its pages + libyaml dump of each table)")
    print(f"  each run:             {_each(import_floors)}")
    print(f"ratio:                  {import_cpu / import_floor:6.2f}x the floor")
    print(f"imported project plans clean: {'yes' if clean.returncode == 0 else 'NO: ' + clean.stdout.decode()[-500:]}")


def _each(figures: Iterable[float]) -> str:
    return ", ".join(f"{figure:.2f} s" for figure in figures)


def capture(endpoint: str, path: Path, columns: bool = False) -> int:
    """Save the bodies of the Glue answers a no-change plan reads (every database, table and
    partition page, partitions without their column lists as the plan asks; with them, as import
    asks: `columns`), for the floor."""
    import boto3
    from botocore.config import Config

    bodies: list[bytes] = []
    config = Config(read_timeout=600, retries={"mode": "standard"})
    glue = boto3.client("glue", endpoint_url=endpoint, region_name="us-east-1", config=config)
    glue.meta.events.register("before-parse.glue.*", lambda response_dict, **_: bodies.append(response_dict["body"]))
    databases = [d["Name"] for page in glue.get_paginator("get_databases").paginate() for d in page["DatabaseList"]]
    for database in databases:
        for page in glue.get_paginator("get_tables").paginate(DatabaseName=database):
            for table in page["TableList"]:
                if table.get("PartitionKeys"):
                    pager = glue.get_paginator("get_partitions")
                    exclude = {} if columns else {"ExcludeColumnSchema": True}
                    for number in range(SEGMENTS):  # as gluecat reads a large table (same pages, same JSON)
                        segment = {"Segment": {"SegmentNumber": number, "TotalSegments": SEGMENTS}}
                        for _ in pager.paginate(DatabaseName=database, TableName=table["Name"], **exclude, **segment):
                            pass
    with path.open("wb") as handle:
        for body in bodies:
            handle.write(len(body).to_bytes(8, "big") + body)
    return len(bodies)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--partitions", type=int, default=10000, help="generated partitions of one extra table")
    parser.add_argument("--no-plan", action="store_true", help="validate only (no local Glue)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each plan, import and floor (medians)")
    parser.add_argument("--small", action="store_true", help="a quick run at a small size (CI)")
    options = parser.parse_args()
    if options.small:
        options.tables, options.partitions, options.runs = 30, 300, 1
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "catalog"  # beside it: the imported project and the import floor's files
        root.mkdir()
        files = build(root, options.tables, options.partitions, None)
        report_validate(root, files, options.partitions)
        if not options.no_plan:
            report_plan(root, options.tables, options.partitions, options.runs)


if __name__ == "__main__":
    main()
