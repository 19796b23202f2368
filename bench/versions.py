"""Two versions of gluecat, paired: an earlier commit's CPU and memory against this checkout's.

    python bench/versions.py --against 74c3be6   # 10,000 tables + 1,000,000 partitions, 1,500 files, 20,000
    python bench/versions.py --against 74c3be6 --tables 2000 --partitions 200000 --runs 3
    python bench/versions.py --small             # CI: a tiny size, in seconds

`--against` (a commit or branch of this repository) is checked out into a temporary
git worktree, removed at the end. Both versions run from the same interpreter, their
gluecat package chosen by PYTHONPATH, and talk to one strict local Glue started from
this checkout, so only gluecat's own work differs. Three workloads, each command in a
fresh process, its CPU (user + system) and peak RSS its own:

- a no-change `plan --detailed-exitcode` of `--tables` tables plus one table of
  `--partitions` partitions (catalog_scale.py's catalog), applied once beforehand by
  this checkout; each side's plan must find nothing to change, or the bench stops;
- `validate` of `--files` table files (catalog_scale.py's);
- `apply` of `--apply-partitions` partitions (apply_peer.py's table) to a new
  database and table each run, `--latency-ms` added to every Glue call; each table's
  partitions are counted afterwards.

The sides run in pairs, the earlier version first (A B A B ...), `--runs` pairs per
workload, and the figures are medians: one run moves with the machine's load. Prints
each side's median CPU seconds and peak RSS, the difference in %, and whether this
checkout stays within 5% of the earlier version everywhere. It asserts nothing.
"""

from __future__ import annotations

import argparse
import compileall
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import apply_peer
import catalog_scale
import sandbox_memory

from gluecat.sandbox.server import LocalGlue

REPO = Path(__file__).resolve().parents[1]
BASELINE = "74c3be6"  # the version before the restructuring: the note's figures are paired against it
TOLERANCE = 5.0  # percent
# The flags the workloads pass, each checked in the earlier version's --help before anything runs.
FLAGS = {"plan": "--detailed-exitcode", "apply": "--auto-approve", "validate": "--help"}


@dataclass
class Side:
    key: str  # "a" or "b": names its apply databases
    label: str
    source: Path  # the directory holding its gluecat package
    figures: dict[str, list[Run]] = field(default_factory=dict)  # each workload's runs
    emulator: list[float] = field(default_factory=list)  # the local Glue's CPU during each of its plans

    def env(self) -> dict[str, str]:
        # Bytecode cached as an installed package has it: without, every run would compile gluecat anew.
        inherited = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
        paths = [str(self.source), os.environ.get("PYTHONPATH", "")]
        return {
            **inherited,
            "PYTHONPATH": os.pathsep.join(p for p in paths if p),
            "GLUECAT_READ_TIMEOUT": "600",
            "AWS_DEFAULT_REGION": "us-east-1",
            "COLUMNS": "200",  # --help's flags unwrapped
        }


@dataclass
class Run:
    cpu: float
    rss: float
    wall: float
    code: int
    output: str


def measure(side: Side, args: list[str], work: Path) -> Run:
    """One gluecat command of `side` in a fresh process: its CPU, peak RSS, wall, exit code, output."""
    log = work / "command.log"
    started = time.perf_counter()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # a long run's progress, line by line
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "gluecat", *args], stdout=out, stderr=subprocess.STDOUT, env=side.env(), cwd=work
        )  # cwd: neither checkout, so `-m` finds gluecat on PYTHONPATH alone
        _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    output = log.read_text(errors="replace")
    return Run(usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, wall, os.waitstatus_to_exitcode(status), output)


def must(side: Side, args: list[str], work: Path, what: str) -> Run:
    run = measure(side, args, work)
    if run.code != 0:
        raise SystemExit(f"{what} by {side.label} failed (exit {run.code}):\n{run.output[-3000:]}")
    return run


def preflight(side: Side, work: Path) -> None:
    """The package PYTHONPATH picks is the side's own, and the flags the workloads pass exist in it."""
    check = subprocess.run(
        [sys.executable, "-c", "import gluecat; print(gluecat.__file__)"],
        env=side.env(), cwd=work, capture_output=True, text=True, check=True,
    )  # fmt: skip
    found = Path(check.stdout.strip()).resolve().parent.parent
    if found != side.source.resolve():
        raise SystemExit(f"{side.label}: gluecat was imported from {found}, not {side.source}")
    for command, flag in FLAGS.items():
        shown = must(side, [command, "--help"], work, f"{command} --help").output
        if flag not in shown:
            raise SystemExit(f"{side.label}: `gluecat {command}` has no {flag}")
    # Compiled once, before any measured run, as an installed package would be.
    compileall.compile_dir(side.source / "gluecat", quiet=1)


@contextmanager
def checkout(ref: str, tmp: Path) -> Iterator[Path]:
    """`ref` in a temporary git worktree of this repository, removed afterwards."""
    commit = _git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", check=False)
    if not commit:
        raise SystemExit(f"--against {ref}: no such commit or branch in this repository")
    path = tmp / "against"
    _git("worktree", "add", "--detach", "--quiet", str(path), commit)
    try:
        yield path
    finally:
        _git("worktree", "remove", "--force", str(path), check=False)


def _git(*args: str, check: bool = True) -> str:
    done = subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True, check=False)
    if check and done.returncode != 0:
        raise SystemExit(f"git {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout.strip() if done.returncode == 0 else ""


def plan_pairs(sides: tuple[Side, Side], root: Path, server: LocalGlue, runs: int, work: Path) -> None:
    for _ in range(runs):
        for side in sides:
            before = catalog_scale.process_cpu(server.pid)
            run = measure(side, ["plan", str(root), "--detailed-exitcode"], work)
            side.emulator.append(catalog_scale.process_cpu(server.pid) - before)
            if run.code != 0:
                found = "found changes" if run.code == 2 else "failed"
                raise SystemExit(f"the no-change plan by {side.label} {found} (exit {run.code}):\n{run.output[-3000:]}")
            side.figures.setdefault("plan", []).append(run)


def validate_pairs(sides: tuple[Side, Side], root: Path, runs: int, work: Path) -> None:
    for _ in range(runs):
        for side in sides:
            run = must(side, ["validate", str(root)], work, "validate")
            side.figures.setdefault("validate", []).append(run)


def apply_pairs(sides: tuple[Side, Side], tmp: Path, server: LocalGlue, options: argparse.Namespace) -> int:
    """Each run of each side applies a new database holding a new table of its partitions."""
    days = max(1, options.apply_partitions // apply_peer.PER_DAY)
    generated = apply_peer.GENERATED.format(last_day=apply_peer._day(days - 1), last_n=apply_peer.PER_DAY - 1)
    databases = []
    server.configure(latency_ms=options.latency_ms)
    for number in range(options.runs):
        for side in sides:
            database = f"apply_{side.key}{number}"
            root = tmp / database
            root.mkdir()
            (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
            apply_peer._write_database(root, database, apply_peer.TABLE.format(database=database) + generated)
            run = must(side, ["apply", str(root), "--auto-approve"], tmp, "apply")
            side.figures.setdefault("apply", []).append(run)
            databases.append(database)
    server.configure(latency_ms=0)
    import boto3

    glue = boto3.client("glue", endpoint_url=server.endpoint_url, region_name="us-east-1")
    total = days * apply_peer.PER_DAY
    for database in databases:
        if apply_peer._count(glue, database) != (total, total):
            raise SystemExit(f"{database}.events holds {apply_peer._count(glue, database)} partitions, not {total:,}")
    return total


def difference(a: float, b: float) -> float:
    return (b - a) / a * 100 if a else 0.0


def report(sides: tuple[Side, Side], titles: dict[str, str]) -> bool:
    a, b = sides
    print(f"{'':34}{'A ' + a.label:>22}{'B ' + b.label:>22}{'B against A':>14}")
    within = []
    for workload, title in titles.items():
        for index, (name, unit) in enumerate((("CPU", "s"), ("peak RSS", "MB"))):
            medians = [statistics.median((run.cpu, run.rss)[index] for run in side.figures[workload]) for side in sides]
            change = difference(*medians)
            within.append((f"{workload} {name}", change))
            figures = [f"{m:.2f} {unit}" if unit == "s" else f"{m:.0f} {unit}" for m in medians]
            print(f"{title if index == 0 else '':24}{name:10}{figures[0]:>22}{figures[1]:>22}{change:>+13.1f}%")
        for side in sides:
            each = ", ".join(f"{run.cpu:.2f} ({run.wall:.1f})" for run in side.figures[workload])
            print(f"  {side.key.upper()}'s runs, s CPU (wall): {each}")
        if workload == "plan":
            emulator = [f"{statistics.median(side.emulator):.2f} s" for side in sides]
            print(f"  local Glue's CPU during the plan (its own work, median): A {emulator[0]}, B {emulator[1]}")
    above = [f"{name} {change:+.1f}%" for name, change in within if change > TOLERANCE]
    verdict = "yes" if not above else "no: " + ", ".join(above)
    print(f"B within {TOLERANCE:g}% of A's CPU and memory everywhere (none over {TOLERANCE:g}% above): {verdict}")
    return not above


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default=BASELINE, help=f"the earlier version: a commit or branch ({BASELINE})")
    parser.add_argument("--tables", type=int, default=10000, help="tables of the no-change plan")
    parser.add_argument("--partitions", type=int, default=1000000, help="partitions of one more table in the plan")
    parser.add_argument("--files", type=int, default=1500, help="table files to validate")
    parser.add_argument("--apply-partitions", type=int, default=20000, help=f"a multiple of {apply_peer.PER_DAY}")
    parser.add_argument("--latency-ms", type=float, default=20.0, help="added to each Glue call during apply")
    parser.add_argument("--runs", type=int, default=3, help="pairs of runs of each workload (medians)")
    parser.add_argument("--small", action="store_true", help="a quick run at a tiny size (CI)")
    options = parser.parse_args()
    if options.small:
        options.tables, options.partitions, options.files, options.apply_partitions = 20, 300, 20, 200
        options.latency_ms, options.runs = 0.0, 2
    started = time.perf_counter()
    # SIGTERM ends the bench as Ctrl-C does: the local Glue stops and the worktree is removed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "bench")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "bench")
    # The local Glue runs this checkout's emulator, whatever the venv's install points at.
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    if options.small and not _git("rev-parse", "--verify", "--quiet", f"{options.against}^{{commit}}", check=False):
        print(f"{options.against} is not in this clone (a shallow one?): the quick run pairs HEAD with this checkout")
        options.against = "HEAD"
    head = _git("rev-parse", "--short", "HEAD")
    dirty = " + uncommitted changes" if _git("status", "--porcelain", "--untracked-files=no", "--", "gluecat") else ""
    with tempfile.TemporaryDirectory() as name, checkout(options.against, Path(name)) as earlier:
        tmp = Path(name)
        sides = (
            Side("a", options.against, earlier),
            Side("b", "this checkout", REPO),
        )
        for side in sides:
            preflight(side, tmp)
        print(
            f"A: {options.against} ({_git('rev-parse', '--short', options.against)}), B: this checkout ({head}{dirty})"
        )
        print(
            f"{options.runs} pair(s) of runs of each workload, A then B, each command in a fresh process;"
            " figures are medians"
        )
        validated = tmp / "validate"
        validated.mkdir()
        catalog_scale.build(validated, options.files, 0, None)
        for side in sides:  # one unmeasured command each: the files and the libraries read once from disk
            must(side, ["validate", str(validated)], tmp, "validate (warm-up)")
        planned = tmp / "plan"
        planned.mkdir()
        with LocalGlue() as server:
            catalog_scale.build(planned, options.tables, options.partitions, server.endpoint_url)
            setup = must(sides[1], ["apply", str(planned), "--auto-approve"], tmp, "apply (setup)")
            print(
                f"setup: this checkout applied {options.tables:,} tables + one of {options.partitions:,}"
                f" partitions in {setup.wall:.1f} s ({setup.cpu:.2f} s CPU, peak RSS {setup.rss:.0f} MB)"
            )
            plan_pairs(sides, planned, server, options.runs, tmp)
            validate_pairs(sides, validated, options.runs, tmp)
            applied = apply_pairs(sides, tmp, server, options)
            emulator_peak = sandbox_memory.peak_mb(server.pid)
        titles = {"plan": "no-change plan", "validate": "validate", "apply": "apply"}
        print(f"no-change plan: {options.tables:,} tables + one of {options.partitions:,} partitions (both found none)")
        print(f"validate: {options.files:,} table files")
        print(f"apply: {applied:,} partitions to a new table each run, {options.latency_ms:g} ms a Glue call")
        report(sides, titles)
    print(f"local Glue's peak RSS: {emulator_peak:.0f} MB; the whole bench: {time.perf_counter() - started:.0f} s wall")


if __name__ == "__main__":
    main()
