"""A WSGI layer in front of moto's Glue that enforces what real Glue enforces.

moto returns every item in one page, ignores Segment, accepts any VersionId,
ignores batch limits and keeps names' case. Real Glue does none of that, so
code proven only against plain moto is not proven. This layer restores the
contract (from the AWS Glue API reference) and counts calls per operation.
"""

from __future__ import annotations

import base64
import io
import json
import random
import re
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

from gluecat.sandbox import fast_partitions, fastjson, partition_indexes, versions
from gluecat.sandbox.optimizers import OPTIMIZER_CALLS, OptimizerStore
from gluecat.sandbox.segments import SegmentSplits

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

# Operation -> (list key in the response, AWS's largest page).
PAGED = {
    "GetDatabases": ("DatabaseList", 100),
    "GetTables": ("TableList", 100),
    "GetPartitions": ("Partitions", 1000),
    "GetTableVersions": ("TableVersions", 100),
}
# Operation -> (list key in the request, AWS's limit).
BATCH_LIMITS = {
    "BatchCreatePartition": ("PartitionInputList", 100),
    "BatchUpdatePartition": ("Entries", 100),
    "BatchDeletePartition": ("PartitionsToDelete", 25),
    "BatchGetPartition": ("PartitionsToGet", 1000),
    "BatchDeleteTable": ("TablesToDelete", 100),
}
MAX_SEGMENTS = 10
PARTITION_BATCH_WRITES = frozenset({"BatchCreatePartition", "BatchUpdatePartition", "BatchDeletePartition"})
_CREDENTIAL = re.compile(r"Credential=([^/,\s]+)/[^/]*/([^/]+)/")
_GLUE_READS = ("AWSGlue.Get", "AWSGlue.BatchGet", "AWSGlue.Search")
CONTROL_PREFIX = "/_gluecat"


@dataclass
class StrictOptions:
    """Knobs for tests: smaller pages than AWS's to exercise paging, injected throttling."""

    page_size: int | None = None
    throttle_rate: float = 0.0
    seed: int = 7
    # Glue folds names to lowercase; off, the layer keeps their case as lenient stand-ins do.
    fold_names: bool = True
    latency_ms: float = 0.0  # added to every Glue call, as a network round trip to AWS would


@dataclass
class _Response:
    status: int
    headers: list[tuple[str, str]]
    body: bytes


TABLE_WRITES = ("CreateTable", "UpdateTable", "DeleteTable")


@dataclass
class StrictGlue:
    app: WSGIApp
    options: StrictOptions = field(default_factory=StrictOptions)
    calls: Counter[str] = field(default_factory=Counter)
    throttled: int = 0
    indexes: partition_indexes.PartitionIndexStore = field(
        default_factory=lambda: partition_indexes.PartitionIndexStore(partition_indexes.BACKFILL_SECONDS)
    )
    optimizers: OptimizerStore = field(default_factory=OptimizerStore)
    version_keeper: versions.VersionKeeper = field(default_factory=versions.VersionKeeper)
    # Held while a partition batch is stored straight in moto's backend (the tracking layer's
    # lock); None: every request goes through moto's own handling.
    direct_writes: Callable[[], AbstractContextManager[Any]] | None = None

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._table_writes = threading.Lock()
        self._random = random.Random(self.options.seed)
        self._writes_in_flight = 0
        self.peak_writes_in_flight = 0  # the most partition batches answered at once (parallel apply)
        self._pages: dict[str, list[Any]] = {}
        self._segments = SegmentSplits()

    def reset_counts(self) -> None:
        with self._lock:
            self.calls.clear()
            self.throttled = 0

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("PATH_INFO", "").startswith(CONTROL_PREFIX):
            response = self._control(environ)
            start_response(f"{response.status} X", _with_length(response))
            return [response.body]
        target = environ.get("HTTP_X_AMZ_TARGET", "")
        if environ.get("PATH_INFO") == "/moto-api/reset":
            self.indexes.clear()
            self.optimizers.clear()
            self.version_keeper.clear()
        if not target.startswith(_GLUE_READS):
            self._segments.clear()  # a write (or a reset) ends every scan in progress
        if not target.startswith("AWSGlue."):
            return self.app(environ, start_response)
        operation = target.split(".", 1)[1]
        body = fastjson.loads(_read_body(environ) or b"{}")
        batch_write = operation in PARTITION_BATCH_WRITES
        with self._lock:
            self.calls[operation] += 1
            throttled = self._random.random() < self.options.throttle_rate
            self.throttled += throttled
            self._writes_in_flight += batch_write
            self.peak_writes_in_flight = max(self.peak_writes_in_flight, self._writes_in_flight)
        try:
            if self.options.latency_ms:
                time.sleep(self.options.latency_ms / 1000)
            if throttled:
                response = _error("ThrottlingException", "Rate exceeded")
            else:
                response = self._handle(operation, _lowercase_names(body) if self.options.fold_names else body, environ)
        finally:
            with self._lock:
                self._writes_in_flight -= batch_write
        start_response(f"{response.status} X", _with_length(response))
        return [response.body]

    def _control(self, environ: dict[str, Any]) -> _Response:
        """Test and benchmark hooks: read the call counts, zero them, set the options."""
        action = environ["PATH_INFO"][len(CONTROL_PREFIX) :]
        with self._lock:
            if action == "/reset-counts":
                self.calls.clear()
                self.throttled = 0
                self.peak_writes_in_flight = 0
            elif action == "/options":
                settings = json.loads(_read_body(environ) or b"{}")
                self.options.page_size = settings.get("page_size")
                self.options.throttle_rate = float(settings.get("throttle_rate", 0.0))
                self.options.fold_names = bool(settings.get("fold_names", True))
                self.options.latency_ms = float(settings.get("latency_ms", 0.0))
            return _json(
                {"calls": dict(self.calls), "throttled": self.throttled, "peak_in_flight": self.peak_writes_in_flight}
            )

    def _handle(self, operation: str, body: dict[str, Any], environ: dict[str, Any]) -> _Response:
        if operation in BATCH_LIMITS:
            key, limit = BATCH_LIMITS[operation]
            if len(body.get(key) or []) > limit:
                return _error(
                    "ValidationException",
                    f"1 validation error detected: Value at '{key}' failed to satisfy"
                    f" constraint: Member must have length less than or equal to {limit}",
                )
        if operation in partition_indexes.OPERATIONS + partition_indexes.WATCHED:
            response = self._partition_indexes(operation, body, environ)
            if operation == "CreateTable":  # the table's version 1 was written now
                self.version_keeper.created(versions.scope_of(_caller(environ)), body, _reply(response))
            return response
        if operation in versions.OPERATIONS:  # Glue's version keeping (gluecat/sandbox/versions.py)
            scope = versions.scope_of(_caller(environ))
            return _from_reply(self.version_keeper.handle(scope, operation, body, self._forwarder(environ)))
        if operation in OPTIMIZER_CALLS:  # moto has none: the store keeps them
            return _from_reply(self.optimizers.handle(operation, body, self._forwarder(environ)))
        if operation in TABLE_WRITES:
            # Glue checks a VersionId and writes as one step: two writers holding the same version
            # never both win (without this, concurrent Iceberg commits were lost).
            with self._table_writes:
                if operation == "UpdateTable" and body.get("VersionId"):
                    conflict = self._version_conflict(body, environ)
                    if conflict:
                        return conflict
                if operation == "UpdateTable":  # SkipArchive, each version's time
                    scope = versions.scope_of(_caller(environ))
                    return _from_reply(self.version_keeper.update(scope, body, self._forwarder(environ)))
                return self._forward(operation, body, environ)
        if operation in PAGED:
            return self._paged(operation, body, environ)
        return self._forward(operation, body, environ)

    def _forward(self, operation: str, body: dict[str, Any], environ: dict[str, Any]) -> _Response:
        if operation == "BatchCreatePartition" and self.direct_writes is not None:
            with self.direct_writes():
                answer = fast_partitions.create_partitions(versions.scope_of(_caller(environ)), body)
            if answer is not None:
                return _Response(200, [_JSON_TYPE, ("x-amzn-RequestId", str(uuid.uuid4()))], answer)
        payload = fastjson.dumps(body)
        inner = dict(environ)
        inner["wsgi.input"] = io.BytesIO(payload)
        inner["CONTENT_LENGTH"] = str(len(payload))
        inner["HTTP_X_AMZ_TARGET"] = f"AWSGlue.{operation}"
        captured: dict[str, Any] = {}

        def capture(status: str, headers: list[tuple[str, str]], *_: Any) -> None:
            captured["status"], captured["headers"] = int(status.split()[0]), headers

        if operation in PARTITION_BATCH_WRITES:  # moto takes the parsed body as it is: no second parse
            with fast_partitions.parsed_body(payload, body):
                chunks = b"".join(self.app(inner, capture))
        else:
            chunks = b"".join(self.app(inner, capture))
        return _Response(captured["status"], captured["headers"], chunks)

    def _forwarder(self, environ: dict[str, Any]) -> versions.Forward:
        return lambda name, request: _reply(self._forward(name, request, environ))

    def _partition_indexes(self, operation: str, body: dict[str, Any], environ: dict[str, Any]) -> _Response:
        """moto has no partition indexes: the store keeps them, asking moto about the tables."""

        def forward(name: str, request: dict[str, Any]) -> partition_indexes.Reply:
            response = self._forward(name, request, environ)
            return partition_indexes.Reply(response.status, json.loads(response.body or b"{}"))

        reply = self.indexes.handle(operation, body, forward)
        response = _json(reply.payload, reply.status)
        if reply.status != 200 and "__type" in reply.payload:
            response.headers.append(("x-amzn-ErrorType", str(reply.payload["__type"]).rsplit("#", 1)[-1]))
        return response

    def _version_conflict(self, body: dict[str, Any], environ: dict[str, Any]) -> _Response | None:
        table_name = body["TableInput"]["Name"]
        lookup = {"DatabaseName": body["DatabaseName"], "Name": table_name}
        current = self._forward("GetTable", lookup, environ)
        if current.status != 200:
            return None
        live_version = json.loads(current.body)["Table"].get("VersionId")
        if live_version is not None and str(live_version) != str(body["VersionId"]):
            return _error(
                "ConcurrentModificationException",
                f"Update table failed due to concurrent modifications: VersionId"
                f" {body['VersionId']} is not the current version {live_version}",
            )
        return None

    def _paged(self, operation: str, body: dict[str, Any], environ: dict[str, Any]) -> _Response:
        list_key, aws_max = PAGED[operation]
        token = body.pop("NextToken", None)
        max_results = min(int(body.pop("MaxResults", aws_max)), aws_max)
        if self.options.page_size:
            max_results = min(max_results, self.options.page_size)
        segment = body.pop("Segment", None)
        exclude_columns = body.pop("ExcludeColumnSchema", False)  # GetPartitions; moto ignores it
        if token:
            with self._lock:
                items = self._pages.pop(_decode(token), None)
            if items is None:
                return _error("InvalidInputException", "The NextToken is invalid or expired")
        else:
            if segment is not None and (problem := _segment_problem(segment)):
                return _error("InvalidInputException", problem)

            def listing() -> list[Any]:
                if operation == "GetTableVersions":  # newest first, each with its time (gluecat/sandbox/versions.py)
                    scope = versions.scope_of(_caller(environ))
                    reply = self.version_keeper.listing(scope, body, self._forwarder(environ))
                    if reply.status != 200:
                        raise _Refused(_from_reply(reply))
                    return list(reply.payload[list_key])
                if operation == "GetPartitions" and self.direct_writes is not None:
                    found = fast_partitions.list_partitions(versions.scope_of(_caller(environ)), body)
                    if found is not None:
                        return found
                response = self._forward(operation, body, environ)
                if response.status != 200:
                    raise _Refused(response)
                return list(fastjson.loads(response.body).get(list_key, []))

            try:
                if segment is None:
                    items = listing()
                else:
                    scan = json.dumps([_caller(environ), operation, body, segment["TotalSegments"]], sort_keys=True)
                    items = self._segments.take(scan, segment["TotalSegments"], segment["SegmentNumber"], listing)
            except _Refused as refused:
                return refused.response
        page, rest = items[:max_results], items[max_results:]
        if exclude_columns:
            page = [_without_columns(item) for item in page]
        result: dict[str, Any] = {list_key: page}
        if rest:
            next_id = uuid.uuid4().hex
            with self._lock:
                self._pages[next_id] = rest
            result["NextToken"] = _encode(next_id)
        return _json(result)


def _reply(response: _Response) -> partition_indexes.Reply:
    return partition_indexes.Reply(response.status, json.loads(response.body or b"{}"))


def _from_reply(reply: partition_indexes.Reply) -> _Response:
    response = _json(reply.payload, reply.status)
    if reply.status != 200 and "__type" in reply.payload:
        response.headers.append(("x-amzn-ErrorType", str(reply.payload["__type"]).rsplit("#", 1)[-1]))
    return response


def _without_columns(partition: dict[str, Any]) -> dict[str, Any]:
    if "StorageDescriptor" not in partition:
        return partition
    descriptor = {k: v for k, v in (partition.get("StorageDescriptor") or {}).items() if k != "Columns"}
    return {**partition, "StorageDescriptor": descriptor}


def _segment_problem(segment: dict[str, Any]) -> str | None:
    total, number = segment.get("TotalSegments", 0), segment.get("SegmentNumber", -1)
    if not 1 <= total <= MAX_SEGMENTS:
        return f"TotalSegments must be between 1 and {MAX_SEGMENTS}"
    if not 0 <= number < total:
        return "SegmentNumber must be less than TotalSegments"
    return None


def _caller(environ: dict[str, Any]) -> list[str]:
    """Whose catalog a request reads: moto picks the account from this header or the access key."""
    scope = _CREDENTIAL.search(environ.get("HTTP_AUTHORIZATION", ""))
    return [environ.get("HTTP_X_MOTO_ACCOUNT_ID", ""), *(scope.groups() if scope else ())]


class _Refused(Exception):
    def __init__(self, response: _Response) -> None:
        super().__init__(response.status)
        self.response = response


_NAME_KEYS = ("DatabaseName", "TableName")


def _lowercase_names(body: dict[str, Any]) -> dict[str, Any]:
    """Glue lowercases database, table and top-level column names."""
    for key in _NAME_KEYS:
        if isinstance(body.get(key), str):
            body[key] = body[key].lower()
    if isinstance(body.get("Name"), str) and "DatabaseName" in body:
        body["Name"] = body["Name"].lower()  # GetTable / DeleteTable
    for input_key in ("DatabaseInput", "TableInput"):
        shape = body.get(input_key)
        if isinstance(shape, dict) and isinstance(shape.get("Name"), str):
            shape["Name"] = shape["Name"].lower()
    table = body.get("TableInput")
    if isinstance(table, dict):
        for column in (table.get("StorageDescriptor") or {}).get("Columns") or []:
            column["Name"] = column["Name"].lower()
        for column in table.get("PartitionKeys") or []:
            column["Name"] = column["Name"].lower()
    return body


def _read_body(environ: dict[str, Any]) -> bytes:
    length = int(environ.get("CONTENT_LENGTH") or 0)
    return environ["wsgi.input"].read(length) if length else b""


_JSON_TYPE = ("Content-Type", "application/x-amz-json-1.1")


def _json(payload: dict[str, Any], status: int = 200) -> _Response:
    return _Response(status, [_JSON_TYPE], fastjson.dumps(payload))


def _with_length(response: _Response) -> list[tuple[str, str]]:
    """The headers with the body's length, as Glue sends it (without, the answer went chunked)."""
    headers = [(name, value) for name, value in response.headers if name.lower() != "content-length"]
    return [*headers, ("Content-Length", str(len(response.body)))]


def _error(code: str, message: str) -> _Response:
    response = _json({"__type": code, "message": message}, status=400)
    response.headers.append(("x-amzn-ErrorType", code))
    return response


def _encode(value: str) -> str:
    return base64.urlsafe_b64encode(value.encode()).decode()


def _decode(token: str) -> str:
    try:
        return base64.urlsafe_b64decode(token.encode()).decode()
    except (ValueError, UnicodeDecodeError):
        return ""
