"""`gluecat init [DIR]`: a new catalog project to plan and apply against the sandbox."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer

from gluecat.cli.app import app, run
from gluecat.errors import ExitCode


@app.command()
def init(
    directory: Annotated[
        Path, typer.Argument(help="Where to create the project (made when missing)", metavar="DIR")
    ] = Path("."),
) -> None:
    """Create a new catalog project: a sandbox catalog, one partitioned table, schemas and a CI workflow."""
    run(lambda: init_command(directory))


def init_command(directory: Path) -> int:
    from gluecat.cli.output import stdout
    from gluecat.project.starter import WORKFLOW_FILE, write_starter

    written = write_starter(directory)
    stdout.print(f"Created a catalog project in {directory}:", markup=False)
    for path in written:
        stdout.print(f"  {path}", markup=False)
    where = shlex.quote(str(directory))
    stdout.print("\nNext, against the embedded sandbox (no AWS account needed):", markup=False)
    stdout.print(f"  gluecat plan {where}\n  gluecat apply {where}", markup=False)
    stdout.print(
        f"\nFor CI, {directory / WORKFLOW_FILE} needs GLUECAT_PACKAGE set to a pinned gluecat and that"
        " commit's requirements-ci.txt beside it (docs/how-to/ci.md).",
        markup=False,
    )
    return ExitCode.OK
