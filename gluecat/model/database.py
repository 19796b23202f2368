"""database.yaml: one Glue database."""

from __future__ import annotations

from pydantic import Field

from gluecat.model.base import Description, Location, ObjectName, Parameters, Strict


class Database(Strict):
    name: ObjectName = Field(description="Database name; equals its directory name")
    description: Description | None = None
    location: Location | None = Field(None, description="S3 URI; Spark needs it to create tables")
    parameters: Parameters = Field(default_factory=dict)
