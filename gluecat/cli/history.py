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
# PROJECT defaults to `.` as for every other command; the table comes after it, so one argument alone
# is the table (click fills positional arguments left to right: both are optional to it).
OneTable = Annotated[
    str | None,
    typer.Argument(
        help="The table, as DATABASE.TABLE (given alone, a table of the project in .)",
        metavar="DATABASE.TABLE",
        show_default=False,
    ),
]


class HistoryFormat(StrEnum):
    human = "human"
    json = "json"


AutoApprove = Annotated[bool, typer.Option("--auto-approve", help="Do not ask for confirmation")]


@app.command()
def history(
    catalog_dir: CatalogDir = Path("."),
    table: OneTable = None,
    output_format: Annotated[HistoryFormat, typer.Option("--format", help="human or json")] = HistoryFormat.human,
    limit: Annotated[int, typer.Option("--limit", min=1, help="Versions per page")] = 20,
    page: Annotated[int, typer.Option("--page", min=1, help="Which page, newest first")] = 1,
    env: EnvOption = None,
) -> None:
    """A table's Glue versions, newest first, with what changed in each; an Iceberg table's snapshots beside."""
    from gluecat.cli.history_run import history_command

    run(
        lambda: history_command(
            *project_and_table(catalog_dir, table, "history"), output_format.value, limit, page, env
        )
    )


@app.command()
def rollback(
    catalog_dir: CatalogDir = Path("."),
    table: OneTable = None,
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

    def command() -> int:
        project, address = project_and_table(catalog_dir, table, "rollback")
        request = Rollback(address, to_version, to_snapshot, auto_approve, out, write_yaml, allow_destroy)
        return rollback_command(project, request, env)

    run(command)


@app.command("prune-versions")
def prune_versions(
    keep: Annotated[int, typer.Option("--keep", min=1, help="How many of the newest versions each table keeps")],
    catalog_dir: CatalogDir = Path("."),
    target: TargetOption = None,
    auto_approve: AutoApprove = False,
    env: EnvOption = None,
) -> None:
    """Delete each table's Glue versions beyond the newest --keep (never the current one); asks first."""
    from gluecat.cli.history_run import prune_command
    from gluecat.project.targets import Targets

    run(lambda: prune_command(catalog_dir, keep, Targets.parse(target), auto_approve, env))


def project_and_table(first: Path, table: str | None, command: str) -> tuple[Path, str]:
    """`history sales.orders` (the project in .) or `history PROJECT sales.orders`."""
    if table is not None:
        return first, table
    if first == Path(".") or first.exists():
        from gluecat.errors import GluecatError

        raise GluecatError(f"name the table: gluecat {command} [PROJECT] DATABASE.TABLE")
    return Path("."), str(first)


def split_address(text: str) -> tuple[str, str]:
    database, dot, table = text.partition(".")
    if not dot or not database or not table:
        from gluecat.errors import GluecatError

        raise GluecatError(f"{text!r}: name the table as DATABASE.TABLE")
    return database, table
