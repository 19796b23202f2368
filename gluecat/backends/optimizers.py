"""Glue's table optimizers (compaction, snapshot retention, orphan-file deletion) of Iceberg tables.

Reads go through BatchGetTableOptimizer, every wanted (table, type) of a plan or an
import in a few calls (ENTRIES_PER_CALL entries each: the API reference sets no
limit, so gluecat stays at the size of Glue's other batch reads); an optimizer a
table lacks comes back as an EntityNotFoundException failure, which means absent.
Writes are one Create/Update/DeleteTableOptimizer call each. Every call names the
catalog (CatalogId is required by these five calls): catalog.yaml's `catalog_id`,
else the caller's account (one STS GetCallerIdentity call, once).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError

from gluecat.backends import aws
from gluecat.backends.aws import Session, chunks
from gluecat.backends.denied import denied
from gluecat.backends.glue import Glue
from gluecat.errors import ConflictError, GluecatError, LiveStateError, UnreachableError

if TYPE_CHECKING:
    from gluecat.backends.connect import Connection

ENTRIES_PER_CALL = 100
TYPES = ("compaction", "retention", "orphan_file_deletion")
NOT_FOUND = "EntityNotFoundException"

Shape = dict[str, Any]
TableKey = tuple[str, str]


_ACCOUNTS: weakref.WeakKeyDictionary[Glue, str] = weakref.WeakKeyDictionary()


def optimizers_of(connection: Connection) -> TableOptimizers:
    """The optimizer calls of a Glue connection (a Hive Metastore has no optimizers)."""
    if connection.metastore is not None:
        raise GluecatError("table optimizers are Glue's: a Hive Metastore catalog has none")
    return TableOptimizers(connection.glue, connection.session, connection.endpoint_url)


class TableOptimizers:
    """The optimizer calls, over the Glue client of a connection (its calls are counted with Glue's)."""

    def __init__(self, glue: Glue, session: Session, endpoint_url: str | None) -> None:
        self._glue = glue
        self._client = glue.client
        self._catalog_id: str | None = glue.catalog.get("CatalogId") or _ACCOUNTS.get(glue)
        self._session = session
        self._endpoint_url = endpoint_url

    @property
    def catalog_id(self) -> str:
        if self._catalog_id is None:
            sts = aws.client(self._session, "sts", self._endpoint_url)
            try:
                self._catalog_id = _ACCOUNTS[self._glue] = str(sts.get_caller_identity()["Account"])
            except ClientError as exc:
                refused = denied(exc, "sts")
                if refused is not None:
                    raise refused from exc
                raise LiveStateError(f"cannot tell which account's catalog this is: {aws.explain(exc) or exc}") from exc
            except BotoCoreError as exc:
                raise UnreachableError(f"cannot reach STS: {aws.explain(exc)}") from exc
        return self._catalog_id

    def read(self, tables: Sequence[TableKey]) -> dict[TableKey, dict[str, Shape]]:
        """Each table's optimizers by type: {type: TableOptimizerConfiguration}, {} for a table without any."""
        found: dict[TableKey, dict[str, Shape]] = {key: {} for key in tables}
        if not tables:
            return found
        catalog = self.catalog_id
        entries = [
            {"catalogId": catalog, "databaseName": database, "tableName": table, "type": kind}
            for database, table in tables
            for kind in TYPES
        ]
        for batch in chunks(entries, ENTRIES_PER_CALL):
            answer = self._call("batch_get_table_optimizer", Entries=list(batch))
            for failure in answer.get("Failures") or []:
                error = failure.get("error") or {}
                if error.get("ErrorCode") != NOT_FOUND:
                    where = f"{failure.get('databaseName')}.{failure.get('tableName')}"
                    raise LiveStateError(
                        f"cannot read the {failure.get('type')} optimizer of {where}:"
                        f" {error.get('ErrorCode')}: {error.get('ErrorMessage')}"
                    )
            for item in answer.get("TableOptimizers") or []:
                optimizer = item.get("tableOptimizer") or {}
                key = (str(item.get("databaseName")), str(item.get("tableName")))
                found.setdefault(key, {})[str(optimizer.get("type"))] = optimizer.get("configuration") or {}
        return found

    def get(self, database: str, table: str, kind: str) -> Shape | None:
        """One optimizer's configuration, or None when the table has none of that type."""
        try:
            answer = self._call("get_table_optimizer", **self._names(database, table, kind))
        except _Missing:
            return None
        configuration: Shape = (answer.get("TableOptimizer") or {}).get("configuration") or {}
        return configuration

    def create(self, database: str, table: str, kind: str, configuration: Shape) -> None:
        names = self._names(database, table, kind)
        self._call("create_table_optimizer", **names, TableOptimizerConfiguration=configuration)

    def update(self, database: str, table: str, kind: str, configuration: Shape) -> None:
        names = self._names(database, table, kind)
        self._call("update_table_optimizer", **names, TableOptimizerConfiguration=configuration)

    def delete(self, database: str, table: str, kind: str) -> None:
        self._call("delete_table_optimizer", **self._names(database, table, kind))

    def _names(self, database: str, table: str, kind: str) -> Shape:
        return {"CatalogId": self.catalog_id, "DatabaseName": database, "TableName": table, "Type": kind}

    def _call(self, operation: str, **kwargs: Any) -> Shape:
        try:
            result: Shape = getattr(self._client, operation)(**kwargs)
        except ClientError as exc:
            raise _translate(exc) from exc
        except BotoCoreError as exc:
            raise UnreachableError(f"cannot reach Glue: {aws.explain(exc)}") from exc
        return result


class _Missing(LiveStateError):
    pass


def _translate(exc: ClientError) -> GluecatError:
    refused = denied(exc, "glue")
    if refused is not None:
        return refused
    error = exc.response.get("Error", {})
    code, message = error.get("Code", "Unknown"), error.get("Message", str(exc))
    if code == NOT_FOUND:
        return _Missing(f"Glue {exc.operation_name} failed: {code}: {message}")
    if code == "ConcurrentModificationException":
        return ConflictError(f"{exc.operation_name}: someone else changed it since the plan ({message})")
    return LiveStateError(f"Glue {exc.operation_name} failed: {code}: {message}")
