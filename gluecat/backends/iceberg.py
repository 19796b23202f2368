"""Iceberg tables through pyiceberg's GlueCatalog: create, read metadata, commit changes.

gluecat never writes `metadata_location`: every change is an Iceberg commit, which
pyiceberg makes with Glue's VersionId, so a writer's concurrent commit is never lost.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyiceberg import __version__ as pyiceberg_version
from pyiceberg.catalog import Catalog
from pyiceberg.catalog.glue import GlueCatalog
from pyiceberg.exceptions import CommitFailedException, NoSuchTableError
from pyiceberg.io import load_file_io
from pyiceberg.serializers import FromInputFile
from pyiceberg.table import Table, Transaction
from pyiceberg.table.metadata import SUPPORTED_TABLE_FORMAT_VERSION, TableMetadata
from pyiceberg.table.sorting import NullOrder
from pyiceberg.transforms import parse_transform

from gluecat.backends import aws
from gluecat.backends.aws import Session, iceberg_s3_timeouts
from gluecat.backends.denied import live_error
from gluecat.backends.glue import static_credentials
from gluecat.backends.iceberg_files import latest_metadata
from gluecat.backends.iceberg_meta import FORMAT_VERSION, Op, fingerprint
from gluecat.backends.iceberg_types import schema_of, to_iceberg
from gluecat.changes.payloads import IcebergCreate
from gluecat.errors import ConflictError, LiveStateError
from gluecat.model import IcebergColumn
from gluecat.model.hivetype import parse


def lake_properties(session: Session, endpoint_url: str | None) -> dict[str, str]:
    """pyiceberg's S3 settings: the session's region and credentials, the endpoint, gluecat's timeouts."""
    properties: dict[str, str] = {"s3.region": aws.region_of(session) or "us-east-1", **iceberg_s3_timeouts()}
    credentials = static_credentials(session)
    if credentials:
        properties["s3.access-key-id"] = credentials.access_key
        properties["s3.secret-access-key"] = credentials.secret_key
        if credentials.token:
            properties["s3.session-token"] = credentials.token
    if endpoint_url:
        properties["s3.endpoint"] = endpoint_url
    return properties


LAKE_SCHEMES = ("s3", "s3a", "s3n")


class IcebergTables:
    """Iceberg tables of one catalog (pyiceberg's Glue or Hive catalog) and the storage under them."""

    def __init__(
        self,
        catalog: Catalog,
        properties: dict[str, str],
        session: Session,
        endpoint_url: str | None,
        namespace: Callable[[str], tuple[str, ...]] = lambda database: (database,),
    ):
        self.properties = properties
        self.catalog = catalog
        self._s3 = aws.client(session, "s3", endpoint_url)
        self._namespace = namespace  # a database's namespace: nested ones in a REST catalog

    def identifier(self, database: str, name: str) -> tuple[str, ...]:
        return (*self._namespace(database), name)

    @classmethod
    def on_glue(
        cls, glue_client: Any, session: Session, endpoint_url: str | None, catalog_id: str | None
    ) -> IcebergTables:
        properties = lake_properties(session, endpoint_url)
        if catalog_id:
            properties["glue.id"] = catalog_id
        return cls(GlueCatalog("gluecat", client=glue_client, **properties), properties, session, endpoint_url)

    @classmethod
    def on_hive(cls, uri: str, version: str | None, session: Session, endpoint_url: str | None) -> IcebergTables:
        from gluecat.backends.iceberg_hive import hive_catalog

        properties = lake_properties(session, endpoint_url)
        return cls(hive_catalog(uri, version, properties), properties, session, endpoint_url)

    @classmethod
    def on_rest(cls, catalog: Catalog, session: Session, endpoint_url: str | None) -> IcebergTables:
        from gluecat.backends.rest_shapes import namespace_of

        return cls(catalog, lake_properties(session, endpoint_url), session, endpoint_url, namespace_of)

    def existing_metadata(self, location: str) -> str | None:
        """The current metadata file an Iceberg table at `location` left behind, if any."""
        return latest_metadata(self._s3, location)

    def register(self, database: str, name: str, metadata_location: str) -> None:
        """Give existing Iceberg metadata its Glue entry back (rows and snapshots as they are)."""
        try:
            self.catalog.register_table(self.identifier(database, name), metadata_location)
        except Exception as exc:
            raise live_error(exc, f"{database}.{name}: cannot register {metadata_location}: {exc}") from exc

    def read_metadata(self, metadata_location: str) -> TableMetadata:
        """The current metadata straight from its file: no Glue call (GetTables gave the location).
        Only from object storage: a live pointer is anyone's to set, and one at `file:///...` would
        make gluecat read, and quote in errors, a file of the machine it runs on."""
        scheme = metadata_location.partition("://")[0].lower() if "://" in metadata_location else ""
        if scheme not in LAKE_SCHEMES:
            raise LiveStateError(
                f"Iceberg metadata_location uses {scheme or 'no'} scheme; gluecat reads Iceberg metadata only"
                f" from {', '.join(f'{s}://' for s in LAKE_SCHEMES)} (the file was not read)"
            )
        try:
            io = load_file_io(self.properties, metadata_location)
            return FromInputFile.table_metadata(io.new_input(metadata_location))
        except Exception as exc:
            raise live_error(exc, f"cannot read Iceberg metadata {metadata_location}: {exc}") from exc

    def create(self, database: str, name: str, desired: IcebergCreate) -> None:
        found = self.existing_metadata(desired["location"])
        if found:
            raise LiveStateError(
                f"{database}.{name}: {desired['location']} already holds an Iceberg table ({found}); gluecat"
                " never creates a new table over it. Run plan again: it registers the existing one"
            )
        version = str(desired["properties"].get(FORMAT_VERSION, "")).strip()
        if version.isdigit() and int(version) > SUPPORTED_TABLE_FORMAT_VERSION:
            raise LiveStateError(
                f"{database}.{name}: pyiceberg {pyiceberg_version} cannot create a table at format-version {version}:"
                f" it writes tables up to format-version {SUPPORTED_TABLE_FORMAT_VERSION}; nothing was created"
            )
        columns = [IcebergColumn.model_validate(c) for c in desired["columns"]]
        try:
            transaction = self.catalog.create_table_transaction(
                self.identifier(database, name),
                schema_of(columns),
                location=desired["location"],
                properties=desired["properties"],
            )
            _apply_ops(transaction, desired["ops"])
            transaction.commit_transaction()
        except CommitFailedException as exc:
            raise ConflictError(f"{database}.{name}: Iceberg commit failed: {exc}") from exc
        except Exception as exc:
            raise live_error(exc, f"{database}.{name}: cannot create the Iceberg table: {exc}") from exc

    def fingerprint(self, database: str, name: str) -> str | None:
        try:
            return fingerprint(self._load(database, name).metadata)
        except NoSuchTableError:
            return None
        except Exception as exc:  # Glue or S3 failing under pyiceberg's read
            raise live_error(exc, f"{database}.{name}: cannot read the Iceberg table: {exc}") from exc

    def update(self, database: str, name: str, ops: list[Op], expected: str | None) -> None:
        """One Iceberg transaction on the current metadata, if its schema/spec/properties are as planned."""
        beyond = _unwritable_version(ops)
        if beyond:
            raise LiveStateError(f"{database}.{name}: {beyond}; nothing was changed")
        try:
            table = self._load(database, name)
        except Exception as exc:  # Glue or S3 failing under pyiceberg's read
            raise live_error(exc, f"{database}.{name}: cannot read the Iceberg table: {exc}") from exc
        if expected and fingerprint(table.metadata) != expected:
            raise ConflictError(f"{database}.{name}: its Iceberg schema, spec or properties changed since the plan")
        if table.metadata.format_version > SUPPORTED_TABLE_FORMAT_VERSION:
            raise LiveStateError(
                f"{database}.{name}: pyiceberg {pyiceberg_version} cannot commit to a format-version"
                f" {table.metadata.format_version} table: it writes tables up to format-version"
                f" {SUPPORTED_TABLE_FORMAT_VERSION}; nothing was changed"
            )
        try:
            with table.transaction() as transaction:
                _apply_ops(transaction, ops)
        except CommitFailedException as exc:
            raise ConflictError(f"{database}.{name}: a concurrent Iceberg commit won: {exc}") from exc
        except (ValueError, NotImplementedError) as exc:
            raise LiveStateError(f"{database}.{name}: Iceberg refused the change: {exc}") from exc
        except Exception as exc:  # a denied S3 write, a 500 from UpdateTable after its retries
            raise live_error(exc, f"{database}.{name}: cannot commit the Iceberg change: {exc}") from exc

    def _load(self, database: str, name: str) -> Table:
        return self.catalog.load_table(self.identifier(database, name))


SCHEMA_OPS = ("add_column", "update_column", "delete_column", "rename_column", "move_column")


def _unwritable_version(ops: list[Op]) -> str | None:
    """Why the pyiceberg gluecat runs cannot make the upgrade the ops ask for; None when it can."""
    wanted = max((int(op["version"]) for op in ops if op["op"] == "upgrade_format_version"), default=None)
    if wanted is None or wanted <= SUPPORTED_TABLE_FORMAT_VERSION:
        return None
    return (
        f"pyiceberg {pyiceberg_version} cannot upgrade a table to format-version {wanted}: it upgrades tables up"
        f" to format-version {SUPPORTED_TABLE_FORMAT_VERSION}"
    )


def _apply_ops(transaction: Transaction, ops: list[Op]) -> None:
    schema_ops = [op for op in ops if op["op"] in SCHEMA_OPS]
    if schema_ops:
        with transaction.update_schema() as update:
            for op in schema_ops:
                path = tuple(op["path"])
                if op["op"] == "add_column":
                    field_type = to_iceberg(parse(op["type"], iceberg=True), iter(range(1, 1_000_000)))
                    update.add_column(path, field_type, doc=op.get("doc"))
                elif op["op"] == "delete_column":
                    update.delete_column(path)
                elif op["op"] == "rename_column":  # the field keeps its id: old rows read under the new name
                    update.rename_column(path, op["name"])
                elif op["op"] == "move_column":  # named as the update knows it: live, or just added
                    if op["after"] is None:
                        update.move_first(path)
                    else:
                        update.move_after(path, tuple(op["after"]))
                else:
                    new_type = (
                        to_iceberg(parse(op["type"], iceberg=True), iter(range(1, 10))) if op.get("type") else None
                    )
                    update.update_column(path, field_type=new_type, required=op.get("required"), doc=op.get("doc"))
    for op in ops:
        if op["op"] == "spec":
            with transaction.update_spec() as spec:
                for name in op["remove"]:
                    spec.remove_field(name)
                for entry in op["add"]:
                    spec.add_field(entry["column"], parse_transform(entry["transform"]), entry["name"])
        elif op["op"] == "sort_order":
            with transaction.update_sort_order() as order:
                for field in op["fields"]:
                    add = order.asc if field["direction"] == "asc" else order.desc
                    add(field["column"], parse_transform(field["transform"]), NullOrder(field["null_order"]))
        elif op["op"] == "set_properties":
            transaction.set_properties(op["properties"])
        elif op["op"] == "remove_properties":
            transaction.remove_properties(*op["keys"])
        elif op["op"] == "upgrade_format_version":
            transaction.upgrade_table_version(op["version"])
