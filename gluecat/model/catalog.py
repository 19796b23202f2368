"""catalog.yaml: connection, defaults, policies and Spark settings of one catalog (Glue, a Hive Metastore or an
Iceberg REST catalog)."""

from __future__ import annotations

import re
from typing import Annotated, Literal, get_args

from pydantic import AfterValidator, Field, StringConstraints

from gluecat.model.base import Strict
from gluecat.model.lakeformation import Principal, TagDefinitions, TagGrant
from gluecat.model.rest import HttpUri, RestAuth
from gluecat.model.suggest import either

Backend = Literal["glue", "hive", "iceberg-rest"]
THRIFT_URI = re.compile(r"thrift://[^/:\s]+:[0-9]{1,5}")


def _thrift_uri(value: str) -> str:
    if not THRIFT_URI.fullmatch(value):
        raise ValueError(f"'{value}' is not a metastore URI: use thrift://HOST:PORT, e.g. thrift://metastore:9083")
    return value


MetastoreUri = Annotated[str, AfterValidator(_thrift_uri)]
MetastoreVersion = Literal["2.3", "3.1", "4.0"]


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


def _each_once(readers: list[str]) -> list[str]:
    twice = [name for index, name in enumerate(readers) if name in readers[:index]]
    if twice:
        raise ValueError(f"`readers` names {either(list(dict.fromkeys(twice)))} more than once: list each engine once")
    return readers


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
    backend: Backend | None = Field(
        None, description="The catalog this environment manages: glue, hive or iceberg-rest"
    )
    metastore_uri: MetastoreUri | None = Field(
        None, description="thrift://host:port of this environment's Hive Metastore"
    )
    metastore_version: MetastoreVersion | None = Field(None, description="The Hive Metastore's version (2.3, 3.1, 4.0)")
    rest_uri: HttpUri | None = Field(None, description="This environment's Iceberg REST catalog base URI (no /v1)")
    rest_warehouse: str | None = Field(None, description="This environment's REST catalog warehouse name")
    rest_auth: RestAuth | None = Field(None, description="How gluecat authenticates to this environment's REST catalog")
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
    backend: Backend = Field(
        "glue", description="The catalog managed: the Glue Data Catalog, a Hive Metastore, or an Iceberg REST catalog"
    )
    metastore_uri: MetastoreUri | None = Field(
        None, description="thrift://host:port of the Hive Metastore (backend: hive)"
    )
    metastore_version: MetastoreVersion | None = Field(
        None, description="The Hive Metastore's version: which Hive client spark-conf configures (default 2.3)"
    )
    rest_uri: HttpUri | None = Field(
        None, description="The Iceberg REST catalog's base URI, without /v1 (backend: iceberg-rest)"
    )
    rest_warehouse: str | None = Field(
        None,
        description="The REST catalog's own warehouse name (a Polaris catalog, a Glue account id, a table bucket ARN)",
    )
    rest_auth: RestAuth | None = Field(
        None, description="How gluecat authenticates to the REST catalog: none (default), bearer, oauth2 or sigv4"
    )
    prune: bool = Field(
        False,
        description="Plan deletion of live tables/partitions absent from YAML in managed databases",
    )
    skip_archive: bool = Field(
        False, description="true: table updates keep no archived version in Glue (SkipArchive); a table may override"
    )
    ignore_parameters: list[str] = Field(
        default_factory=list, description="Parameter keys (glob patterns) that engines own"
    )
    write_concurrency: int = Field(
        8, ge=1, le=32, description="Partition batches of one table apply sends at once (1: one after another)"
    )
    spark: SparkSettings = Field(default_factory=lambda: SparkSettings())
    policy: Policy = Field(default_factory=lambda: Policy())
    readers: Annotated[list[Engine], AfterValidator(_each_once)] = Field(
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
    lf_tags: TagDefinitions | None = Field(None, description="Lake Formation LF-tag keys and their allowed values")
    data_lake_admins: list[Principal] | None = Field(
        None, description="Lake Formation's data lake administrators; present: gluecat owns the list"
    )
    tag_grants: list[TagGrant] | None = Field(
        None, description="Lake Formation grants by LF-tag expression; present: gluecat owns every such grant"
    )
    docs_url: str | None = Field(
        None,
        description="Where the `gluecat docs` site is published (https://...): markdown plans link each changed table"
        " and database to its page",
    )
