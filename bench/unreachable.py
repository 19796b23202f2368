"""Seconds until `gluecat plan` gives up on an endpoint that refuses, does not resolve, or never answers.

    python bench/unreachable.py            # the default timeouts
    python bench/unreachable.py --small    # a 2 s read timeout (CI)

Runs the real command line (`python -m gluecat plan`) with placeholder credentials and prints figures;
exits non-zero if any case does not end with exit code 1 and a one-line message.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def silent_server() -> int:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            held.append(listener.accept()[0])

    threading.Thread(target=accept, daemon=True).start()
    port: int = listener.getsockname()[1]
    return port


def time_plan(endpoint: str, environment: dict[str, str]) -> tuple[float, int, str]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {endpoint}\n")
        (root / "sales").mkdir()
        (root / "sales" / "database.yaml").write_text("location: s3://lake/sales/\n")
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "gluecat", "plan", str(root)],
            capture_output=True,
            text=True,
            check=False,
            env=environment,
        )
        return time.monotonic() - started, done.returncode, done.stderr.strip()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--small", action="store_true", help="a 2 s read timeout, so CI stays quick")
    options = parser.parse_args()
    environment = {**os.environ, "AWS_ACCESS_KEY_ID": "placeholder", "AWS_SECRET_ACCESS_KEY": "placeholder"}
    if options.small:
        environment["GLUECAT_READ_TIMEOUT"] = "2"
    failed = False
    cases = {
        "connection refused": f"http://127.0.0.1:{closed_port()}",
        "unknown host": "http://glue.invalid:4566",
        "never answers": f"http://127.0.0.1:{silent_server()}",
    }
    for name, endpoint in cases.items():
        seconds, code, message = time_plan(endpoint, environment)
        print(f"{name:<20} {seconds:6.1f} s  exit {code}  {message}")
        failed |= code != 1 or "\n" in message or "Traceback" in message
    if failed:
        raise SystemExit("an unreachable endpoint did not end with exit code 1 and one line")


if __name__ == "__main__":
    main()
