"""The command group: usage errors exit 1 in one line, `-h` and `--version` everywhere.

click exits 2 on usage errors, but under `plan --detailed-exitcode` 2 means
"changes present" and CI trusts it, so the group runs click in non-standalone
mode and reports click's exceptions itself.
"""

from __future__ import annotations

import copy
import re
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperGroup

from gluecat.errors import ExitCode

try:  # newer typer releases carry their own copy of click
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover - older typer runs on click itself
    from click import exceptions as click_errors  # type: ignore[no-redef]

UsageError = click_errors.UsageError  # what a command raises for a usage error the group reports

HELP_OPTIONS = ["-h", "--help"]
VERSION_OPTION = "version"  # the name of the app callback's --version parameter
DEBUG_OPTION = "debug"
DEBUG = {"on": False}  # --debug, given before or after the command name


# What other tools call an option this one has: no spelling distance finds them.
SYNONYMS = {
    "--yes": ("--auto-approve",),
    "-y": ("--auto-approve", "--yes"),
    "--assume-yes": ("--auto-approve", "--yes"),
}
_NOT_ONE_OF = re.compile(r"(?:Value error, )?'(?P<value>(?:[^'\\]|\\.)*)' is not one of (?P<choices>.*)\.$")
_QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'")


def _usage_line(exc: click_errors.UsageError) -> str:
    message = _did_you_mean(exc)
    if exc.ctx is None:
        return message
    return f"{message} (see `{exc.ctx.command_path} --help`)"


def _did_you_mean(exc: click_errors.UsageError) -> str:
    """click's message, naming every option or value as close as the closest (click names the
    options within difflib's reach, so `--yes` was offered `--env`), without pydantic's wording."""
    from gluecat.model.suggest import closest, either

    if isinstance(exc, click_errors.NoSuchOption) and exc.ctx is not None:
        given = exc.option_name
        options = [name for param in exc.ctx.command.params for name in (*param.opts, *param.secondary_opts)]
        meant = (
            [name for name in SYNONYMS.get(given, ()) if name in options]
            or [name for name in options if name.startswith(given) and len(given.lstrip("-")) >= 2]  # cut short
            or closest(given, options)
        )
        return f"No such option: {given}" + (f" — did you mean {either(meant, quote='')}?" if meant else "")
    if isinstance(exc, click_errors.BadParameter):
        from gluecat.text.plain import pydantic_plain

        exc.message = pydantic_plain(exc.message)
        found = _NOT_ONE_OF.match(exc.message)
        if found:
            choices = _QUOTED.findall(found["choices"])
            meant = closest(found["value"], choices)
            hint = f" — did you mean {either(meant)}?" if meant else ""
            exc.message = f"'{found['value']}' is not one of {either(choices)}{hint}"
    return exc.format_message()


def _debug_given(_context: Any, _param: Any, value: bool) -> bool:
    if value:
        DEBUG["on"] = True
    return value


class GluecatGroup(TyperGroup):
    """Every command accepts the app's `--version`; click's errors become exit 1 with one line."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in [p for p in self.params if p.name in (VERSION_OPTION, DEBUG_OPTION)]:
            for command in self.commands.values():
                shared = copy.copy(param)
                shared.expose_value = False  # the command functions do not take it
                if param.name == DEBUG_OPTION:
                    shared.callback = _debug_given
                command.params.append(shared)

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        code = self._run(args, prog_name, complete_var, **extra)
        if standalone_mode:
            sys.exit(code)
        return code

    def _run(self, args: Sequence[str] | None, prog_name: str | None, complete_var: str | None, **extra: Any) -> int:
        from gluecat.cli import output

        try:
            result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click_errors.NoArgsIsHelpError as exc:  # the group's help, as the message
            exc.show()
            return ExitCode.ERROR
        except click_errors.UsageError as exc:
            output.error(_usage_line(exc))
            return ExitCode.ERROR
        except click_errors.ClickException as exc:
            output.error(exc.format_message())
            return ExitCode.ERROR
        except typer.Abort:
            output.error("aborted")
            return ExitCode.ERROR
        return result if isinstance(result, int) else ExitCode.OK
