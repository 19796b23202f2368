"""`gluecat sandbox`: serve the project's sandbox (`serve`, also `gluecat sandbox [DIR]` alone),
show what it holds (`status`), clear it (`reset`)."""

from __future__ import annotations

import copy
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from gluecat.cli.app import CatalogDir, EnvOption, app, run
from gluecat.cli.usage import DEBUG_OPTION, HELP_OPTIONS, VERSION_OPTION, GluecatGroup, UsageError
from gluecat.errors import ExitCode

SERVE = "serve"


class SandboxGroup(GluecatGroup):
    """`gluecat sandbox DIR --port N` still serves: arguments that name no subcommand are `serve`'s."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in (*HELP_OPTIONS, "--version")):
            if args and not args[0].startswith("-") and not Path(args[0]).exists():
                _no_such_command(ctx, args[0], list(self.commands))
            args = [SERVE, *args]
        return super().parse_args(ctx, args)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """Each subcommand takes the app's --version and --debug too (the app gives them to this group)."""
        command = super().get_command(ctx, cmd_name)
        if command is None:
            return None
        for shared in [p for p in self.params if p.name in (VERSION_OPTION, DEBUG_OPTION)]:
            if all(p.name != shared.name for p in command.params):
                command.params.append(copy.copy(shared))
        return command


def _no_such_command(ctx: Any, word: str, commands: list[str]) -> None:
    """`gluecat sandbox stauts`: a subcommand misspelt, not a directory to serve (which is missing)."""
    from gluecat.model.suggest import closest, either

    meant = closest(word, commands)
    if meant:
        raise UsageError(f"No such command '{word}'. Did you mean {either(meant)}?", ctx)


sandbox_app = typer.Typer(cls=SandboxGroup, no_args_is_help=False, context_settings={"help_option_names": HELP_OPTIONS})
app.add_typer(sandbox_app, name="sandbox")


@sandbox_app.callback()
def sandbox() -> None:
    """The project's embedded Glue + S3: serve it (`gluecat sandbox [DIR]` alone serves), show what it
    holds, or clear it."""


class StatusFormat(StrEnum):
    human = "human"
    json = "json"


@sandbox_app.command(SERVE)
def serve(
    catalog_dir: CatalogDir = Path("."),
    port: Annotated[int, typer.Option("--port", help="Loopback port to serve Glue and S3 on")] = 5454,
    env: EnvOption = None,
) -> None:
    """Serve the project's sandbox Glue + S3 until interrupted (for Spark), then save its state."""
    from gluecat.cli.spark import sandbox_command

    run(lambda: sandbox_command(catalog_dir, port, env))


@sandbox_app.command()
def status(
    catalog_dir: CatalogDir = Path("."),
    output_format: Annotated[StatusFormat, typer.Option("--format", help="human or json")] = StatusFormat.human,
    env: EnvOption = None,
) -> None:
    """What the sandbox holds, where and how large its state is, and whether a server runs for it."""
    run(lambda: status_command(catalog_dir, output_format.value, env))


@sandbox_app.command()
def reset(
    catalog_dir: CatalogDir = Path("."),
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask for confirmation")] = False,
    env: EnvOption = None,
) -> None:
    """Clear the sandbox: delete its saved state (refused while a server runs for it)."""
    run(lambda: reset_command(catalog_dir, yes, env))


def _sandbox_root(given: Path, env: str | None) -> tuple[Path, str]:
    """The project's root and region; a project that is not a sandbox one is one line."""
    from gluecat.errors import GluecatError
    from gluecat.project.environments import choose
    from gluecat.project.load import read_catalog_config
    from gluecat.project.root import project_root
    from gluecat.sandbox.state import REGION

    root = project_root(given)
    config, source = read_catalog_config(root)
    chosen = choose(config, source, env).config
    if not chosen.sandbox:
        raise GluecatError(f"{given} is not a sandbox project: its catalog.yaml does not say `sandbox: true`")
    return root, chosen.region or REGION


def status_command(given: Path, output_format: str, env: str | None = None) -> int:
    from gluecat.cli.output import print_json, stdout
    from gluecat.sandbox.inspect import status as read_status

    root, region = _sandbox_root(given, env)
    found = read_status(root, region)
    if output_format == "json":
        print_json(found.as_json())
        return ExitCode.OK
    for line in _status_lines(found, region):
        stdout.print(line, markup=False)
    return ExitCode.OK


def _status_lines(found: Any, region: str) -> list[str]:
    from gluecat.sandbox.inspect import human_size
    from gluecat.text.plain import counted

    where = f"{found.state} ({human_size(found.size)})" if found.saved else f"{found.state} (nothing saved yet)"
    lines = [f"State: {where}"]
    if found.running is None:
        lines.append("Server: none running")
    else:
        lines.append(f"Server: {found.running.describe()}; the counts below are as last saved")
    tables = sum(database.tables for database in found.databases)
    partitions = sum(database.partitions for database in found.databases)
    lines.append(
        f"{counted(len(found.databases), 'database')}, {counted(tables, 'table')}, {counted(partitions, 'partition')}"
        + (":" if found.databases else "")
    )
    width = max((len(database.name) for database in found.databases), default=0)
    for database in found.databases:
        elsewhere = f"  ({database.region})" if database.region != region else ""
        lines.append(
            f"  {database.name:<{width}}  {counted(database.tables, 'table')}, "
            f"{counted(database.partitions, 'partition')}{elsewhere}"
        )
    objects = sum(bucket.objects for bucket in found.buckets)
    lines.append(
        f"{counted(len(found.buckets), 'bucket')}, {counted(objects, 'object')}" + (":" if found.buckets else "")
    )
    width = max((len(bucket.name) for bucket in found.buckets), default=0)
    for bucket in found.buckets:
        lines.append(f"  {bucket.name:<{width}}  {counted(bucket.objects, 'object')}")
    return lines


def reset_command(given: Path, yes: bool, env: str | None = None) -> int:
    from gluecat.cli.output import stdout
    from gluecat.errors import GluecatError, LiveStateError
    from gluecat.sandbox.inspect import reset as reset_state
    from gluecat.sandbox.inspect import status as read_status
    from gluecat.text.plain import counted

    root, region = _sandbox_root(given, env)
    found = read_status(root, region)
    if found.running is not None:
        raise LiveStateError(f"the sandbox is {found.running.describe()}: stop it, then reset")
    if not found.saved and not found.state.exists():
        stdout.print(f"The sandbox of {given} holds nothing: nothing to reset.", markup=False)
        return ExitCode.OK
    if not yes:
        if not sys.stdin.isatty():
            raise GluecatError("reset asks for confirmation, and there is no terminal: pass --yes")
        if not typer.confirm(f"Delete everything the sandbox of {given} holds ({found.state})?", default=False):
            stdout.print("Reset cancelled; nothing was changed.", markup=False)
            return ExitCode.ERROR
    reset_state(root)
    tables = sum(database.tables for database in found.databases)
    held = f"{counted(len(found.databases), 'database')}, {counted(tables, 'table')}"
    stdout.print(
        f"Reset the sandbox of {given}: deleted {found.state} ({held}, {counted(len(found.buckets), 'bucket')}).",
        markup=False,
    )
    return ExitCode.OK
