"""`gluecat history`, `gluecat rollback` and `gluecat prune-versions`: a table's past, a way back to
it that is reviewed like any plan, and the upkeep Glue's 100,000-version cap needs."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from gluecat.cli.app import EnvOption, TargetOption, app, run

CatalogDir = Annotated[
    Path, typer.Argument(help="The catalog project directory (holds catalog.yaml)", metavar="PROJECT")
]


class HistoryFormat(StrEnum):
    human = "human"
    json = "json"


TableArgument = Annotated[str, typer.Argument(help="The table, as DATABASE.TABLE", metavar="DATABASE.TABLE")]
AutoApprove = Annotated[bool, typer.Option("--auto-approve", help="Do not ask for confirmation")]


@app.command()
def history(
    catalog_dir: CatalogDir,
    table: TableArgument,
    output_format: Annotated[HistoryFormat, typer.Option("--format", help="human or json")] = HistoryFormat.human,
    limit: Annotated[int, typer.Option("--limit", min=1, help="Versions per page")] = 20,
    page: Annotated[int, typer.Option("--page", min=1, help="Which page, newest first")] = 1,
    env: EnvOption = None,
) -> None:
    """A table's Glue versions, newest first, with what changed in each; an Iceberg table's snapshots beside."""
    from gluecat.cli.history_run import history_command

    run(lambda: history_command(catalog_dir, table, output_format.value, limit, page, env))


@app.command()
def rollback(
    catalog_dir: CatalogDir,
    table: TableArgument,
    to_version: Annotated[
        int | None, typer.Option("--to-version", help="Write this Glue version back (Hive tables, views)")
    ] = None,
    to_snapshot: Annotated[
        int | None, typer.Option("--to-snapshot", help="Make this earlier snapshot current (Iceberg tables)")
    ] = None,
    auto_approve: AutoApprove = False,
    out: Annotated[Path | None, typer.Option("--out", help="Save the plan for `gluecat apply FILE`")] = None,
    write_yaml: Annotated[
        bool, typer.Option("--write-yaml", help="Write the rolled-back definition into the table's file")
    ] = False,
    allow_destroy: Annotated[
        bool, typer.Option("--allow-destroy", help="Permit a rollback that replaces the table")
    ] = False,
    env: EnvOption = None,
) -> None:
    """Roll a table back: a plan writing an earlier version back (asks first), or an Iceberg snapshot rollback."""
    from gluecat.cli.history_run import Rollback, rollback_command

    request = Rollback(table, to_version, to_snapshot, auto_approve, out, write_yaml, allow_destroy)
    run(lambda: rollback_command(catalog_dir, request, env))


@app.command("prune-versions")
def prune_versions(
    catalog_dir: CatalogDir,
    keep: Annotated[int, typer.Option("--keep", min=1, help="How many of the newest versions each table keeps")],
    target: TargetOption = None,
    auto_approve: AutoApprove = False,
    env: EnvOption = None,
) -> None:
    """Delete each table's Glue versions beyond the newest --keep (never the current one); asks first."""
    from gluecat.cli.history_run import prune_command
    from gluecat.project.targets import Targets

    run(lambda: prune_command(catalog_dir, keep, Targets.parse(target), auto_approve, env))


def split_address(text: str) -> tuple[str, str]:
    database, dot, table = text.partition(".")
    if not dot or not database or not table:
        from gluecat.errors import GluecatError

        raise GluecatError(f"{text!r}: name the table as DATABASE.TABLE")
    return database, table
