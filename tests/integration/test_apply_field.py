"""Apply as users meet it: Ctrl-C part-way, partitions that move, a change made while apply asks."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, sales_project

BIG = """\
storage: parquet
columns:
  - {name: v, type: bigint}
partition_keys:
  - {name: dt, type: string}
  - {name: shard, type: int}
partitions:
  - expand:
      dt: {from: 2024-01-01, to: 2024-06-19}
      shard: {from: 0, to: 99}
"""  # 171 days x 100 shards = 17,100 partitions, 171 BatchCreatePartition calls
SHARDS = 400  # the process-group test: 68,400 partitions keep a sandbox apply busy for seconds


def _gluecat_process(*args: str, **kwargs: Any) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "gluecat", *args], env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs,
    )  # fmt: skip


def _partition_count(raw_glue: Any, table: str) -> int:
    pages = raw_glue.get_paginator("get_partitions").paginate(DatabaseName="sales", TableName=table)
    return sum(len(page["Partitions"]) for page in pages)


def _wait_for_calls(server: LocalGlue, operation: str, at_least: int, seconds: float = 120) -> int:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        count = server.calls()[operation]
        if count >= at_least:
            return count
        time.sleep(0.05)
    raise AssertionError(f"{operation} never reached {at_least} calls")


def test_sigint_stops_apply_promptly_reports_and_a_rerun_converges(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    root = sales_project(tmp_path, server.endpoint_url, big=BIG)
    server.reset_counts()
    process = _gluecat_process("apply", str(root), "--auto-approve")
    at_signal = _wait_for_calls(server, "BatchCreatePartition", 10)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    after_signal = server.calls()["BatchCreatePartition"] - at_signal
    assert process.returncode == 130, err
    assert after_signal <= 20, f"{after_signal} batches were sent after Ctrl-C"
    assert "Interrupted:" in out and "partitions created" in out and "re-run apply" in out
    assert "Traceback" not in err
    created = _partition_count(raw_glue, "big")
    assert 0 < created < 17_100

    rerun = _gluecat_process("apply", str(root), "--auto-approve")
    out, err = rerun.communicate(timeout=300)
    assert rerun.returncode == 0, err
    assert _partition_count(raw_glue, "big") == 17_100
    replan = gluecat("plan", str(root), "--detailed-exitcode")
    assert replan.exit_code == 0, replan.output


def test_sigterm_stops_apply_the_same_way(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = sales_project(tmp_path, server.endpoint_url, big=BIG)
    server.reset_counts()
    process = _gluecat_process("apply", str(root), "--auto-approve")
    _wait_for_calls(server, "BatchCreatePartition", 5)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert "Interrupted:" in out
    assert _partition_count(raw_glue, "big") < 17_100


def _partitioned_project(tmp_path: Path, endpoint: str, location: str) -> Path:
    events = f"""\
storage: parquet
columns:
  - {{name: v, type: bigint}}
partition_keys:
  - {{name: dt, type: string}}
partitions:
  - {{values: {{dt: "2024-01-01"}}, location: "{location}"}}
  - {{values: {{dt: "2024-01-02"}}}}
"""
    return sales_project(tmp_path, endpoint, events=events)


def test_a_moved_partition_keeps_its_own_fields(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = _partitioned_project(tmp_path, server.endpoint_url, "s3://lake/old/dt=2024-01-01/")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    live = raw_glue.get_partition(DatabaseName="sales", TableName="events", PartitionValues=["2024-01-01"])["Partition"]
    descriptor = live["StorageDescriptor"]
    descriptor["SerdeInfo"]["Parameters"] = {"serialization.format": "1", "theirs": "kept"}
    descriptor["Parameters"] = {"sd.note": "kept"}
    raw_glue.update_partition(
        DatabaseName="sales", TableName="events", PartitionValueList=["2024-01-01"],
        PartitionInput={"Values": ["2024-01-01"], "StorageDescriptor": descriptor,
                        "Parameters": {"numRows": "42", "owner.team": "payments"}},
    )  # fmt: skip

    moved = _partitioned_project(tmp_path, server.endpoint_url, "s3://lake/new/dt=2024-01-01/")
    assert gluecat("apply", str(moved), "--auto-approve").exit_code == 0

    after = raw_glue.get_partition(DatabaseName="sales", TableName="events", PartitionValues=["2024-01-01"])[
        "Partition"
    ]
    assert after["StorageDescriptor"]["Location"] == "s3://lake/new/dt=2024-01-01/"
    assert after["Parameters"] == {"numRows": "42", "owner.team": "payments"}
    assert after["StorageDescriptor"]["SerdeInfo"]["Parameters"]["theirs"] == "kept"
    assert after["StorageDescriptor"]["Parameters"] == {"sd.note": "kept"}
    assert gluecat("plan", str(moved), "--detailed-exitcode").exit_code == 0


def _answer_prompt(args: list[str], before_yes: Any) -> tuple[int, str]:
    """Run gluecat on a terminal, call `before_yes` at the prompt, then answer y."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: becomes gluecat
        os.execv(sys.executable, [sys.executable, "-m", "gluecat", *args])
    output = b""
    answered = False
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
        if not answered and b"Apply these changes?" in output:
            before_yes()
            os.write(fd, b"y\n")
            answered = True
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), output.decode(errors="replace")


def test_a_change_made_while_apply_asks_is_never_overwritten(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = _partitioned_project(tmp_path, server.endpoint_url, "s3://lake/old/dt=2024-01-01/")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    moved = _partitioned_project(tmp_path, server.endpoint_url, "s3://lake/ours/dt=2024-01-01/")
    (moved / "sales/database.yaml").write_text("location: s3://lake/sales/\ndescription: ours\n")

    def someone_else_moves_it() -> None:
        raw_glue.update_partition(
            DatabaseName="sales", TableName="events", PartitionValueList=["2024-01-01"],
            PartitionInput={"Values": ["2024-01-01"],
                            "StorageDescriptor": {"Location": "s3://lake/theirs/dt=2024-01-01/"}},
        )  # fmt: skip

    code, output = _answer_prompt(["apply", str(moved)], someone_else_moves_it)
    assert code == 1, output
    assert "stale" in output and "sales.events[dt=2024-01-01]" in output
    live = raw_glue.get_partition(DatabaseName="sales", TableName="events", PartitionValues=["2024-01-01"])
    assert live["Partition"]["StorageDescriptor"]["Location"] == "s3://lake/theirs/dt=2024-01-01/"
    assert raw_glue.get_database(Name="sales")["Database"].get("Description") != "ours", "nothing at all was changed"


def test_a_database_changed_while_apply_asks_is_never_overwritten(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "sales/database.yaml").write_text("location: s3://lake/sales/\ndescription: ours\n")

    def someone_else_describes_it() -> None:
        raw_glue.update_database(
            Name="sales", DatabaseInput={"Name": "sales", "LocationUri": "s3://lake/sales/", "Description": "theirs"}
        )

    code, output = _answer_prompt(["apply", str(root)], someone_else_describes_it)
    assert code == 1, output
    assert "stale" in output and "sales" in output
    assert raw_glue.get_database(Name="sales")["Database"]["Description"] == "theirs"


def test_apply_stops_sending_once_glue_stops_answering(tmp_path: Path) -> None:
    with LocalGlue() as dying:
        root = sales_project(tmp_path, dying.endpoint_url, big=BIG)
        process = _gluecat_process("apply", str(root), "--auto-approve")
        _wait_for_calls(dying, "BatchCreatePartition", 10)
        dying.stop()
        out, err = process.communicate(timeout=300)
    assert process.returncode == 1, err
    assert "Stopped: Glue stopped answering" in out and "partitions created" in out, out
    assert "Traceback" not in err
    # One failure for the table whose batch met the dead endpoint, not one per remaining batch.
    failed = [line for line in err.splitlines() if line.startswith("failed")]
    assert 1 <= len(failed) <= 2, err


def test_sigterm_to_the_whole_process_group_stops_a_sandbox_apply_and_reports_it_rightly(tmp_path: Path) -> None:
    """What CI runners and `timeout` do: SIGTERM to every process of the job. The sandbox's server
    is not the job's to stop: gluecat stops sending, saves the sandbox, and reports what landed."""
    root = tmp_path / "project"
    (root / "sales" / "tables").mkdir(parents=True)
    (root / "catalog.yaml").write_text("region: us-east-1\nsandbox: true\n")
    (root / "sales" / "database.yaml").write_text("location: s3://lake/sales/\n")
    (root / "sales" / "tables" / "big.yaml").write_text(BIG.replace("to: 99", f"to: {SHARDS - 1}"))
    total = 171 * SHARDS
    process = _gluecat_process("apply", str(root), "--auto-approve", start_new_session=True)
    assert process.stdout is not None
    deadline = time.monotonic() + 180
    seen = ""
    while "Impact:" not in seen and time.monotonic() < deadline:  # the plan is printed: applying starts
        ready, _, _ = select.select([process.stdout], [], [], 1)
        line = process.stdout.readline() if ready else ""
        if ready and not line:
            break  # ended before applying: the assertion below says how
        seen += line
    assert "Impact:" in seen, seen
    time.sleep(1)
    os.killpg(process.pid, signal.SIGTERM)
    rest, err = process.communicate(timeout=180)
    out = seen + rest
    assert "stopped answering" not in out + err and "could not save" not in out + err, out + err
    import json

    remaining = sum(
        len(g["create"]) for g in json.loads(gluecat("plan", str(root), "--format", "json").stdout)["partitions"]
    )
    if process.returncode == 0:  # the signal came after the last step: nothing was interrupted
        assert "Apply complete" in out and remaining == 0, out
        return
    assert process.returncode == 130, out + err
    if "Interrupted:" not in out:  # the signal came before the first write (re-checking the plan)
        assert "interrupted" in err and remaining == total, out + err
        return
    created = int(out.split("Interrupted:")[1].split("partitions created")[0].split()[-1].replace(",", ""))
    assert remaining == total - created  # the report says exactly what landed, and the sandbox kept it


def test_a_signal_after_the_last_step_interrupted_nothing(tmp_path: Path, server: LocalGlue) -> None:
    """SIGTERM that lands once every change was made: apply says it is complete, not to re-run."""
    import threading

    from gluecat.apply.run import apply_plan, work_units
    from gluecat.backends.connect import connect
    from gluecat.plan.planner import make_plan
    from gluecat.project.load import load_project
    from gluecat.project.targets import Targets

    root = sales_project(tmp_path, server.endpoint_url)
    project = load_project(root)
    stop = threading.Event()

    class SignalAtTheEnd:
        def __init__(self, total: int) -> None:
            self.left = total

        def advance(self, units: int) -> None:
            self.left -= units
            if self.left <= 0:
                stop.set()  # as the handler does when the signal arrives

        def note(self, message: str) -> None:
            pass

    with connect(project) as connection:
        plan = make_plan(project, connection, Targets(), lambda _: None)
        result = apply_plan(connection, plan, SignalAtTheEnd(work_units(plan)), stop)
        assert stop.is_set() and result.ok and not result.interrupted
        stop.clear()
        early = make_plan(project, connection, Targets(), lambda _: None)
    assert not early.has_changes
