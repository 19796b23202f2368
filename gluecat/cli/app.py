"""Typer commands: each is a few lines over the core; one handler maps errors to exit codes."""

from __future__ import annotations

import traceback
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from gluecat.cli import output
from gluecat.errors import GluecatError

app = typer.Typer(
    name="gluecat",
    help="Catalog-as-code for the AWS Glue Data Catalog.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
_state = {"debug": False}

CatalogDir = Annotated[
    Path,
    typer.Argument(help="The catalog project directory (holds catalog.yaml)"),
]


class ValidateFormat(StrEnum):
    human = "human"
    json = "json"


@app.callback()
def main(
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks on errors")] = False,
) -> None:
    _state["debug"] = debug


def run(command: Callable[[], int]) -> None:
    """Run a command body: GluecatError -> one red line and exit 1; never a traceback."""
    try:
        code = command()
    except GluecatError as exc:
        if _state["debug"]:
            traceback.print_exc()
        output.error(str(exc))
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        output.error("interrupted")
        raise typer.Exit(130) from None
    except Exception as exc:
        if _state["debug"]:
            traceback.print_exc()
        output.error(f"unexpected error: {exc!r} (run with --debug for details)")
        raise typer.Exit(1) from None
    raise typer.Exit(code)


@app.command()
def validate(
    catalog_dir: CatalogDir = Path("."),
    output_format: Annotated[
        ValidateFormat, typer.Option("--format", help="human or json")
    ] = ValidateFormat.human,
) -> None:
    """Offline: parse, type-check and lint. Exit 0 when clean, 1 on errors."""
    from gluecat.cli.validate import validate as run_validate

    run(lambda: run_validate(catalog_dir, output_format.value))
