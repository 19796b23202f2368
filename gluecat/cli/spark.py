"""`gluecat spark-conf` and `gluecat sandbox`."""

from __future__ import annotations

import shlex
import signal
import sys
import threading
from pathlib import Path
from types import FrameType

from gluecat.cli.output import stderr
from gluecat.errors import ExitCode
from gluecat.project.load import load_project
from gluecat.sandbox.lock import serving_now
from gluecat.sandbox.state import serving_sandbox
from gluecat.spark.ddl import project_ddl
from gluecat.spark.render import RENDERERS
from gluecat.spark.secrets import SecretMasker
from gluecat.spark.settings import spark_settings

SANDBOX_PORT = 5454


def spark_conf_command(
    root: Path,
    output_format: str,
    spark_version: str | None,
    packages: list[str] | None,
    endpoint: str | None,
    show_secrets: bool = False,
    env: str | None = None,
) -> int:
    # Only the DDL carries parameter values; the Spark settings need no secret to be set.
    project = load_project(root, env, secrets_required=output_format == "ddl")
    masker = SecretMasker()
    if output_format == "ddl":
        shown = project_ddl(project) if show_secrets else project_ddl(project, shown=masker)
        sys.stdout.write("\n".join(shown) + "\n")
        _warn_masked(masker)
        return ExitCode.OK
    if project.config.sandbox and endpoint is None:
        served = serving_now(project.root)
        if served is not None:  # `gluecat sandbox --port N`: Spark must reach that port, not the default
            endpoint = served.url
            stderr.print(f"# sandbox catalog: served at {endpoint} by `gluecat sandbox`", markup=False)
        else:
            endpoint = f"http://127.0.0.1:{SANDBOX_PORT}"
            stderr.print(
                f"# sandbox catalog: start it with `gluecat sandbox {shlex.quote(str(root))}` (port {SANDBOX_PORT})",
                markup=False,
            )
    settings = spark_settings(project, spark_version, endpoint, packages, secrets=output_format != "trino")
    sys.stdout.write(RENDERERS[output_format](settings if show_secrets else masker.settings(settings)))
    _warn_masked(masker)
    return ExitCode.OK


def _warn_masked(masker: SecretMasker) -> None:
    warning = masker.warning()
    if warning:
        stderr.print(warning, markup=False, style="yellow")


def sandbox_command(root: Path, port: int, env: str | None = None) -> int:
    """Serve until Ctrl-C or SIGTERM; other commands on this project use this server meanwhile."""
    project = load_project(root, env)
    stop = threading.Event()

    def on_signal(_signal: int, _frame: FrameType | None) -> None:
        stop.set()

    previous = {number: signal.signal(number, on_signal) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        with serving_sandbox(project.root, project.config.region, port) as server:
            where = server.endpoint_url
            stderr.print(f"sandbox Glue + S3 at {where}; Ctrl-C or SIGTERM stops it and saves its state", markup=False)
            while not stop.wait(0.2):  # a bare wait() may not wake for the signal handler
                pass
            stderr.print("saving the sandbox state", markup=False)
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    return ExitCode.OK
