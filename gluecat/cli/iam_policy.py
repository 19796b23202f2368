"""`gluecat iam-policy`: the IAM policy a project's commands need, scoped to what it touches."""

from __future__ import annotations

from pathlib import Path

from gluecat.backends.policy import Command, project_policy
from gluecat.cli.output import stdout
from gluecat.errors import ExitCode


def iam_policy_command(root: Path, commands: tuple[Command, ...], env: str | None) -> int:
    stdout.print(project_policy(root, commands, env), markup=False, soft_wrap=True)
    return ExitCode.OK
