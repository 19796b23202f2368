"""Open a connection to the catalog a project names: real AWS, or the embedded sandbox."""

from __future__ import annotations

import importlib
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
            # A metastore's or a REST catalog's tables then live in the sandbox's S3.
            yield from _opened(config, session, endpoint_url)
        return
    yield from _opened(config, None, config.endpoint_url)


def _opened(config: CatalogConfig, session: Session | None, endpoint_url: str | None) -> Iterator[Connection]:
    """The backend's own `open_connection` (its registry line names the module): the AWS session is
    `session` (the sandbox's), else made when the backend first needs it (a Hive Metastore: only
    once S3 is read or written)."""
    backend = capabilities(config.backend)
    if backend.address_key and not config.connection.address:
        raise GluecatError(
            f"backend: {backend.name} needs `{backend.address_key}: {backend.address_form}` in catalog.yaml"
        )
    opens: Callable[..., Iterator[Connection]] = importlib.import_module(backend.module).open_connection
    yield from opens(config, session, lambda: _aws_session(config), endpoint_url)


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
