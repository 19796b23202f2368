"""The thin botocore layer: sessions, paginated and segmented reads, batched writes, errors.

Every Glue contract a planner must respect lives here: pages of 100 tables and
1,000 partitions, at most 10 segments, batches of 100/100/25 with per-entry
errors, VersionId on UpdateTable, botocore's retry modes for throttling.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError

from gluecat.backends import aws, lean_json
from gluecat.backends.base import EntryError
from gluecat.backends.denied import denied
from gluecat.errors import AccessDeniedError, ConflictError, GluecatError, LiveStateError, UnreachableError
from gluecat.model import CatalogConfig

if TYPE_CHECKING:
    from gluecat.backends.connect import Connection

BATCH_CREATE = 100
BATCH_UPDATE = 100
BATCH_DELETE = 25
BATCH_GET = 1000
BATCH_DELETE_VERSIONS = 100  # BatchDeleteTableVersion's VersionIds
PARTITIONS_PER_PAGE = 1000
MAX_SEGMENTS = 10
WRITE_CONCURRENCY = 8  # batches of one table in flight at once (catalog.yaml `write_concurrency`)

Shape = dict[str, Any]


def make_session(config: CatalogConfig) -> aws.Session:
    """The standard credential chain, a profile, or an assumed role (with external id)."""
    session = aws.open_session(config.profile, config.region)
    if not config.role_arn:
        return session
    sts = aws.client(session, "sts", config.endpoint_url)
    assume: dict[str, Any] = {"RoleArn": config.role_arn, "RoleSessionName": "gluecat"}
    if config.external_id:
        assume["ExternalId"] = config.external_id
    try:
        credentials = sts.assume_role(**assume)["Credentials"]
    except (ClientError, BotoCoreError) as exc:
        raise LiveStateError(f"cannot assume role {config.role_arn}: {aws.explain(exc) or exc}") from exc
    region = aws.region_of(session)
    assert region is not None, "open_session sets the region"
    return aws.session_holding(
        credentials["AccessKeyId"], credentials["SecretAccessKey"], credentials["SessionToken"], region, session
    )


@dataclass(frozen=True)
class StaticCredentials:
    """A session's resolved credentials, for clients outside botocore (pyarrow, delta-rs)."""

    access_key: str
    secret_key: str
    token: str | None


def static_credentials(session: aws.Session) -> StaticCredentials | None:
    credentials = session.get_credentials()
    if credentials is None:
        return None
    frozen = credentials.get_frozen_credentials()
    return StaticCredentials(str(frozen.access_key), str(frozen.secret_key), frozen.token)


def open_connection(
    config: CatalogConfig, session: aws.Session | None, opener: Callable[[], aws.Session], endpoint_url: str | None
) -> Iterator[Connection]:
    """The Glue Data Catalog: the sandbox's session, else the one `opener` makes now."""
    from gluecat.backends.connect import Connection

    opened = session or opener()
    account = config.connection.account
    glue = Glue(opened, endpoint_url, account, config.write_concurrency)
    yield Connection(glue, opened, endpoint_url, account)


def segments_for(expected_partitions: int) -> int:
    """Enough segments that each is about one page, at most Glue's 10."""
    return max(1, min(MAX_SEGMENTS, math.ceil(expected_partitions / PARTITIONS_PER_PAGE)))


class Glue:
    """The Glue Data Catalog as a `Catalog`: botocore calls, each translating AWS errors at the boundary."""

    def __init__(
        self,
        session: aws.Session,
        endpoint_url: str | None,
        catalog_id: str | None,
        write_concurrency: int = WRITE_CONCURRENCY,
    ) -> None:
        # Adaptive retries: a throttled client also slows its own sending, which parallel batches need.
        # No client-side parameter validation: every request is built from models gluecat has checked
        # offline, and walking 100 partition inputs per batch again cost a third of apply's CPU; Glue
        # still validates (its ValidationException is reported like any other error).
        self.client = aws.client(
            session, "glue", endpoint_url, max_pool_connections=64, adaptive=True, parameter_validation=False
        )
        self.write_concurrency = write_concurrency
        self.catalog = {"CatalogId": catalog_id} if catalog_id else {}
        self.calls: Counter[str] = Counter()
        self.skip_archive: frozenset[tuple[str, str]] = frozenset()  # (database, table) updated with SkipArchive
        self.client.meta.events.register("after-call.glue", self._count)
        lean_json.register(self.client.meta.events)

    def _count(self, model: Any, **_: Any) -> None:
        self.calls[model.name] += 1

    def _call(self, operation: str, **kwargs: Any) -> Shape:
        try:
            result: Shape = getattr(self.client, operation)(**self.catalog, **kwargs)
        except ClientError as exc:
            raise _translate(exc) from exc
        except BotoCoreError as exc:
            raise UnreachableError(f"cannot reach Glue: {aws.explain(exc)}") from exc
        return result

    def _pages(self, operation: str, key: str, **kwargs: Any) -> list[Shape]:
        items: list[Shape] = []
        for page in self._each_page(operation, key, **kwargs):
            items.extend(page)
        return items

    def _each_page(self, operation: str, key: str, **kwargs: Any) -> Iterator[list[Shape]]:
        paginator = self.client.get_paginator(operation)
        try:
            for page in paginator.paginate(**self.catalog, **kwargs):
                yield page[key]
        except ClientError as exc:
            raise _translate(exc) from exc
        except BotoCoreError as exc:
            raise UnreachableError(f"cannot reach Glue: {aws.explain(exc)}") from exc

    # reads

    def databases(self) -> list[Shape]:
        return self._pages("get_databases", "DatabaseList")

    def tables(self, database: str) -> list[Shape]:
        return self._pages("get_tables", "TableList", DatabaseName=database)

    def table(self, database: str, name: str) -> Shape | None:
        try:
            return self._call("get_table", DatabaseName=database, Name=name)["Table"]  # type: ignore[no-any-return]
        except _NotFound:
            return None

    def database(self, name: str) -> Shape | None:
        try:
            return self._call("get_database", Name=name)["Database"]  # type: ignore[no-any-return]
        except _NotFound:
            return None

    def partitions(self, database: str, table: str, expected: int) -> list[Shape]:
        """Every partition, read in parallel segments sized from how many are expected."""
        found: list[Shape] = []
        self.each_partition_page(database, table, expected, found.extend)  # list.extend is atomic
        return found

    def partition_indexes(self, database: str, table: str) -> list[Shape]:
        """The table's partition indexes with their status (GetPartitionIndexes)."""
        return self._pages(
            "get_partition_indexes", "PartitionIndexDescriptorList", DatabaseName=database, TableName=table
        )

    def each_partition_page(
        self, database: str, table: str, expected: int, consume: Callable[[list[Shape]], None], columns: bool = True
    ) -> None:
        """Hand every page of partitions to `consume` as it arrives (from parallel segments, so
        `consume` must be thread-safe), holding none of them; `columns=False` asks Glue to leave
        out each partition's column list (ExcludeColumnSchema), which halves a page."""
        total = segments_for(expected)
        options: dict[str, Any] = {"DatabaseName": database, "TableName": table}
        if not columns:
            options["ExcludeColumnSchema"] = True

        def segment(number: int) -> None:
            segmented = {"Segment": {"SegmentNumber": number, "TotalSegments": total}} if total > 1 else {}
            for page in self._each_page("get_partitions", "Partitions", **options, **segmented):
                consume(page)

        with ThreadPoolExecutor(max_workers=total) as pool:
            list(pool.map(segment, range(total)))

    def partitions_by_values(self, database: str, table: str, values: Sequence[Sequence[str]]) -> list[Shape]:
        """The partitions with these values that exist (BatchGetPartition, 1,000 keys a call)."""
        found: list[Shape] = []
        pending = [{"Values": list(v)} for v in values]
        while pending:
            batch, pending = pending[:BATCH_GET], pending[BATCH_GET:]
            answer = self._call("batch_get_partition", DatabaseName=database, TableName=table, PartitionsToGet=batch)
            found.extend(answer.get("Partitions") or [])
            pending = list(answer.get("UnprocessedKeys") or []) + pending
        return found

    def table_versions(self, database: str, table: str) -> list[Shape]:
        """Every kept version of the table (GetTableVersions, in pages), newest first."""
        found = self._pages("get_table_versions", "TableVersions", DatabaseName=database, TableName=table)
        return sorted(found, key=lambda v: int(v["VersionId"]) if str(v["VersionId"]).isdigit() else -1, reverse=True)

    def table_version(self, database: str, table: str, version_id: str) -> Shape | None:
        """One version's table, or None when Glue keeps no such version."""
        try:
            answer = self._call("get_table_version", DatabaseName=database, TableName=table, VersionId=version_id)
        except _NotFound:
            return None
        return answer["TableVersion"]  # type: ignore[no-any-return]

    def delete_table_versions(
        self, database: str, table: str, version_ids: Sequence[str], progress: Callable[[int], bool]
    ) -> list[EntryError]:
        """BatchDeleteTableVersion, 100 versions a call; each version Glue refused comes back."""
        failed: list[EntryError] = []
        for batch in aws.chunks(list(version_ids), BATCH_DELETE_VERSIONS):
            answer = self._call("batch_delete_table_version", DatabaseName=database, TableName=table, VersionIds=batch)
            for error in answer.get("Errors") or []:
                detail = error.get("ErrorDetail") or {}
                code, message = detail.get("ErrorCode", "Unknown"), detail.get("ErrorMessage", "")
                failed.append(EntryError((str(error.get("VersionId")),), code, message))
            if not progress(len(batch)):
                break
        return failed

    # writes

    def create_database(self, database_input: Shape) -> None:
        self._call("create_database", DatabaseInput=database_input)

    def update_database(self, name: str, database_input: Shape) -> None:
        self._call("update_database", Name=name, DatabaseInput=database_input)

    def create_table(self, database: str, table_input: Shape, partition_indexes: Sequence[Shape] = ()) -> None:
        extra = {"PartitionIndexes": list(partition_indexes)} if partition_indexes else {}
        self._call("create_table", DatabaseName=database, TableInput=table_input, **extra)

    def update_table(self, database: str, table_input: Shape, version_id: str | None) -> None:
        extra: dict[str, Any] = {"VersionId": version_id} if version_id else {}
        if (database, table_input["Name"]) in self.skip_archive:
            extra["SkipArchive"] = True  # the table's file or catalog.yaml asks Glue to keep no archived version
        self._call("update_table", DatabaseName=database, TableInput=table_input, **extra)

    def delete_table(self, database: str, name: str) -> None:
        self._call("delete_table", DatabaseName=database, Name=name)

    def create_partition_index(self, database: str, table: str, index: Shape) -> None:
        self._call("create_partition_index", DatabaseName=database, TableName=table, PartitionIndex=index)

    def delete_partition_index(self, database: str, table: str, name: str) -> None:
        self._call("delete_partition_index", DatabaseName=database, TableName=table, IndexName=name)

    def create_partitions(
        self, database: str, table: str, inputs: Sequence[Shape], progress: Callable[[int], bool]
    ) -> list[EntryError]:
        return self._batches(
            "batch_create_partition",
            BATCH_CREATE,
            inputs,
            lambda batch: {
                "DatabaseName": database,
                "TableName": table,
                "PartitionInputList": list(batch),
            },
            progress,
        )

    def update_partitions(
        self, database: str, table: str, entries: Sequence[Shape], progress: Callable[[int], bool]
    ) -> list[EntryError]:
        return self._batches(
            "batch_update_partition",
            BATCH_UPDATE,
            entries,
            lambda batch: {"DatabaseName": database, "TableName": table, "Entries": list(batch)},
            progress,
        )

    def delete_partitions(
        self,
        database: str,
        table: str,
        values: Sequence[Sequence[str]],
        progress: Callable[[int], bool],
    ) -> list[EntryError]:
        keys = [{"Values": list(v)} for v in values]
        return self._batches(
            "batch_delete_partition",
            BATCH_DELETE,
            keys,
            lambda batch: {
                "DatabaseName": database,
                "TableName": table,
                "PartitionsToDelete": list(batch),
            },
            progress,
        )

    def _batches(
        self,
        operation: str,
        size: int,
        entries: Sequence[Shape],
        request: Callable[[Sequence[Shape]], Shape],
        progress: Callable[[int], bool],
    ) -> list[EntryError]:
        """Send entries in batches of `size`, `write_concurrency` batches in flight at once; collect
        every per-entry error. `progress` hears how many entries each answered batch carried and
        answers False to stop sending: the batches in flight then finish and are counted, so what
        went through is known exactly. An unreachable Glue stops the sending the same way."""
        failed: list[EntryError] = []
        fatal: Exception | None = None  # raised once the batches in flight are answered and counted
        sending = True
        workers = max(1, min(self.write_concurrency, math.ceil(len(entries) / size)))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            queued = aws.chunks(entries, size)  # sliced as sent: `entries` may build each batch's inputs then
            in_flight: dict[Future[Shape], Sequence[Shape]] = {}
            while True:
                while sending and len(in_flight) < self.write_concurrency and (batch := next(queued, None)):
                    in_flight[pool.submit(self._call, operation, **request(batch))] = batch
                if not in_flight:
                    break
                answered, _ = wait(in_flight, return_when=FIRST_COMPLETED)
                for future in answered:
                    batch = in_flight.pop(future)
                    try:
                        failed.extend(_entry_errors(future.result()))
                    except LiveStateError as exc:
                        if isinstance(exc, (UnreachableError, AccessDeniedError)):
                            fatal, sending = fatal or exc, False  # every later batch would fail too
                            continue
                        failed.extend(EntryError(_entry_values(e), "BatchFailed", str(exc)) for e in batch)
                    except Exception as exc:  # not a per-batch answer (a conflict, a bug): stop, report, raise
                        fatal, sending = fatal or exc, False
                        continue
                    if not progress(len(batch)):
                        sending = False
        if fatal is not None:
            raise fatal
        return failed


def _entry_values(entry: Mapping[str, Any]) -> tuple[str, ...]:
    values = entry.get("Values") or entry.get("PartitionValueList") or []
    return tuple(values)


def _entry_errors(answer: Mapping[str, Any]) -> list[EntryError]:
    return [
        EntryError(
            tuple(error.get("PartitionValues") or error.get("PartitionValueList") or []),
            (error.get("ErrorDetail") or {}).get("ErrorCode", "Unknown"),
            (error.get("ErrorDetail") or {}).get("ErrorMessage", ""),
        )
        for error in answer.get("Errors") or []
    ]


class _NotFound(LiveStateError):
    pass


def _translate(exc: ClientError) -> GluecatError:
    refused = denied(exc, "glue")
    if refused is not None:
        return refused
    error = exc.response.get("Error", {})
    code, message = error.get("Code", "Unknown"), error.get("Message", str(exc))
    operation = exc.operation_name
    if code == "EntityNotFoundException":
        return _NotFound(f"{operation}: {message}")
    if code == "ConcurrentModificationException":
        return ConflictError(f"{operation}: someone else changed it since the plan ({message})")
    return LiveStateError(f"Glue {operation} failed: {code}: {message}")
