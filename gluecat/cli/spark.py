"""`gluecat spark-conf` and `gluecat sandbox`."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

from gluecat.cli.output import stderr
from gluecat.ddl import project_ddl
from gluecat.load import load_project
from gluecat.sandbox.state import running_sandbox
from gluecat.secret_values import mask
from gluecat.spark import spark_settings
from gluecat.spark_render import RENDERERS

SANDBOX_PORT = 5454


def spark_conf_command(
    root: Path,
    output_format: str,
    spark_version: str | None,
    packages: list[str] | None,
    endpoint: str | None,
    env: str | None = None,
) -> int:
    # Only the DDL carries parameter values; the Spark settings need no secret to be set.
    project = load_project(root, env, secrets_required=output_format == "ddl")
    if output_format == "ddl":
        sys.stdout.write(mask("\n".join(project_ddl(project)) + "\n"))
        return 0
    if project.config.sandbox and endpoint is None:
        endpoint = f"http://127.0.0.1:{SANDBOX_PORT}"
        stderr.print(f"# sandbox catalog: start it with `gluecat sandbox {root}` (port {SANDBOX_PORT})", markup=False)
    settings = spark_settings(project, spark_version, endpoint, packages)
    sys.stdout.write(mask(RENDERERS[output_format](settings)))
    return 0


def sandbox_command(root: Path, port: int, env: str | None = None) -> int:
    project = load_project(root, env)
    with running_sandbox(project.root, project.config.region, port) as server:
        stderr.print(f"sandbox Glue + S3 at {server.endpoint_url}; Ctrl-C stops it and saves its state", markup=False)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            stderr.print("saving the sandbox state", markup=False)
    return 0
