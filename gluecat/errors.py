"""The exception tree (every error a user can cause is a GluecatError) and the exit codes commands end with."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path


class GluecatError(Exception):
    """Base of every error gluecat reports to a user as one clear line."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) carrying what was done by then, for the line the command ends with."""


@dataclass(frozen=True)
class SourcePosition:
    """A place in a YAML file, 1-based like editors count; line 0 is the file as a whole (one that
    is missing has no line to point at)."""

    path: Path
    line: int
    column: int

    @classmethod
    def whole(cls, path: Path) -> SourcePosition:
        return cls(path, 0, 0)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}" if self.line else str(self.path)


class SpecError(GluecatError):
    """Bad input in a YAML file, at a known position."""

    def __init__(self, position: SourcePosition, message: str) -> None:
        super().__init__(f"{position}: {message}")
        self.position = position
        self.message = message


class SpecErrors(GluecatError):
    """Several SpecErrors found while loading a catalog project."""

    def __init__(self, errors: list[SpecError]) -> None:
        super().__init__("\n".join(str(e) for e in errors))
        self.errors = errors


class LiveStateError(GluecatError):
    """Glue (or S3) answered with something we cannot work with."""


class UnreachableError(LiveStateError):
    """Glue did not answer at all (refused, unknown host, timed out): nothing more can be sent."""


class AccessDeniedError(LiveStateError):
    """AWS refused a call for want of an IAM permission: `action` names it (glue:GetTables)."""

    def __init__(self, action: str, message: str) -> None:
        super().__init__(message)
        self.action = action


class ConflictError(GluecatError):
    """A live object changed between plan and apply."""


class PlanError(GluecatError):
    """A change the planner refuses to make."""


# Every command exits with one of these: one table with names (the documentation's is made from EXIT_MEANINGS).
class ExitCode(IntEnum):
    OK = 0
    ERROR = 1
    CHANGES = 2
    INTERRUPTED = 130


EXIT_MEANINGS: dict[ExitCode, str] = {
    ExitCode.OK: "success; for `plan --detailed-exitcode`, no changes",
    ExitCode.ERROR: (
        "an error (bad input, AWS error, refused or failed apply), one clear message, never a traceback"
        " (`gluecat --debug ...` shows one)"
    ),
    ExitCode.CHANGES: "`plan --detailed-exitcode`: changes present",
    ExitCode.INTERRUPTED: (
        "interrupted (Ctrl-C or SIGTERM): any command; apply and prune-versions first finish the calls in"
        " flight and say what was done — re-run them to finish"
    ),
}


def exit_code_table() -> str:
    """The documentation's table of exit codes (docs/reference/exit-codes.md)."""
    rows = [f"| {int(code)} | {EXIT_MEANINGS[code]} |" for code in ExitCode]
    return "\n".join(["| code | meaning |", "| --- | --- |", *rows])
