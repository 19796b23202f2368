"""Engines on an Iceberg REST catalog (`backend: iceberg-rest`): Spark's Iceberg catalog with
`type=rest`, and Trino's Iceberg connector with `iceberg.catalog.type=rest`.

Both reach the catalog at `rest_uri` (`rest_warehouse` is the catalog's own warehouse name) and
read and write the tables' files themselves through S3, at `endpoint_url` when the project sets
one, with the usual AWS credentials chain, as the Glue formats do: no S3 key is written. The
catalog's own credentials follow `rest_auth`. Trino's files name a secret by reference
(`${ENV:NAME}`, which Trino resolves when it loads the catalog), so printing them needs no secret;
Spark has no such reference, so Spark's settings carry the value read from the environment, masked
unless --show-secrets.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from gluecat.errors import GluecatError
from gluecat.model.catalog import CatalogConfig
from gluecat.model.rest import ENV_REFERENCE, BearerAuth, OAuth2Auth, RestAuth, SigV4Auth
from gluecat.secrets import redact
from gluecat.secrets import values as secret_values

S3_FILE_IO = "org.apache.iceberg.aws.s3.S3FileIO"


@dataclass(frozen=True)
class RestEngine:
    """What an engine needs to reach one REST catalog and its tables' files."""

    uri: str
    warehouse: str | None
    auth: RestAuth | None
    region: str | None
    endpoint: str | None  # the S3 endpoint for data and metadata files (None: AWS's)
    nested: bool  # some namespace is nested (`a.b`)

    def token_endpoint(self) -> str | None:
        if isinstance(self.auth, OAuth2Auth):
            return self.auth.token_endpoint or f"{self.uri.rstrip('/')}/v1/oauth/tokens"
        return None

    def signing_region(self) -> str:
        region = self.auth.region if isinstance(self.auth, SigV4Auth) else None
        region = region or self.region
        if not region:
            raise GluecatError("rest_auth: sigv4 needs a region for the engines: set `region` or rest_auth.region")
        return region


def rest_engine(config: CatalogConfig, databases: list[str], endpoint: str | None) -> RestEngine:
    settings = config.connection
    assert settings.address is not None, "lint requires the REST catalog's address before spark-conf"
    nested = any("." in name for name in databases)
    return RestEngine(settings.address, settings.scope, settings.auth, config.region, endpoint, nested)


def _variable(reference: str) -> str:
    match = ENV_REFERENCE.fullmatch(reference)
    assert match is not None, "the model admits ${env.NAME} alone"
    return match.group(1)


def _value(reference: str, key: str, secrets: bool) -> str:
    """A secret's value for Spark, read from the environment now and remembered as a secret (or,
    when the output is Trino's, which names it, the reference as written)."""
    if not secrets:
        return reference
    name = _variable(reference)
    value = os.environ.get(name)
    if not value:
        raise GluecatError(
            f"environment variable {name} is not set (rest_auth.{key} names it): Spark's settings carry"
            " its value; set it, or use --format trino, whose files name it instead"
        )
    secret_values.register(name, value)
    redact.remember(value)
    return value


def spark_catalog(name: str, engine: RestEngine, secrets: bool = True) -> tuple[dict[str, str], frozenset[str]]:
    """Spark's Iceberg catalog `name` on the REST catalog, and the keys whose values are not
    secret however they are named (an OAuth2 server URI)."""
    prefix = f"spark.sql.catalog.{name}"
    conf = {prefix: "org.apache.iceberg.spark.SparkCatalog", f"{prefix}.type": "rest", f"{prefix}.uri": engine.uri}
    if engine.warehouse:
        conf[f"{prefix}.warehouse"] = engine.warehouse
    conf[f"{prefix}.io-impl"] = S3_FILE_IO
    if engine.region:
        conf[f"{prefix}.client.region"] = engine.region
    if engine.endpoint:
        conf[f"{prefix}.s3.endpoint"] = engine.endpoint
        conf[f"{prefix}.s3.path-style-access"] = "true"
    auth = engine.auth
    public: set[str] = set()
    if isinstance(auth, BearerAuth):
        conf[f"{prefix}.token"] = _value(auth.token, "token", secrets)
    elif isinstance(auth, OAuth2Auth):
        conf[f"{prefix}.credential"] = f"{auth.client_id}:{_value(auth.client_secret, 'client_secret', secrets)}"
        conf[f"{prefix}.oauth2-server-uri"] = str(engine.token_endpoint())
        conf[f"{prefix}.scope"] = auth.scope or "catalog"
        public.add(f"{prefix}.oauth2-server-uri")
    elif isinstance(auth, SigV4Auth):
        conf[f"{prefix}.rest.sigv4-enabled"] = "true"
        conf[f"{prefix}.rest.signing-name"] = auth.signing_name
        conf[f"{prefix}.rest.signing-region"] = engine.signing_region()
    return conf, frozenset(public)


def trino_catalog(engine: RestEngine) -> list[str]:
    """Trino's Iceberg connector on the REST catalog (Trino 476's property names), its files read
    through Trino's native S3 file system."""
    lines = ["connector.name=iceberg", "iceberg.catalog.type=rest", f"iceberg.rest-catalog.uri={engine.uri}"]
    if engine.warehouse:
        lines.append(f"iceberg.rest-catalog.warehouse={engine.warehouse}")
    if engine.nested:  # Trino reads one namespace level unless told
        lines.append("iceberg.rest-catalog.nested-namespace-enabled=true")
    auth = engine.auth
    region = engine.region
    if isinstance(auth, BearerAuth):
        token = f"${{ENV:{_variable(auth.token)}}}"
        lines += ["iceberg.rest-catalog.security=OAUTH2", f"iceberg.rest-catalog.oauth2.token={token}"]
    elif isinstance(auth, OAuth2Auth):
        lines += [
            "iceberg.rest-catalog.security=OAUTH2",
            f"iceberg.rest-catalog.oauth2.credential={auth.client_id}:${{ENV:{_variable(auth.client_secret)}}}",
            f"iceberg.rest-catalog.oauth2.server-uri={engine.token_endpoint()}",
            f"iceberg.rest-catalog.oauth2.scope={auth.scope or 'catalog'}",
        ]
    elif isinstance(auth, SigV4Auth):  # Trino signs for the region its S3 settings name
        region = engine.signing_region()
        lines += ["iceberg.rest-catalog.sigv4-enabled=true", f"iceberg.rest-catalog.signing-name={auth.signing_name}"]
    lines.append("fs.native-s3.enabled=true")
    if region:
        lines.append(f"s3.region={region}")
    if engine.endpoint:
        lines += [f"s3.endpoint={engine.endpoint}", "s3.path-style-access=true"]
    return lines
