"""Which catalog a connection reaches, as a saved plan is bound to it: the backend's `identity`."""

from __future__ import annotations

from botocore.exceptions import BotoCoreError, ClientError

from gluecat.backends import aws
from gluecat.backends.connect import Connection
from gluecat.errors import LiveStateError
from gluecat.model import CatalogConfig
from gluecat.secrets import redact


def catalog_identity(config: CatalogConfig, connection: Connection) -> tuple[str, str, str]:
    """(catalog, region, endpoint): an AWS catalog's account and region, else the backend's label, the
    scope it is narrowed to (a REST catalog's warehouse) and its address."""
    backend = connection.capabilities
    if backend.identity is not None:
        address = config.connection.address
        assert address is not None, f"connect requires {backend.address_key} for backend: {backend.name}"
        return backend.identity, config.connection.scope or "", redact.scrub(address)
    account = config.connection.account or caller_account(connection)
    return account, connection.region or config.region or "", _endpoint(config)


def _endpoint(config: CatalogConfig) -> str:
    """The sandbox's port changes from run to run: it is named, not addressed."""
    if config.sandbox:
        return "sandbox"
    return redact.scrub(config.endpoint_url) if config.endpoint_url else "aws"


def caller_account(connection: Connection) -> str:
    """The account the credentials belong to (sts:GetCallerIdentity needs no permission)."""
    endpoints = [connection.endpoint_url, None] if connection.endpoint_url else [None]
    failure: Exception | None = None
    for endpoint in endpoints:  # a Glue-only endpoint may not answer STS: then AWS's own
        try:
            sts = aws.client(connection.session, "sts", endpoint)
            return str(sts.get_caller_identity()["Account"])
        except (ClientError, BotoCoreError) as exc:
            failure = exc
    raise LiveStateError(
        f"cannot tell which AWS account the credentials belong to (sts:GetCallerIdentity): {failure};"
        " set catalog_id in catalog.yaml"
    )
