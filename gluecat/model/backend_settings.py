"""Each backend's own settings in catalog.yaml, one model per backend, as one union on `backend`.

catalog.yaml writes them flat, beside the keys every backend shares (`region`, `profile`,
`endpoint_url`, `sandbox`: the AWS session and S3 that every backend's tables use): `fold` gathers
`backend` and the keys of the backends' own models into one mapping, which the union resolves by
`backend` (`glue` when absent). A key of another backend is no unknown key: `misplaced_errors` says
whose it is and what would be right, at its line. An environment's keys are resolved the same way,
with the environment's backend (its own, else the catalog's).

What the rest of gluecat reads of them is the same on every member (`address`, `scope`, `account`,
`version`, `auth`): None where the backend has no such thing, so no reader asks which backend it is.
A required address (`metastore_uri`, `rest_uri`) stays optional here: an environment may give it,
and lint and connect name it when the chosen configuration lacks it.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal, get_args

from pydantic import AfterValidator, BaseModel, Field
from pydantic_core import ErrorDetails

from gluecat.model.base import Strict
from gluecat.model.rest import HttpUri, RestAuth

THRIFT_URI = re.compile(r"thrift://[^/:\s]+:[0-9]{1,5}")


def _thrift_uri(value: str) -> str:
    if not THRIFT_URI.fullmatch(value):
        raise ValueError(f"'{value}' is not a metastore URI: use thrift://HOST:PORT, e.g. thrift://metastore:9083")
    return value


MetastoreUri = Annotated[str, AfterValidator(_thrift_uri)]
MetastoreVersion = Literal["2.3", "3.1", "4.0"]
BACKEND_DESCRIPTION = "The catalog managed: the Glue Data Catalog, a Hive Metastore, or an Iceberg REST catalog"


class _Settings(Strict):
    """What every backend's settings answer; None where the backend has no such thing."""

    @property
    def address(self) -> str | None:
        """Where the catalog answers (the registry's `address_key`); None: AWS finds it."""
        return None

    @property
    def scope(self) -> str | None:
        """What the catalog is narrowed to at that address (a REST catalog's own warehouse name)."""
        return None

    @property
    def account(self) -> str | None:
        """The AWS account whose Glue Data Catalog is managed, when another than the credentials' own."""
        return None

    @property
    def version(self) -> str | None:
        """The catalog server's version, where clients depend on it (a Hive Metastore's)."""
        return None

    @property
    def auth(self) -> RestAuth | None:
        """How gluecat and the engines authenticate to the catalog itself (beside AWS's credentials)."""
        return None


class GlueSettings(_Settings):
    """`backend: glue` (the default): the Glue Data Catalog of an AWS account."""

    backend: Literal["glue"] = Field("glue", description=BACKEND_DESCRIPTION)
    catalog_id: str | None = Field(None, description="Account id of a cross-account catalog (backend: glue)")

    @property
    def account(self) -> str | None:
        return self.catalog_id


class HiveSettings(_Settings):
    """`backend: hive`: a Hive Metastore, over Thrift."""

    backend: Literal["hive"] = Field(description=BACKEND_DESCRIPTION)
    metastore_uri: MetastoreUri | None = Field(
        None, description="thrift://host:port of the Hive Metastore (backend: hive)"
    )
    metastore_version: MetastoreVersion | None = Field(
        None,
        description="The Hive Metastore's version: which Hive client spark-conf configures"
        " (default 2.3; backend: hive)",
    )

    @property
    def address(self) -> str | None:
        return self.metastore_uri

    @property
    def version(self) -> str | None:
        return self.metastore_version


class RestSettings(_Settings):
    """`backend: iceberg-rest`: an Iceberg REST catalog."""

    backend: Literal["iceberg-rest"] = Field(description=BACKEND_DESCRIPTION)
    rest_uri: HttpUri | None = Field(
        None, description="The Iceberg REST catalog's base URI, without /v1 (backend: iceberg-rest)"
    )
    rest_warehouse: str | None = Field(
        None,
        description="The REST catalog's own warehouse name (a Polaris catalog, a Glue account id, a table bucket ARN;"
        " backend: iceberg-rest)",
    )
    rest_auth: RestAuth | None = Field(
        None,
        description="How gluecat authenticates to the REST catalog: none (default), bearer, oauth2 or sigv4"
        " (backend: iceberg-rest)",
    )

    @property
    def address(self) -> str | None:
        return self.rest_uri

    @property
    def scope(self) -> str | None:
        return self.rest_warehouse

    @property
    def auth(self) -> RestAuth | None:
        return self.rest_auth


SETTINGS: tuple[type[_Settings], ...] = (GlueSettings, HiveSettings, RestSettings)
BackendSettings = Annotated[GlueSettings | HiveSettings | RestSettings, Field(discriminator="backend")]


def backend_of(model: type[BaseModel]) -> str:
    """The `backend:` value a settings model stands for."""
    (name,) = get_args(model.model_fields["backend"].annotation)
    return str(name)


BACKEND_NAMES = tuple(backend_of(model) for model in SETTINGS)
DEFAULT_BACKEND = backend_of(GlueSettings)
# Each backend's own keys, and the backend each belongs to.
OWNERS: dict[str, str] = {
    key: backend_of(model) for model in SETTINGS for key in model.model_fields if key != "backend"
}
KEYS = ("backend", *OWNERS)  # the keys `fold` gathers
FIELD = "connection"  # where a folded model holds them


def fold(data: Any, backend: Any = DEFAULT_BACKEND) -> Any:
    """`data` (a mapping as written) with `backend` and every backend's own keys gathered under
    FIELD; `backend`, when the mapping names none, is this one. A backend's own key written empty
    (null) says nothing, whichever backend it is of: it is left out."""
    if not isinstance(data, dict) or isinstance(data.get(FIELD), BaseModel):
        return data
    own = {key: data[key] for key in KEYS if key in data and (key == "backend" or data[key] is not None)}
    own.setdefault("backend", backend)
    return {**{key: value for key, value in data.items() if key not in KEYS}, FIELD: own}


def misplaced(key: str, here: str, where: str) -> str | None:
    """Why `key` is refused where the backend is `here` (`where`: "this catalog has backend: glue",
    as the message says it), or None when it is no other backend's key."""
    owner = OWNERS.get(key)
    if owner is None or owner == here:
        return None
    return f"'{key}' is a setting of backend: {owner}; {where}: remove it, or set backend: {owner}"


def flat_loc(loc: tuple[str | int, ...]) -> tuple[str | int, ...] | None:
    """An error location inside FIELD as the file writes it (the key beside `backend`), or None
    when `loc` is not inside FIELD. The union's tag (the backend) is dropped."""
    if FIELD not in loc:
        return None
    at = loc.index(FIELD)
    return (*loc[:at], *loc[at + 2 :])


def misplaced_key(err: ErrorDetails) -> str | None:
    """The key an `extra_forbidden` error inside FIELD names, when it is another backend's."""
    loc = tuple(err["loc"])
    if err["type"] != "extra_forbidden" or FIELD not in loc or len(loc) != loc.index(FIELD) + 3:
        return None
    key = loc[-1]
    return key if isinstance(key, str) and key in OWNERS else None
