"""catalog.yaml: connection, defaults, policies and Spark settings of one catalog (Glue, a Hive Metastore or an
Iceberg REST catalog)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    Field,
    ModelWrapValidatorHandler,
    StringConstraints,
    ValidationError,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from gluecat.model.backend_settings import (
    BACKEND_NAMES,
    FIELD,
    KEYS,
    BackendSettings,
    GlueSettings,
    flat_loc,
    fold,
    misplaced,
    misplaced_key,
)
from gluecat.model.base import Strict
from gluecat.model.lakeformation import Principal, TagDefinitions, TagGrant
from gluecat.model.suggest import either


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


class SharedSettings(Strict):
    """The connection keys every backend reads: the AWS session (region, profile, role), the S3 and
    Glue endpoint, the sandbox, and the default warehouse of the tables' files."""

    region: str | None = Field(None, description="AWS region, e.g. eu-west-1")
    endpoint_url: str | None = Field(None, description="Glue endpoint override (S3's too)")
    profile: str | None = Field(None, description="AWS shared-config profile")
    role_arn: str | None = Field(None, description="Role to assume for every call")
    external_id: str | None = Field(None, description="External id for role_arn")
    warehouse: str | None = Field(None, description="Default S3 root for Iceberg/Delta tables without a location")
    sandbox: bool = Field(False, description="Run against the embedded local Glue + S3")


def _folded_errors(exc: ValidationError, data: dict[str, Any]) -> ValidationError:
    """pydantic's errors inside the folded backend settings, as the file writes the keys: at the key
    beside `backend`, a bad `backend` as that key's error, another backend's key said as such."""
    details: list[InitErrorDetails] = []
    for err in exc.errors(include_url=False):
        loc = tuple(err["loc"])
        kind, message, ctx = err["type"], err["msg"], err.get("ctx")
        flat = flat_loc(loc)
        if flat is not None and kind in ("union_tag_invalid", "union_tag_not_found"):
            loc = (*loc[: loc.index(FIELD)], "backend")
            if loc[0] == "environments" and _written(data, loc) is None:
                continue  # the catalog's own `backend`, said at its line
            expected = either(list(BACKEND_NAMES))  # as pydantic's literal_error lists them
            kind, message, ctx = "literal_error", f"Input should be {expected}", {"expected": expected}
            err["input"] = _written(data, loc)
        elif flat is not None:
            key = misplaced_key(err)
            if key is not None:
                kind, message = "backend_key", misplaced(key, str(loc[-2]), _where(data, loc, str(loc[-2]))) or message
            loc = flat
        details.append(
            InitErrorDetails(type=PydanticCustomError(kind, message, ctx), loc=loc, input=err["input"], ctx=ctx or {})
        )
    return ValidationError.from_exception_data(exc.title, details) if details else exc


def _written(data: Any, loc: tuple[str | int, ...]) -> Any:
    for part in loc:
        data = data.get(part) if isinstance(data, dict) else None
    return data


def _where(data: dict[str, Any], loc: tuple[str | int, ...], backend: str) -> str:
    """The mapping a key is in, the catalog or one of its environments, and the backend it has."""
    if loc[0] != "environments":
        return f"this catalog has backend: {backend}"
    name = loc[1]
    inherited = _written(data, ("environments", name, "backend")) is None
    return f"environment '{name}' has backend: {backend}" + (" (the catalog's)" if inherited else "")


class Environment(SharedSettings):
    """One deployment of the catalog (dev, staging, prod): connection keys it overrides, and its vars.

    A key it writes overrides the catalog's; its backend's own keys are those of its `backend`, else
    of the catalog's backend."""

    connection: BackendSettings | None = Field(
        None, description="This environment's backend and its own keys (None: the catalog's, as they are)"
    )
    vars: dict[VarName, str] = Field(
        default_factory=dict, description="Values for ${var.NAME}, added to or overriding the catalog's vars"
    )

    @model_validator(mode="before")
    @classmethod
    def _fold(cls, data: Any) -> Any:
        """Alone (not in a catalog, which folds with its own backend), a backend's keys with glue's."""
        if not isinstance(data, dict) or FIELD in data or not any(key in data for key in KEYS):
            return data
        return fold(data)

    def overrides(self) -> dict[str, Any]:
        """The shared connection keys this environment writes (null overrides nothing)."""
        return {
            key: getattr(self, key)
            for key in SharedSettings.model_fields
            if key in self.model_fields_set and getattr(self, key) is not None
        }


class CatalogConfig(SharedSettings):
    """One catalog: its backend and connection, defaults, policies and environments."""

    connection: BackendSettings = Field(
        default_factory=lambda: GlueSettings(),
        description="`backend` and its own keys, written flat beside the others",
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

    @model_validator(mode="wrap")
    @classmethod
    def _fold(cls, data: Any, handler: ModelWrapValidatorHandler[CatalogConfig]) -> CatalogConfig:
        """The flat keys as written gathered into `connection`, the catalog's and each environment's
        (whose backend, unless it names one, is the catalog's); errors there said at those keys."""
        if not isinstance(data, dict) or isinstance(data.get(FIELD), BaseModel):
            return handler(data)
        _refuse_written_field(data)
        folded = fold(data)
        environments = folded.get("environments")
        if isinstance(environments, dict):
            backend = folded[FIELD]["backend"]
            folded["environments"] = {
                name: fold(_without_nulls(env), backend) if isinstance(env, dict) else env
                for name, env in environments.items()
            }
        try:
            return handler(folded)
        except ValidationError as exc:
            raise _folded_errors(exc, data) from None

    @property
    def backend(self) -> str:
        """The catalog managed (`backend:`): what it holds and can do is the registry's to say."""
        return self.connection.backend


def _refuse_written_field(data: dict[str, Any]) -> None:
    """`connection` is where the model keeps the backend's keys, not a key of the file."""
    environments = data.get("environments")
    written: list[tuple[str | int, ...]] = [(FIELD,)] if FIELD in data else []
    if isinstance(environments, dict):
        written += [
            ("environments", name, FIELD)
            for name, env in environments.items()
            if isinstance(env, dict) and FIELD in env
        ]
    if written:
        details = [InitErrorDetails(type="extra_forbidden", loc=loc, input=_written(data, loc)) for loc in written]
        raise ValidationError.from_exception_data(CatalogConfig.__name__, details)


def _without_nulls(environment: dict[str, Any]) -> dict[str, Any]:
    """An environment's null overrides nothing (its key keeps the catalog's value)."""
    nullable = {"backend", *SharedSettings.model_fields}
    return {key: value for key, value in environment.items() if value is not None or key not in nullable}
