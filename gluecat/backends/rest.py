"""An Iceberg REST catalog (Polaris, Nessie, Lakekeeper, Gravitino, Glue's and S3 Tables' /iceberg
endpoints, Apache Iceberg's own server) through pyiceberg's RestCatalog.

It holds namespaces and Iceberg tables only: tables are created and changed by Iceberg commits
(`IcebergTables`, on the same client), each sent with its requirements (the schema, spec and sort
order it was made from), so the catalog refuses a stale one with 409 instead of overwriting.
Partitions, partition indexes and Glue's TableInput writes do not exist here: lint refuses what
would need them before a plan, and the methods below say so if reached.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NoReturn

from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.exceptions import (
    CommitFailedException,
    NamespaceAlreadyExistsError,
    NoSuchNamespaceError,
    NoSuchTableError,
)

from gluecat.backends.aws import Session
from gluecat.backends.base import EntryError, Progress, Shape
from gluecat.backends.rest_shapes import (
    database_from_rest,
    database_name,
    namespace_of,
    namespace_properties,
    table_from_rest,
)
from gluecat.errors import ConflictError, GluecatError, LiveStateError, UnreachableError
from gluecat.model import CatalogConfig
from gluecat.model.rest import ENV_REFERENCE, BearerAuth, OAuth2Auth, RestAuth, SigV4Auth
from gluecat.secrets import redact
from gluecat.secrets import values as secret_values

if TYPE_CHECKING:
    from gluecat.backends.connect import Connection


def open_connection(
    config: CatalogConfig, session: Session | None, opener: Callable[[], Session], s3_endpoint: str | None
) -> Iterator[Connection]:
    """The REST catalog at `rest_uri`; `s3_endpoint` is S3's, where its tables' files live."""
    from gluecat.backends import aws
    from gluecat.backends.connect import Connection
    from gluecat.backends.iceberg import lake_properties

    settings = config.connection
    uri = settings.address
    assert uri is not None, "connect checks the backend's address"
    opened = session or opener()
    properties = {
        **lake_properties(opened, s3_endpoint),
        **client_properties(uri, settings.auth, settings.scope, aws.region_of(opened), opened),
    }
    catalog = IcebergRest(open_rest_catalog(uri, properties), uri)
    yield Connection(catalog, opened, s3_endpoint, backend="iceberg-rest")


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return redact.scrub(text)


def client_properties(
    uri: str, auth: RestAuth | None, warehouse: str | None, region: str | None, session: Session
) -> dict[str, Any]:
    """pyiceberg's RestCatalog settings for `rest_auth` and `rest_warehouse`; secrets read now from
    the environment, and remembered so that nothing gluecat prints shows them."""
    properties: dict[str, Any] = {}
    if warehouse:
        properties["warehouse"] = warehouse
    if isinstance(auth, BearerAuth):
        properties["token"] = _secret(auth.token, "token")
    elif isinstance(auth, OAuth2Auth):
        properties["credential"] = f"{auth.client_id}:{_secret(auth.client_secret, 'client_secret')}"
        properties["scope"] = auth.scope or "catalog"
        properties["oauth2-server-uri"] = auth.token_endpoint or f"{uri.rstrip('/')}/v1/oauth/tokens"
    elif isinstance(auth, SigV4Auth):
        properties["rest.sigv4-enabled"] = "true"
        properties["rest.signing-name"] = auth.signing_name
        properties["rest.signing-region"] = auth.region or region or "us-east-1"
        properties.update(_signing_keys(session))
    return properties


def _signing_keys(session: Session) -> dict[str, str]:
    """The keys the usual AWS chain found for this session (the one every other call uses): pyiceberg
    signs with a boto3 session of its own, which must not wrap gluecat's botocore session."""
    credentials = session.get_credentials()
    if credentials is None:
        raise GluecatError("rest_auth: sigv4 found no AWS credentials (environment, profile, role or instance)")
    frozen = credentials.get_frozen_credentials()
    keys = {"client.access-key-id": str(frozen.access_key), "client.secret-access-key": str(frozen.secret_key)}
    if frozen.token:
        keys["client.session-token"] = str(frozen.token)
    return keys


def _secret(reference: str, key: str) -> str:
    match = ENV_REFERENCE.fullmatch(reference)
    assert match is not None, "the model admits ${env.NAME} alone"
    name = match.group(1)
    value = os.environ.get(name)
    if not value:
        raise GluecatError(f"rest_auth.{key}: environment variable {name} is not set; set it before plan or apply")
    secret_values.register(name, value)
    redact.remember(value)
    return value


def open_rest_catalog(uri: str, properties: dict[str, Any]) -> RestCatalog:
    """pyiceberg's client, after the catalog answered `GET /v1/config`: one line naming the URI when
    nothing answers there, or when the catalog (or its token endpoint) refuses the credentials."""
    import requests

    try:
        return RestCatalog("gluecat", **{**properties, "uri": uri})
    except requests.exceptions.ConnectionError as exc:
        raise UnreachableError(f"the Iceberg REST catalog at {uri} does not answer: {_reason(exc)}") from exc
    except requests.exceptions.Timeout as exc:
        raise UnreachableError(f"the Iceberg REST catalog at {uri} did not answer in time") from exc
    except Exception as exc:  # an OAuth error, a 401/403 from the catalog, a bad answer
        raise LiveStateError(f"the Iceberg REST catalog at {uri} refused gluecat: {_one_line(exc)}") from exc


def _reason(exc: BaseException) -> str:
    text = str(exc)
    for known in ("Connection refused", "Name or service not known", "No route to host", "timed out"):
        if known in text:
            return known.lower()
    return _one_line(exc)[:200]


class IcebergRest:
    """The Catalog protocol over one REST catalog: namespaces as databases, Iceberg tables as tables."""

    def __init__(self, client: RestCatalog, uri: str) -> None:
        self.client = client
        self.uri = uri

    @contextmanager
    def _calling(self, what: str) -> Iterator[None]:
        import requests

        try:
            yield
        except (NoSuchNamespaceError, NoSuchTableError, NamespaceAlreadyExistsError, CommitFailedException):
            raise
        except requests.exceptions.ConnectionError as exc:
            raise UnreachableError(f"the Iceberg REST catalog at {self.uri} does not answer: {_reason(exc)}") from exc
        except Exception as exc:
            raise LiveStateError(f"{what}: the Iceberg REST catalog at {self.uri} answered {_one_line(exc)}") from exc

    # reads

    def databases(self) -> list[Shape]:
        found: list[Shape] = []
        pending: list[tuple[str, ...]] = [()]
        while pending:
            parent = pending.pop()
            with self._calling("listing namespaces"):
                children = self.client.list_namespaces(parent)
            for namespace in children:
                shape = self.database(database_name(tuple(namespace)))
                if shape is not None:
                    found.append(shape)
                pending.append(tuple(namespace))
        return sorted(found, key=lambda shape: str(shape["Name"]))

    def database(self, name: str) -> Shape | None:
        try:
            with self._calling(f"namespace {name}"):
                properties = self.client.load_namespace_properties(namespace_of(name))
        except NoSuchNamespaceError:
            return None
        return database_from_rest(name, dict(properties))

    def tables(self, database: str) -> list[Shape]:
        try:
            with self._calling(f"tables of {database}"):
                identifiers = self.client.list_tables(namespace_of(database))
        except NoSuchNamespaceError:
            return []
        found = (self.table(database, identifier[-1]) for identifier in identifiers)
        return [shape for shape in found if shape is not None]

    def table(self, database: str, name: str) -> Shape | None:
        try:
            with self._calling(f"{database}.{name}"):
                table = self.client.load_table((*namespace_of(database), name))
        except (NoSuchTableError, NoSuchNamespaceError):
            return None
        return table_from_rest(database, name, table.metadata_location, table.metadata.location)

    def partitions(self, database: str, table: str, expected: int) -> list[Shape]:
        return []

    def each_partition_page(
        self, database: str, table: str, expected: int, consume: Callable[[list[Shape]], None], columns: bool = True
    ) -> None:
        return None

    def partitions_by_values(self, database: str, table: str, values: Sequence[Sequence[str]]) -> list[Shape]:
        return []

    def partition_indexes(self, database: str, table: str) -> list[Shape]:
        return []

    # writes

    def create_database(self, database_input: Shape) -> None:
        namespace = namespace_of(str(database_input["Name"]))
        for depth in range(1, len(namespace)):  # a nested namespace's parents first, as they are
            try:
                with self._calling(f"namespace {database_name(namespace[:depth])}"):
                    self.client.create_namespace(namespace[:depth])
            except NamespaceAlreadyExistsError:
                pass
        try:
            with self._calling(f"namespace {database_input['Name']}"):
                self.client.create_namespace(namespace, namespace_properties(database_input))
        except NamespaceAlreadyExistsError as exc:
            raise ConflictError(f"namespace {database_input['Name']} was created meanwhile") from exc

    def update_database(self, name: str, database_input: Shape) -> None:
        desired = namespace_properties(database_input)
        live = self.database(name)
        if live is None:
            raise ConflictError(f"namespace {name} was dropped meanwhile")
        removed = set(namespace_properties(live)) - set(desired)
        with self._calling(f"namespace {name}"):
            self.client.update_namespace_properties(namespace_of(name), removed, desired)

    def create_table(self, database: str, table_input: Shape, partition_indexes: Sequence[Shape] = ()) -> None:
        self._not_held(f"{database}.{table_input.get('Name')}")

    def update_table(self, database: str, table_input: Shape, version_id: str | None) -> None:
        self._not_held(f"{database}.{table_input.get('Name')}")

    def delete_table(self, database: str, name: str) -> None:
        """Drops the catalog's entry; the table's data and metadata files stay (no purge)."""
        try:
            with self._calling(f"{database}.{name}"):
                self.client.drop_table((*namespace_of(database), name))
        except (NoSuchTableError, NoSuchNamespaceError):
            return

    def create_partition_index(self, database: str, table: str, index: Shape) -> None:
        self._not_held(f"{database}.{table}")

    def delete_partition_index(self, database: str, table: str, name: str) -> None:
        self._not_held(f"{database}.{table}")

    def create_partitions(
        self, database: str, table: str, inputs: Sequence[Shape], progress: Progress
    ) -> list[EntryError]:
        self._not_held(f"{database}.{table}")

    def update_partitions(
        self, database: str, table: str, entries: Sequence[Shape], progress: Progress
    ) -> list[EntryError]:
        self._not_held(f"{database}.{table}")

    def delete_partitions(
        self, database: str, table: str, values: Sequence[Sequence[str]], progress: Progress
    ) -> list[EntryError]:
        self._not_held(f"{database}.{table}")

    def _not_held(self, address: str) -> NoReturn:
        raise LiveStateError(
            f"{address}: an Iceberg REST catalog holds Iceberg tables only (no Glue table inputs, partitions"
            " or partition indexes)"
        )
