"""`lint: {allow: [rule, ...]}`: the reviewable exceptions of an adopted database or table."""

from __future__ import annotations

from pydantic import Field

from gluecat.model.base import Strict


class LintPolicy(Strict):
    allow: list[str] = Field(
        default_factory=list,
        description="Lint rules this object is excused from (one adopted as Glue already holds it)",
    )
