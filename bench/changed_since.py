"""A pull request's plan: `plan --changed-since REF` of a change to 3 tables against the full plan.

    python bench/changed_since.py --tables 10000 --partitions 1000000

The catalog of bench/catalog_scale.py (`--tables` table files in databases of 1,000, plus one table
with `--partitions` generated partitions) is applied to the strict local Glue, committed to a git
repository, and 3 tables in 3 databases are changed. Then, with the local Glue answering each call
after 20 ms as AWS would, the plan of the change and the full plan run in fresh processes: gluecat's
CPU, wall time and Glue calls for each, and whether the change's own changes are the full plan's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from catalog_scale import FILES_PER_DATABASE, _env, build, gluecat, measure


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), "-c", "user.name=b", "-c", "user.email=b@example.com", *args], check=True)


def _changes(root: Path, *args: str) -> dict[str, str]:
    done = subprocess.run(gluecat("plan", str(root), "--format", "json", *args), env=_env(), capture_output=True)
    if done.returncode != 0:
        raise SystemExit(f"plan {' '.join(args)} failed: {done.stderr.decode()[-1000:]}")
    return {change["address"]: json.dumps(change, sort_keys=True) for change in json.loads(done.stdout)["changes"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10000)
    parser.add_argument("--partitions", type=int, default=1000000)
    parser.add_argument("--latency-ms", type=float, default=20.0)
    parser.add_argument("--small", action="store_true", help="a quick run at a small size (CI)")
    options = parser.parse_args()
    if options.small:
        options.tables, options.partitions = 30, 300
    from gluecat.sandbox.server import LocalGlue

    os.environ.setdefault("AWS_ACCESS_KEY_ID", "bench")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "bench")
    with tempfile.TemporaryDirectory() as tmp, LocalGlue() as server:
        root = Path(tmp) / "catalog"
        root.mkdir()
        build(root, options.tables, options.partitions, server.endpoint_url)
        started = time.perf_counter()
        measure(gluecat("apply", str(root), "--auto-approve"))
        took = time.perf_counter() - started
        print(f"setup: {options.tables:,} tables + {options.partitions:,} partitions applied in {took:.0f} s")
        _git(root, "init", "-q", "-b", "main")
        _git(root, "add", "-A")
        _git(root, "commit", "-qm", "catalog")
        databases = max(1, -(-options.tables // FILES_PER_DATABASE))
        changed = [
            root / f"db{(i * databases) // 3}" / "tables" / f"t{(i * options.tables) // 3:06d}.yaml" for i in range(3)
        ]
        for path in changed:
            path.write_text(path.read_text().replace("generated for the scale benchmark", "changed in a pull request"))
        server.configure(latency_ms=options.latency_ms)

        figures = {}
        for label, args in (("--changed-since main", ("--changed-since", "main")), ("full plan", ())):
            server.reset_counts()
            cpu, rss, wall, _ = measure(gluecat("plan", str(root), *args))
            calls = server.calls()
            figures[label] = cpu
            shown = dict(sorted(calls.items()))
            print(f"{label:<22} {cpu:6.2f} s CPU, {wall:6.2f} s wall, peak RSS {rss:4.0f} MB")
            print(f"{'':<22} {sum(calls.values()):>5} Glue calls {shown}")
        print(
            f"CPU ratio:             {figures['full plan'] / figures['--changed-since main']:.1f}x less for the change"
        )
        server.configure(latency_ms=0)
        scoped, full = _changes(root, "--changed-since", "main"), _changes(root)
        same = scoped == {address: full[address] for address in scoped} and len(scoped) == 3
        print(f"the change's 3 tables planned exactly as in the full plan: {'yes' if same else 'NO'}")
        if not same:
            sys.exit(1)


if __name__ == "__main__":
    main()
