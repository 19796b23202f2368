"""An Iceberg REST catalog's settings in catalog.yaml (`backend: iceberg-rest`): where it answers,
its own warehouse name, and how gluecat authenticates to it. Secrets are `${env.NAME}` only."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from gluecat.model.base import Strict

ENV_REFERENCE = re.compile(r"\$\{env\.([A-Za-z_][A-Za-z0-9_]*)\}")
HTTP_URI = re.compile(r"https?://[^\s/]+(/\S*)?")
SECRET_KEYS = ("token", "client_secret")  # read from the environment when gluecat connects


def _env_reference(value: str) -> str:
    if not ENV_REFERENCE.fullmatch(value):
        raise ValueError(
            f"'{value[:3]}…' is written in the file: a secret is named, not written — use ${{env.NAME}}"
            " and set NAME in the environment"
        )
    return value


def _http_uri(value: str) -> str:
    if not HTTP_URI.fullmatch(value):
        raise ValueError(f"'{value}' is not an http(s):// URI, e.g. https://glue.us-east-1.amazonaws.com/iceberg")
    if value.rstrip("/").endswith("/v1"):
        raise ValueError(f"'{value}': give the catalog's base URI without `/v1` (clients add it)")
    return value


EnvSecret = Annotated[str, AfterValidator(_env_reference)]
HttpUri = Annotated[str, AfterValidator(_http_uri)]


class NoAuth(Strict):
    """No credentials: a catalog on a trusted network, or a local test server."""

    type: Literal["none"]


class BearerAuth(Strict):
    """A fixed token sent as `Authorization: Bearer …`."""

    type: Literal["bearer"]
    token: EnvSecret = Field(description="${env.NAME} holding the token")


class OAuth2Auth(Strict):
    """OAuth2 client credentials exchanged at the token endpoint for a bearer token (Polaris, Lakekeeper)."""

    type: Literal["oauth2"]
    client_id: str = Field(description="The client id (not secret)")
    client_secret: EnvSecret = Field(description="${env.NAME} holding the client secret")
    token_endpoint: HttpUri | None = Field(
        None, description="The OAuth2 token endpoint (default: the catalog's own, REST_URI/v1/oauth/tokens)"
    )
    scope: str | None = Field(None, description="The scope asked for (default: catalog)")


class SigV4Auth(Strict):
    """AWS SigV4 request signing with the usual AWS credentials chain (Glue's and S3 Tables' endpoints)."""

    type: Literal["sigv4"]
    signing_name: Literal["glue", "s3tables"] = Field(description="glue (Glue's /iceberg), s3tables (S3 Tables)")
    region: str | None = Field(None, description="The signing region (default: the catalog's region)")


RestAuth = Annotated[NoAuth | BearerAuth | OAuth2Auth | SigV4Auth, Field(discriminator="type")]
