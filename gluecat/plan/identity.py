"""Which catalog a connection reaches: what a saved plan is bound to."""

from __future__ import annotations

from botocore.exceptions import BotoCoreError, ClientError

from gluecat.backends import aws
from gluecat.backends.connect import Connection
from gluecat.errors import LiveStateError
from gluecat.model import CatalogConfig
from gluecat.plan.saved import Binding
from gluecat.project.load import Project
from gluecat.secrets import redact


def catalog_binding(project: Project, connection: Connection) -> Binding:
    config = project.config
    if config.backend == "hive":  # a saved plan for a Metastore is bound to its URI
        assert config.metastore_uri is not None
        return Binding(str(project.root.resolve()), "hive-metastore", "", redact.scrub(config.metastore_uri))
    if config.backend == "iceberg-rest":  # bound to the REST catalog's URI and its warehouse
        assert config.rest_uri is not None
        return Binding(
            str(project.root.resolve()), "iceberg-rest", config.rest_warehouse or "", redact.scrub(config.rest_uri)
        )
    return Binding(
        root=str(project.root.resolve()),
        catalog=config.catalog_id or caller_account(connection),
        region=connection.region or config.region or "",
        endpoint=_endpoint(config),
    )


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
