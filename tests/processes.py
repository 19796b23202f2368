"""What the test services (Trino, the Hive Metastores, the Iceberg REST server) share about their
processes: a free loopback port to start one on, and stopping its whole process group."""

from __future__ import annotations

import os
import signal
import socket
import subprocess


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def stop_group(process: subprocess.Popen[bytes] | None, seconds: float) -> None:
    """Stop a service started in its own session: SIGTERM to its group, SIGKILL after `seconds`."""
    if process is None or process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
