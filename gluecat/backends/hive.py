"""A Hive Metastore as a `Catalog`, over Thrift with the client pyiceberg bundles (Hive 4's IDL).

Hive 4.0 serves only the `_req` forms of `get_table` and `get_table_objects_by_name`,
which Hive 2.3 serves too: gluecat calls those. Each thread has its own connection
(a Thrift client is not thread-safe; plan reads run in parallel). A Metastore has no
version token, so `update_table` re-reads the table and compares its fingerprint
with the one the plan read before it writes.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlparse

from hive_metastore.ThriftHiveMetastore import Client
from hive_metastore.ttypes import (
    AddPartitionsRequest,
    AlreadyExistsException,
    DropPartitionsRequest,
    EnvironmentContext,
    GetTableRequest,
    GetTablesRequest,
    InvalidObjectException,
    InvalidOperationException,
    MetaException,
    NoSuchObjectException,
    RequestPartsSpec,
)
from thrift.protocol import TBinaryProtocol
from thrift.Thrift import TApplicationException, TException
from thrift.transport import TSocket, TTransport

from gluecat.backends import aws
from gluecat.backends.base import EntryError, MetastoreAddress, Progress, Shape
from gluecat.backends.hive_shapes import (
    database_from_hive,
    database_to_hive,
    partition_from_hive,
    partition_name,
    partition_to_hive,
    table_from_hive,
    table_to_hive,
)
from gluecat.changes.fingerprint import fingerprint
from gluecat.errors import ConflictError, GluecatError, LiveStateError, UnreachableError
from gluecat.model import CatalogConfig
from gluecat.text.plain import one_line

if TYPE_CHECKING:
    from gluecat.backends.connect import Connection

T = TypeVar("T")
TABLES_PER_CALL = 100
PARTITIONS_PER_CALL = 1000
BATCH_WRITE = 100
METASTORE_TIMEOUT = 180.0
ATTEMPTS = 4  # connection failures are retried with backoff: 0.5 s, 1 s, 2 s
# Column statistics are not gluecat's to compute: an alter must not make the Metastore list S3.
NO_STATS = EnvironmentContext(properties={"DO_NOT_UPDATE_STATS": "true"})


def metastore_timeout() -> float:
    """Seconds a call may take. A metastore creates each new table's and partition's directory on
    S3 before it answers (100 partitions: many seconds), so the default is longer than for a Glue
    call; GLUECAT_READ_TIMEOUT, when set, decides."""
    return aws.read_timeout() if os.environ.get(aws.READ_TIMEOUT_VARIABLE) else METASTORE_TIMEOUT


def open_connection(
    config: CatalogConfig, session: aws.Session | None, opener: Callable[[], aws.Session], s3_endpoint: str | None
) -> Iterator[Connection]:
    """The Metastore at `metastore_uri`; `s3_endpoint` is S3's, where table data and lake metadata
    live, and the AWS session is `session`, else made by `opener` once S3 is first read or written."""
    from gluecat.backends.connect import Connection

    settings = config.connection
    assert settings.address is not None, "connect checks the backend's address"
    address = MetastoreAddress(settings.address, settings.version)
    metastore = HiveMetastore(address.uri, address.version)
    try:
        yield Connection(metastore, session, s3_endpoint, metastore=address, backend="hive", opener=opener)
    finally:
        metastore.close()


class HiveMetastore:
    """The Metastore at `uri` (thrift://host:port), each call translating Thrift errors at the boundary."""

    def __init__(self, uri: str, version: str | None = None) -> None:
        parsed = urlparse(uri)
        self.uri, self.version = uri, version
        self._host, self._port = parsed.hostname or "localhost", parsed.port or 9083
        self._local = threading.local()
        self._opened: list[TTransport.TTransportBase] = []
        self._lock = threading.Lock()
        self.calls: Counter[str] = Counter()

    def close(self) -> None:
        with self._lock:
            for transport in self._opened:
                transport.close()
            self._opened.clear()

    def _client(self) -> Client:
        client: Client | None = getattr(self._local, "client", None)
        if client is None:
            socket = TSocket.TSocket(self._host, self._port)
            socket.setTimeout(metastore_timeout() * 1000)
            transport = TTransport.TBufferedTransport(socket)
            transport.open()
            with self._lock:
                self._opened.append(transport)
            client = Client(TBinaryProtocol.TBinaryProtocol(transport))
            self._local.client = client
        return client

    def _call(self, operation: str, *arguments: Any) -> Any:
        """`operation` on the Thrift client. A connection that cannot be opened is retried with
        backoff; a call that was sent and got no answer is retried only when it reads: a write
        may have been applied, and is never sent twice blind."""
        for attempt in range(ATTEMPTS):
            try:
                client = self._client()
            except TTransport.TTransportException as exc:
                if attempt == ATTEMPTS - 1:
                    raise UnreachableError(self._unreachable(exc)) from exc
                time.sleep(0.5 * 2**attempt)
                continue
            try:
                self.calls[operation] += 1
                return getattr(client, operation)(*arguments)
            except TTransport.TTransportException as exc:
                self._local.client = None  # a broken connection is never reused
                if not operation.startswith("get_"):
                    raise _Unanswered(
                        f"the Hive Metastore at {self.uri} did not answer {operation} ({exc}): it may have"
                        " been applied; run plan to see what is left"
                    ) from exc
                if attempt == ATTEMPTS - 1:
                    raise UnreachableError(self._unreachable(exc)) from exc
                time.sleep(0.5 * 2**attempt)
            except TException as exc:
                raise self._translate(operation, exc) from exc
        raise AssertionError("unreachable")

    def _unreachable(self, exc: Exception) -> str:
        return (
            f"cannot reach the Hive Metastore at {self.uri} ({exc}): is it running, and is `metastore_uri` in"
            " catalog.yaml right?"
        )

    def _translate(self, operation: str, exc: TException) -> GluecatError:
        message = _short(one_line(getattr(exc, "message", None) or str(exc)))
        if "incompatible with the existing columns" in message:
            message += (
                " (Hive refuses incompatible column type changes: add a new column instead, or set"
                " hive.metastore.disallow.incompatible.col.type.changes=false on the metastore)"
            )
        if isinstance(exc, NoSuchObjectException):
            return _NotFound(f"{operation}: {message}")
        if isinstance(exc, AlreadyExistsException):
            return ConflictError(f"{operation}: {message} (someone else created it since the plan)")
        if isinstance(exc, TApplicationException) and exc.type == TApplicationException.UNKNOWN_METHOD:
            return LiveStateError(
                f"the Hive Metastore at {self.uri} does not serve {operation} ({message}):"
                " gluecat needs Hive 2.3 or later"
            )
        if isinstance(exc, InvalidOperationException | InvalidObjectException | MetaException):
            return LiveStateError(f"the Hive Metastore refused {operation}: {message}")
        return LiveStateError(f"Hive Metastore {operation} failed: {message}")

    # reads

    def databases(self) -> list[Shape]:
        names = self._call("get_all_databases")
        found = (self.database(name) for name in names)
        return [shape for shape in found if shape is not None]

    def database(self, name: str) -> Shape | None:
        try:
            return database_from_hive(self._call("get_database", name))
        except _NotFound:
            return None

    def tables(self, database: str) -> list[Shape]:
        names = self._call("get_all_tables", database)
        found: list[Shape] = []
        for start in range(0, len(names), TABLES_PER_CALL):
            request = GetTablesRequest(dbName=database, tblNames=names[start : start + TABLES_PER_CALL])
            answer = self._call("get_table_objects_by_name_req", request)
            found.extend(table_from_hive(t) for t in answer.tables or [])
        return found

    def table(self, database: str, name: str) -> Shape | None:
        request = GetTableRequest(dbName=database, tblName=name)
        try:
            return table_from_hive(self._call("get_table_req", request).table)
        except _NotFound:
            return None

    def partitions(self, database: str, table: str, expected: int) -> list[Shape]:
        found: list[Shape] = []
        self.each_partition_page(database, table, expected, found.extend)
        return found

    def each_partition_page(
        self, database: str, table: str, expected: int, consume: Callable[[list[Shape]], None], columns: bool = True
    ) -> None:
        """Partition names first (one call), then the partitions in pages of 1,000 by name."""
        names = self._call("get_partition_names", database, table, -1)
        for page in _pages(names, PARTITIONS_PER_CALL):
            found = self._call("get_partitions_by_names", database, table, page)
            consume([partition_from_hive(p) for p in found])

    def partitions_by_values(self, database: str, table: str, values: Sequence[Sequence[str]]) -> list[Shape]:
        keys = self._partition_keys(database, table)
        names = [partition_name(keys, v) for v in values]
        found: list[Shape] = []
        for page in _pages(names, PARTITIONS_PER_CALL):
            answer = self._call("get_partitions_by_names", database, table, page)
            found.extend(partition_from_hive(p) for p in answer)
        return found

    def partition_indexes(self, database: str, table: str) -> list[Shape]:
        return []  # a Metastore has none (lint refuses them for `backend: hive`)

    def _partition_keys(self, database: str, table: str) -> list[str]:
        live = self.table(database, table)
        if live is None:
            raise LiveStateError(f"{database}.{table}: no such table in the Hive Metastore at {self.uri}")
        return [key["Name"] for key in live.get("PartitionKeys") or []]

    # writes

    def create_database(self, database_input: Shape) -> None:
        self._call("create_database", database_to_hive(database_input))

    def update_database(self, name: str, database_input: Shape) -> None:
        self._call("alter_database", name, database_to_hive(database_input))

    def create_table(self, database: str, table_input: Shape, partition_indexes: Sequence[Shape] = ()) -> None:
        if partition_indexes:
            raise LiveStateError(f"{database}.{table_input['Name']}: a Hive Metastore has no partition indexes")
        self._call("create_table", table_to_hive(database, table_input))

    def update_table(self, database: str, table_input: Shape, version_id: str | None) -> None:
        name = table_input["Name"]
        if version_id is not None:
            live = self.table(database, name)
            if live is None or fingerprint(live) != version_id:
                raise ConflictError(f"{database}.{name}: someone else changed it since the plan")
        new = table_to_hive(database, table_input)
        self._call("alter_table_with_environment_context", database, name, new, NO_STATS)

    def delete_table(self, database: str, name: str) -> None:
        self._call("drop_table", database, name, False)

    def create_partition_index(self, database: str, table: str, index: Shape) -> None:
        raise LiveStateError(f"{database}.{table}: a Hive Metastore has no partition indexes")

    def delete_partition_index(self, database: str, table: str, name: str) -> None:
        raise LiveStateError(f"{database}.{table}: a Hive Metastore has no partition indexes")

    def create_partitions(
        self, database: str, table: str, inputs: Sequence[Shape], progress: Progress
    ) -> list[EntryError]:
        def send(batch: Sequence[Shape]) -> None:
            parts = [partition_to_hive(database, table, p) for p in batch]
            request = AddPartitionsRequest(dbName=database, tblName=table, parts=parts, ifNotExists=False)
            try:
                self._call("add_partitions_req", request)
            except _Unanswered:  # sent again as "if not exists": what the first attempt made stays
                request.ifNotExists = True
                self._call("add_partitions_req", request)

        return self._batches(inputs, send, progress)

    def update_partitions(
        self, database: str, table: str, entries: Sequence[Shape], progress: Progress
    ) -> list[EntryError]:
        def send(batch: Sequence[Shape]) -> None:
            parts = [partition_to_hive(database, table, e["PartitionInput"]) for e in batch]
            self._call("alter_partitions", database, table, parts)

        return self._batches(entries, send, progress)

    def delete_partitions(
        self, database: str, table: str, values: Sequence[Sequence[str]], progress: Progress
    ) -> list[EntryError]:
        keys = self._partition_keys(database, table)

        def send(batch: Sequence[Shape]) -> None:
            names = [partition_name(keys, entry["Values"]) for entry in batch]
            request = DropPartitionsRequest(
                dbName=database, tblName=table, parts=RequestPartsSpec(names=names), deleteData=False, ifExists=True,
                needResult=False,
            )  # fmt: skip
            self._call("drop_partitions_req", request)

        return self._batches([{"Values": list(v)} for v in values], send, progress)

    def _batches(
        self, entries: Sequence[Shape], send: Callable[[Sequence[Shape]], None], progress: Progress
    ) -> list[EntryError]:
        """A Metastore refuses a batch whole: each of its entries is reported with the reason (a
        partition another writer made since the plan too, as Glue reports it per entry)."""
        failed: list[EntryError] = []
        for batch in _pages(entries, BATCH_WRITE):
            try:
                send(batch)
            except UnreachableError:
                raise
            except (LiveStateError, ConflictError) as exc:
                failed.extend(EntryError(_values_of(e), "BatchFailed", str(exc)) for e in batch)
            if not progress(len(batch)):
                break
        return failed


class _NotFound(LiveStateError):
    pass


class _Unanswered(LiveStateError):
    pass


def _short(message: str) -> str:
    """A Thrift object the metastore quotes whole, cut to what names it:
    `Partition already exists: Partition(values:[1], dbName:..., sd:...)` -> `... Partition(values:[1])`."""
    match = re.search(r"(Partition|Table)\((values:\[[^\]]*\]|tableName:[^,)]*)", message)
    if not match:
        return message
    depth, end = 0, len(message)
    for index in range(match.start(1) + len(match.group(1)), len(message)):
        depth += {"(": 1, ")": -1}.get(message[index], 0)
        if depth == 0:
            end = index + 1
            break
    return f"{message[: match.start()]}{match.group(1)}({match.group(2)}){message[end:]}"


def _values_of(entry: Shape) -> tuple[str, ...]:
    return tuple(entry.get("Values") or entry.get("PartitionValueList") or [])


def _pages(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
