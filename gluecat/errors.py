"""The exception tree. Every error a user can cause is a GluecatError."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


class GluecatError(Exception):
    """Base of every error gluecat reports to a user as one clear line."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) carrying what was done by then, for the line the command ends with."""


@dataclass(frozen=True)
class SourcePosition:
    """A place in a YAML file, 1-based like editors count."""

    path: Path
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


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


class ConflictError(GluecatError):
    """A live object changed between plan and apply."""


class PlanError(GluecatError):
    """A change the planner refuses to make."""
