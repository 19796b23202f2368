"""catalog.yaml: connection, defaults, policies and Spark settings of one Glue catalog."""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import Field, StringConstraints

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


Engine = Literal["athena", "trino", "spark"]
VarName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")]


class Environment(Strict):
    """One deployment of the catalog (dev, staging, prod): connection keys it overrides, and its vars."""

    region: str | None = Field(None, description="AWS region of this environment")
    catalog_id: str | None = Field(None, description="Account id of this environment's catalog")
    endpoint_url: str | None = Field(None, description="Glue endpoint override")
    profile: str | None = Field(None, description="AWS shared-config profile")
    role_arn: str | None = Field(None, description="Role to assume for every call")
    external_id: str | None = Field(None, description="External id for role_arn")
    warehouse: str | None = Field(None, description="Default S3 root for Iceberg/Delta tables without a location")
    sandbox: bool | None = Field(None, description="Run against the embedded local Glue + S3")
    vars: dict[VarName, str] = Field(
        default_factory=dict, description="Values for ${var.NAME}, added to or overriding the catalog's vars"
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
    readers: list[Engine] = Field(
        default_factory=lambda: list(get_args(Engine)),
        min_length=1,
        description="The engines that read this catalog: the breaking-change gate counts only what breaks them",
    )
    vars: dict[VarName, str] = Field(
        default_factory=dict, description="Values for ${var.NAME} in database and table files"
    )
    environments: dict[str, Environment] = Field(
        default_factory=dict, description="Named deployments (dev, prod), each overriding connection keys and vars"
    )
    default_env: str | None = Field(None, description="The environment used when --env and GLUECAT_ENV are absent")
