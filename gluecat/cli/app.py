"""Typer commands: each is a few lines over the core; one handler maps errors to exit codes."""

from __future__ import annotations

import re
import sys
import traceback
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from gluecat.cli import output
from gluecat.cli.interrupt import sigterm_interrupts
from gluecat.cli.usage import DEBUG, HELP_OPTIONS, GluecatGroup
from gluecat.errors import ExitCode, GluecatError, Interrupted
from gluecat.project import gcpause
from gluecat.text.plain import strip_ansi

if TYPE_CHECKING:
    from gluecat.project.targets import Targets

app = typer.Typer(
    name="gluecat",
    help="Catalog-as-code for the AWS Glue Data Catalog.",
    cls=GluecatGroup,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": HELP_OPTIONS},
)

CatalogDir = Annotated[
    Path,
    typer.Argument(help="The catalog project directory (holds catalog.yaml)"),
]


EnvOption = Annotated[
    str | None,
    typer.Option("--env", envvar="GLUECAT_ENV", help="The environment of catalog.yaml to use (dev, prod, ...)"),
]


class ValidateFormat(StrEnum):
    human = "human"
    json = "json"


def _print_version(value: bool) -> None:
    if value:
        from gluecat import __version__

        typer.echo(f"gluecat {__version__}")
        raise typer.Exit(ExitCode.OK)


@app.callback()
def main(
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks on errors")] = False,
    version: Annotated[
        bool, typer.Option("--version", callback=_print_version, is_eager=True, help="Show the version and exit")
    ] = False,
) -> None:
    DEBUG["on"] = debug  # reset per run; `--debug` after the command name sets it again


def run(command: Callable[[], int], show_secrets: bool = False) -> None:
    """Run a command body: GluecatError -> one red line and exit 1; never a traceback.

    Everything it prints passes a secret scrubber, unless the user asked to see secrets."""
    gcpause.started()
    with (
        output.scrubbed_streams(enabled=not show_secrets),
        output.library_logging_kept_quiet(enabled=not DEBUG["on"]),
        sigterm_interrupts(),
    ):
        _run(command)


def _run(command: Callable[[], int]) -> None:
    try:
        code = command()
    except GluecatError as exc:
        _debug_traceback()
        output.error(strip_ansi(str(exc)))
        raise typer.Exit(ExitCode.ERROR) from None
    except KeyboardInterrupt as exc:
        output.error(f"interrupted: {exc}" if isinstance(exc, Interrupted) else "interrupted")
        raise typer.Exit(ExitCode.INTERRUPTED) from None
    except Exception as exc:
        _debug_traceback()
        output.error(strip_ansi(_explain(exc)))
        raise typer.Exit(ExitCode.ERROR) from None
    raise typer.Exit(code)


def _debug_traceback() -> None:
    if DEBUG["on"]:
        from gluecat.secrets.redact import scrub

        sys.stderr.write(scrub(traceback.format_exc()))


def _explain(exc: Exception) -> str:
    from gluecat.backends.aws import explain

    return explain(exc) or f"unexpected error: {exc!r} (run with --debug for details)"


@app.command()
def validate(
    catalog_dir: CatalogDir = Path("."),
    output_format: Annotated[ValidateFormat, typer.Option("--format", help="human or json")] = ValidateFormat.human,
    env: EnvOption = None,
) -> None:
    """Offline: parse, type-check and lint. Exit 0 when clean, 1 on errors."""
    from gluecat.cli.validate import validate as run_validate

    run(lambda: run_validate(catalog_dir, output_format.value, env))


class FailOn(StrEnum):
    breaking = "breaking"
    destructive = "destructive"


class PlanFormat(StrEnum):
    human = "human"
    json = "json"
    markdown = "markdown"


TargetOption = Annotated[
    list[str] | None,
    typer.Option("--target", help="Limit to a database (sales) or a table (sales.orders); repeatable"),
]
ChangedSinceOption = Annotated[
    str | None,
    typer.Option(
        "--changed-since",
        metavar="REF",
        help="Plan only what the YAML changed since this git ref (e.g. origin/main); nothing else is read",
    ),
]


def _targets(path: Path, target: list[str] | None, changed_since: str | None) -> Targets:
    from gluecat.project.targets import Targets

    if changed_since is None:
        return Targets.parse(target)
    if target:
        raise GluecatError("--target and --changed-since each choose what to plan: give one of them")
    if path.is_file():
        raise GluecatError(f"{path} is a saved plan: it applies as it was planned, without --changed-since")
    from gluecat.project.changed import changed_since as changed
    from gluecat.project.root import project_root

    return changed(project_root(path), changed_since)


@app.command()
def plan(
    catalog_dir: CatalogDir = Path("."),
    output_format: Annotated[PlanFormat, typer.Option("--format", help="human, json or markdown")] = PlanFormat.human,
    out: Annotated[Path | None, typer.Option("--out", help="Save the plan for `gluecat apply FILE`")] = None,
    detailed_exitcode: Annotated[
        bool, typer.Option("--detailed-exitcode", help="Exit 0 no changes, 1 error, 2 changes present")
    ] = False,
    target: TargetOption = None,
    fail_on: Annotated[
        FailOn | None,
        typer.Option("--fail-on", help="Exit 1 after printing when a change reaches this impact (CI gate)"),
    ] = None,
    env: EnvOption = None,
    changed_since: ChangedSinceOption = None,
) -> None:
    """Diff the YAML against the live catalog and print what apply would change."""
    from gluecat.cli.planning import plan_command

    gate = fail_on.value if fail_on else None
    run(
        lambda: plan_command(
            catalog_dir, output_format.value, out, detailed_exitcode, _targets(catalog_dir, target, changed_since),
            gate, env,
        )
    )  # fmt: skip


@app.command()
def apply(
    catalog_dir_or_plan: Annotated[
        Path, typer.Argument(help="A catalog project directory, or a plan file saved by `plan --out`")
    ] = Path("."),
    auto_approve: Annotated[bool, typer.Option("--auto-approve", help="Do not ask for confirmation")] = False,
    allow_destroy: Annotated[
        bool, typer.Option("--allow-destroy", help="Permit deleting or replacing tables and partitions")
    ] = False,
    target: TargetOption = None,
    env: EnvOption = None,
    allow_revoke: Annotated[
        bool, typer.Option("--allow-revoke", help="Permit revoking Lake Formation grants or removing LF-tags")
    ] = False,
    changed_since: ChangedSinceOption = None,
) -> None:
    """Carry out a fresh plan (asks first unless --auto-approve), or exactly a saved one."""
    from gluecat.cli.planning import apply_command

    run(
        lambda: apply_command(
            catalog_dir_or_plan, auto_approve, allow_destroy, _targets(catalog_dir_or_plan, target, changed_since),
            env, allow_revoke,
        )
    )  # fmt: skip


# spark.jars.packages takes group:artifact:version (a classifier after a fourth colon).
MAVEN_COORDINATE = re.compile(r"^[\w.-]+:[\w.-]+:[\w.+-]+(:[\w.-]+)?$")


class SparkFormat(StrEnum):
    conf = "conf"
    json = "json"
    pyspark = "pyspark"
    emr = "emr"
    glue_job = "glue-job"
    trino = "trino"
    ddl = "ddl"


@app.command("spark-conf")
def spark_conf(
    catalog_dir: CatalogDir = Path("."),
    output_format: Annotated[SparkFormat, typer.Option("--format", help="Output format")] = SparkFormat.conf,
    spark_version: Annotated[
        str | None, typer.Option("--spark-version", help="3.4, 3.5 or 4.0 (default: catalog.yaml spark.spark_version)")
    ] = None,
    packages: Annotated[
        str | None, typer.Option("--packages", help="Comma-separated Maven coordinates replacing the matched ones")
    ] = None,
    endpoint: Annotated[
        str | None, typer.Option("--endpoint", help="Glue/S3 endpoint (default: catalog.yaml, or the sandbox's)")
    ] = None,
    show_secrets: Annotated[
        bool, typer.Option("--show-secrets", help="Print secret values instead of masking them")
    ] = False,
    env: EnvOption = None,
) -> None:
    """Print the Spark configuration the catalog's tables need (spark-defaults.conf by default)."""
    from gluecat.cli.spark import spark_conf_command

    package_list = [p.strip() for p in packages.split(",") if p.strip()] if packages is not None else None

    def command() -> int:
        for coordinate in package_list or []:
            if not MAVEN_COORDINATE.match(coordinate):
                raise GluecatError(
                    f"--packages: '{coordinate}' is not a Maven coordinate; write group:artifact:version"
                    " (io.delta:delta-spark_2.13:4.0.0), several separated by commas"
                )
        return spark_conf_command(
            catalog_dir, output_format.value, spark_version, package_list, endpoint, show_secrets, env
        )

    run(command, show_secrets=show_secrets)


@app.command("import")
def import_(
    catalog_dir: CatalogDir = Path("."),
    database: Annotated[list[str] | None, typer.Option("--database", help="Only this database; repeatable")] = None,
    table: Annotated[list[str] | None, typer.Option("--table", help="Only this table (db.table); repeatable")] = None,
    partitions: Annotated[
        bool, typer.Option("--partitions", help="Also write partitions (folded into ranges)")
    ] = False,
    force: Annotated[bool, typer.Option("--force", help="Overwrite files that differ")] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Say, file by file, what import would write; write nothing")
    ] = False,
    env: EnvOption = None,
) -> None:
    """Write YAML for live databases and tables, so that the next plan shows no changes."""
    from gluecat.adopt.importing import Selection
    from gluecat.cli.importing import import_command

    selection = Selection(tuple(database or ()), tuple(table or ()), partitions)
    run(lambda: import_command(catalog_dir, selection, force, env, dry_run))


class PolicyCommand(StrEnum):
    plan = "plan"
    apply = "apply"
    import_ = "import"


@app.command("iam-policy")
def iam_policy(
    catalog_dir: CatalogDir = Path("."),
    command: Annotated[
        list[PolicyCommand] | None,
        typer.Option("--command", help="Only what this command needs: plan, apply or import; repeatable"),
    ] = None,
    env: EnvOption = None,
) -> None:
    """Print the IAM policy (JSON) the project's plan, apply and import need, scoped to its catalog."""
    from gluecat.cli.iam_policy import iam_policy_command

    chosen = tuple(c.value for c in command or ())
    run(lambda: iam_policy_command(catalog_dir, chosen, env))  # type: ignore[arg-type]


@app.command()
def environments(
    root: Annotated[Path, typer.Argument(help="A catalog project, or a directory of them")] = Path("catalogs"),
    as_json: Annotated[bool, typer.Option("--json", help='A CI matrix: {"include": [...]}')] = False,
) -> None:
    """List every catalog and environment (one row per plan a CI job runs)."""
    from gluecat.cli.environments import environments_command

    run(lambda: environments_command(root, as_json))


class DocsFormat(StrEnum):
    html = "html"
    json = "json"


@app.command()
def docs(
    catalog_dir: CatalogDir = Path("."),
    out: Annotated[
        Path | None,
        typer.Option("--out", help="html: the site's folder (default: site); json: a file (default: stdout)"),
    ] = None,
    output_format: Annotated[
        DocsFormat, typer.Option("--format", help="html (a static site) or json")
    ] = DocsFormat.html,
    live: Annotated[
        bool,
        typer.Option("--live", help="Add what the live catalog knows: partition counts, versions, undeclared objects"),
    ] = False,
    env: EnvOption = None,
) -> None:
    """Write the catalog as a static site (tables, columns, partitions, access, view lineage, search)."""
    from gluecat.cli.docs import docs_command

    run(lambda: docs_command(catalog_dir, out, output_format.value, live, env))


from gluecat.cli import history as _history  # noqa: E402, F401  (its module registers history, rollback, prune-versions)
from gluecat.cli import init as _init  # noqa: E402, F401  (its module registers `gluecat init` on this app)
from gluecat.cli import sandbox as _sandbox  # noqa: E402, F401  (its module registers `gluecat sandbox` on this app)
