"""catalog.yaml: connection, defaults, policies and Spark settings of one Glue catalog."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from gluecat.model.base import Strict


class SparkSettings(Strict):
    """Options for `gluecat spark-conf`."""

    catalog_name: str = Field("glue", description="Spark catalog name for Iceberg tables")
    spark_version: str = Field("3.5", description="Spark version the jars are matched to")
    iceberg_version: str | None = Field(None, description="Iceberg runtime version override")
    delta_version: str | None = Field(None, description="Delta Lake version override")


class Policy(Strict):
    """Rules the plan is held to in review and CI."""

    fail_on: Literal["breaking", "destructive"] | None = Field(
        None, description="plan exits 1 when any change reaches this impact (as `plan --fail-on`)"
    )


class CatalogConfig(Strict):
    """One Glue Data Catalog: an account and a region."""

    region: str | None = Field(None, description="AWS region, e.g. eu-west-1")
    catalog_id: str | None = Field(None, description="Account id of a cross-account catalog")
    endpoint_url: str | None = Field(None, description="Glue endpoint override")
    profile: str | None = Field(None, description="AWS shared-config profile")
    role_arn: str | None = Field(None, description="Role to assume for every call")
    external_id: str | None = Field(None, description="External id for role_arn")
    warehouse: str | None = Field(None, description="Default S3 root for Iceberg/Delta tables without a location")
    sandbox: bool = Field(False, description="Run against the embedded local Glue + S3")
    prune: bool = Field(
        False,
        description="Plan deletion of live tables/partitions absent from YAML in managed databases",
    )
    ignore_parameters: list[str] = Field(
        default_factory=list, description="Parameter keys (glob patterns) that engines own"
    )
    spark: SparkSettings = Field(default_factory=lambda: SparkSettings())
    policy: Policy = Field(default_factory=lambda: Policy())
