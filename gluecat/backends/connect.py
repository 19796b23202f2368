"""Open a connection to the catalog a project names: real AWS, or the embedded sandbox."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from gluecat.backends import aws
from gluecat.backends.aws import Session
from gluecat.backends.base import Catalog, MetastoreAddress, TableVersions
from gluecat.backends.glue import Glue, make_session, static_credentials
from gluecat.backends.registry import Capabilities, capabilities
from gluecat.errors import GluecatError
from gluecat.model import CatalogConfig
from gluecat.project.load import Project
from gluecat.secrets import redact

if TYPE_CHECKING:
    from gluecat.backends.delta import DeltaTables
    from gluecat.backends.iceberg import IcebergTables
    from gluecat.backends.lakeformation import LakeFormation


@dataclass
class Connection:
    """The catalog (`Catalog`), and the table formats' libraries reaching the same catalog and storage.

    `opened`: the AWS session, or None until `session` is first asked for: a backend that is not AWS
    (a Hive Metastore) needs credentials only for what it reads or writes on S3, and `opener` makes
    the session then."""

    catalog: Catalog
    opened: Session | None
    endpoint_url: str | None
    catalog_id: str | None = None
    metastore: MetastoreAddress | None = None  # backend: hive
    backend: str = "glue"  # its name in the registry: what it holds and can do
    opener: Callable[[], Session] | None = None

    @property
    def session(self) -> Session:
        if self.opened is None:
            assert self.opener is not None, "a connection without a session has a way to open one"
            self.opened = self.opener()
        return self.opened

    @property
    def capabilities(self) -> Capabilities:
        return capabilities(self.backend)

    @property
    def region(self) -> str | None:
        """The AWS session's region; None when no session was needed (yet)."""
        return aws.region_of(self.opened) if self.opened is not None else None

    @property
    def glue(self) -> Glue:
        """The Glue client itself, for what only Glue offers (pyiceberg's Glue catalog, call counts)."""
        assert isinstance(self.catalog, Glue), "a Glue catalog"
        return self.catalog

    def versions(self, what: str) -> TableVersions:
        """The catalog's kept table versions, for `what` (a command); refused in one line naming the
        backend when it keeps none."""
        if not self.capabilities.versions:
            raise GluecatError(f"{what} reads Glue's table versions; {self.capabilities.title} keeps none")
        return self.glue

    @cached_property
    def iceberg(self) -> IcebergTables:
        from gluecat.backends.iceberg import IcebergTables
        from gluecat.backends.rest import IcebergRest

        if isinstance(self.catalog, IcebergRest):  # the same client: one configuration, one session
            return IcebergTables.on_rest(self.catalog.client, self.session, self.endpoint_url)
        if self.metastore:
            return IcebergTables.on_hive(self.metastore.uri, self.metastore.version, self.session, self.endpoint_url)
        return IcebergTables.on_glue(self.glue.client, self.session, self.endpoint_url, self.catalog_id)

    @cached_property
    def delta(self) -> DeltaTables:
        from gluecat.backends.delta import DeltaTables

        return DeltaTables(self.session, self.endpoint_url)

    @cached_property
    def lakeformation(self) -> LakeFormation | None:
        """Lake Formation beside the Glue catalog; None for a catalog that has none (a Hive Metastore, REST)."""
        from gluecat.backends.lakeformation import LakeFormation

        if not self.capabilities.lake_formation:
            return None
        return LakeFormation(self.session, self.endpoint_url, self.catalog_id)


@contextmanager
def connect(project: Project) -> Iterator[Connection]:
    with connect_to(project.config, project.root, _locations(project)) as connection:
        if isinstance(connection.catalog, Glue):  # skip_archive: true (a table's, else catalog.yaml's)
            connection.catalog.skip_archive = _skip_archive(project)
        yield connection


def _skip_archive(project: Project) -> frozenset[tuple[str, str]]:
    everywhere = project.config.skip_archive
    return frozenset(
        (db.name, t.name)
        for db in project.databases
        for t in db.tables
        if (everywhere if t.model.skip_archive is None else t.model.skip_archive)
    )


@contextmanager
def connect_to(config: CatalogConfig, root: Path, locations: list[str] | None = None) -> Iterator[Connection]:
    """A connection from catalog settings alone (import runs before the YAML exists)."""
    if config.sandbox:
        # The emulator's modules load only for a sandbox catalog (~15 ms of every other command's start).
        from gluecat.sandbox.state import ACCESS_KEY, REGION, SECRET_KEY, ensure_buckets, running_sandbox

        # The embedded emulator serves requests one at a time; a large page may queue for longer
        # than a real Glue call takes, so the fail-fast read timeout is relaxed for it alone.
        os.environ.setdefault(aws.READ_TIMEOUT_VARIABLE, str(aws.SANDBOX_READ_TIMEOUT))
        # The sandbox never reaches AWS: a profile this machine lacks (AWS_PROFILE set for
        # other work) must not stop botocore, pyiceberg or deltalake from talking to it.
        for variable in ("AWS_PROFILE", "AWS_DEFAULT_PROFILE"):
            os.environ.pop(variable, None)
        with running_sandbox(root, config.region) as endpoint_url:
            session = aws.session_holding(ACCESS_KEY, SECRET_KEY, None, config.region or REGION)
            ensure_buckets(session, endpoint_url, locations or [])
            if config.backend == "hive":  # the sandbox is then the S3 the Metastore's tables live in
                yield from _metastore(config, session, None, endpoint_url)
                return
            if config.backend == "iceberg-rest":  # the same: the S3 of the REST catalog's tables
                yield from _rest(config, session, endpoint_url)
                return
            glue = Glue(session, endpoint_url, config.catalog_id, config.write_concurrency)
            yield Connection(glue, session, endpoint_url, config.catalog_id)
        return
    if config.backend == "hive":  # AWS only once S3 is read or written (Iceberg or Delta metadata)
        yield from _metastore(config, None, lambda: _aws_session(config), config.endpoint_url)
        return
    session = _aws_session(config)
    if config.backend == "iceberg-rest":
        yield from _rest(config, session, config.endpoint_url)
        return
    glue = Glue(session, config.endpoint_url, config.catalog_id, config.write_concurrency)
    yield Connection(glue, session, config.endpoint_url, config.catalog_id)


def _metastore(
    config: CatalogConfig, session: Session | None, opener: Callable[[], Session] | None, s3_endpoint: str | None
) -> Iterator[Connection]:
    """A Hive Metastore; `endpoint_url` is then S3's, where table data and lake metadata live; the
    AWS session is `session`, or made by `opener` when first needed."""
    from gluecat.backends.hive import HiveMetastore  # Thrift and its generated client load only for a metastore

    if not config.metastore_uri:
        raise GluecatError("backend: hive needs `metastore_uri: thrift://HOST:PORT` in catalog.yaml")
    address = MetastoreAddress(config.metastore_uri, config.metastore_version)
    metastore = HiveMetastore(address.uri, address.version)
    try:
        yield Connection(metastore, session, s3_endpoint, metastore=address, backend="hive", opener=opener)
    finally:
        metastore.close()


def _rest(config: CatalogConfig, session: Session, s3_endpoint: str | None) -> Iterator[Connection]:
    """An Iceberg REST catalog; `endpoint_url` is then S3's, where its tables' files live."""
    from gluecat.backends.iceberg import lake_properties
    from gluecat.backends.rest import IcebergRest, client_properties, open_rest_catalog

    if not config.rest_uri:
        raise GluecatError("backend: iceberg-rest needs `rest_uri: https://HOST[:PORT][/PATH]` in catalog.yaml")
    properties = {
        **lake_properties(session, s3_endpoint),
        **client_properties(config.rest_uri, config.rest_auth, config.rest_warehouse, aws.region_of(session), session),
    }
    catalog = IcebergRest(open_rest_catalog(config.rest_uri, properties), config.rest_uri)
    yield Connection(catalog, session, s3_endpoint, backend="iceberg-rest")


def _aws_session(config: CatalogConfig) -> Session:
    session = make_session(config)
    _remember_credentials(session)
    return session


def _remember_credentials(session: Session) -> None:
    """Credentials are never printed, even where a library quotes them back in an error."""
    credentials = static_credentials(session)
    if credentials:
        redact.remember(credentials.secret_key)
        if credentials.token:
            redact.remember(credentials.token)


def _locations(project: Project) -> list[str]:
    uris = [project.config.warehouse] + [db.model.location for db in project.databases]
    uris += [t.model.location for db in project.databases for t in db.tables]
    return [uri for uri in uris if uri]
