"""database.yaml: one Glue database."""

from __future__ import annotations

from pydantic import Field

from gluecat.model.base import Description, Location, ObjectName, Parameters, Strict
from gluecat.model.lakeformation import Grant, TagAssignments
from gluecat.model.lint_policy import LintPolicy


class Database(Strict):
    name: ObjectName = Field(description="Database name; equals its directory name")
    description: Description | None = None
    location: Location | None = Field(None, description="S3 URI; Spark needs it to create tables")
    parameters: Parameters = Field(default_factory=dict)
    lint: LintPolicy | None = Field(None, description="Exceptions to lint rules, kept visible for review")
    lf_tags: TagAssignments | None = Field(None, description="Lake Formation LF-tags assigned to the database")
    grants: list[Grant] | None = Field(
        None, description="Lake Formation grants on the database; present: gluecat owns the database's grants"
    )
