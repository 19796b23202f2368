"""The sandbox's peak memory and a no-change plan's seconds for one wide, partitioned table.

    python bench/sandbox_memory.py                          # 100 columns x 20,000 partitions
    python bench/sandbox_memory.py --columns 300 --partitions 5000
    python bench/sandbox_memory.py --small                  # CI: 20 x 1,000, seconds

Writes a sandbox project holding one table of COLUMNS columns and PARTITIONS partitions (one
`expand:` range), serves its sandbox as `gluecat sandbox` does, applies it and runs a no-change
`gluecat plan --detailed-exitcode` as a user runs them, one process each. Prints the sandbox
server's peak resident memory (VmHWM of its process) after apply and after the plan, the plan's
seconds, and whether the state survived (the plan finds nothing to change).

Then, the sandbox no longer served, one more no-change plan starts its own sandbox from the saved
state (what a user without `gluecat sandbox` running gets): its peak is read while it runs.

`--limit-mb N` runs the server and each command with an address-space limit of N MB (RLIMIT_AS),
so a run that outgrows the machine stops instead of taking it over.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from gluecat.sandbox.state import serving_sandbox

FLOOR_MB = 300
FLOOR_SECONDS = 3.0
CEILING_MB = 2048  # what a wide catalog (3,000 columns x 50,000 partitions) must fit in


def write_project(root: Path, columns: int, partitions: int) -> None:
    (root / "bench" / "tables").mkdir(parents=True)
    (root / "catalog.yaml").write_text("sandbox: true\nregion: us-east-1\n")
    (root / "bench" / "database.yaml").write_text("location: s3://bench-lake/bench/\n")
    lines = ["storage: parquet", "columns:"]
    lines += [f"  - {{name: c{index:04d}, type: {'bigint' if index % 2 else 'string'}}}" for index in range(columns)]
    lines += ["partition_keys:", "  - {name: part, type: int}", "partitions:"]
    lines += [f"  - expand: {{part: {{from: 1, to: {partitions}}}}}"]
    (root / "bench" / "tables" / "wide.yaml").write_text("\n".join(lines) + "\n")


def peak_mb(pid: int) -> float:
    """The process's peak resident set (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise SystemExit(f"no VmHWM for process {pid}")


LIMIT_MB: list[int] = []


def _limited() -> None:
    if LIMIT_MB:
        size = LIMIT_MB[0] * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))


def gluecat(cwd: Path, *args: str, watch: list[float] | None = None) -> tuple[int, float, str]:
    """Run a command; `watch`: filled with the peak of its sandbox server (a process it starts)."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "gluecat", *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, preexec_fn=_limited,
    )  # fmt: skip
    done = threading.Event()
    if watch is not None:
        threading.Thread(target=_watch_children, args=(process.pid, watch, done), daemon=True).start()
    output, _ = process.communicate()
    done.set()
    return process.returncode, time.perf_counter() - started, output


def _watch_children(pid: int, peak: list[float], done: threading.Event) -> None:
    """The highest VmHWM among the process's descendants, sampled until it ends."""
    peak.append(0.0)
    while not done.wait(0.05):
        for child in _descendants(pid):
            try:
                peak[0] = max(peak[0], peak_mb(child))
            except (OSError, SystemExit):
                continue


def _descendants(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                found += [int(child), *_descendants(int(child))]
    except OSError:
        pass
    return found


def run(columns: int, partitions: int, limit_mb: int | None) -> bool:
    root = Path(tempfile.mkdtemp(prefix="sandbox-memory-"))
    try:
        write_project(root, columns, partitions)
        print(f"{columns:,} columns x {partitions:,} partitions", flush=True)
        with serving_sandbox(root, "us-east-1", port=0) as server:
            if limit_mb:  # the server is running: limit it alone, not this process
                subprocess.run(["prlimit", f"--pid={server.pid}", f"--as={limit_mb * 1024 * 1024}"], check=True)
            code, seconds, output = gluecat(root, "apply", ".", "--auto-approve")
            applied_mb = peak_mb(server.pid)
            print(f"  apply: exit {code} in {seconds:.1f} s; sandbox peak {applied_mb:,.0f} MB", flush=True)
            if code != 0:
                print("  " + "\n  ".join(output.strip().splitlines()[-5:]))
            code, seconds, output = gluecat(root, "plan", ".", "--detailed-exitcode")
            planned_mb = peak_mb(server.pid)
            print(f"  no-change plan: exit {code} in {seconds:.2f} s; sandbox peak {planned_mb:,.0f} MB", flush=True)
            if code not in (0, 2):
                print("  " + "\n  ".join(output.strip().splitlines()[-5:]))
            met = code == 0 and planned_mb < FLOOR_MB and seconds < FLOOR_SECONDS
        peak: list[float] = []
        code, seconds, output = gluecat(root, "plan", ".", "--detailed-exitcode", watch=peak)
        print(f"  no-change plan, sandbox started from the saved state: exit {code} in {seconds:.2f} s;"
              f" sandbox peak {peak[0]:,.0f} MB", flush=True)  # fmt: skip
        if code not in (0, 2):
            print("  " + "\n  ".join(output.strip().splitlines()[-5:]))
        met = met and code == 0 and peak[0] < FLOOR_MB and seconds < FLOOR_SECONDS
        print(f"  floor ({FLOOR_MB} MB, {FLOOR_SECONDS:g} s, nothing to change): {'met' if met else 'MISSED'}")
        fits = code == 0 and max(applied_mb, planned_mb, peak[0]) < CEILING_MB
        print(f"  within {CEILING_MB:,} MB throughout, nothing to change: {'yes' if fits else 'NO'}")
        return met
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--columns", type=int, default=100)
    parser.add_argument("--partitions", type=int, default=20_000)
    parser.add_argument("--small", action="store_true", help="20 columns x 1,000 partitions")
    parser.add_argument("--limit-mb", type=int, default=None, help="address-space limit of the sandbox server")
    arguments = parser.parse_args()
    if arguments.small:
        arguments.columns, arguments.partitions = 20, 1_000
    if arguments.limit_mb:
        LIMIT_MB.append(arguments.limit_mb)
    run(arguments.columns, arguments.partitions, arguments.limit_mb)


if __name__ == "__main__":
    main()
