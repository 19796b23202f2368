"""GetPartitions answered by the local Glue without moto's generic response serializer, and
BatchCreatePartition without moto's HTTP dispatch.

moto turns every response into JSON by walking botocore's output shape field
by field: ~0.6 ms a partition, so one GetPartitions of 3,000 partitions took
1.8 s of emulator time and 100,000 took a minute — a cost real Glue does not
have, which made large plans against the sandbox measure the emulator. A
stored partition is the PartitionInput a botocore client sent (already
JSON-typed) plus names and a creation time, so the same body is its JSON with
the three timestamps converted by moto's own timestamp serializer. A test
holds the two paths equal field for field.

A batch of new partitions is handed to moto's Glue backend as it is: Flask's
request handling and moto's dispatch around it cost about as much as storing
the hundred partitions, and every batch of a parallel apply waited for them
(real Glue answers batches side by side). What is stored and answered is
moto's own; a batch naming a table moto does not hold goes the whole way, so
its error is moto's too. A test holds the two paths to the same answers.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from gluecat.sandbox import fastjson
from gluecat.sandbox.compact import SHARED

TIMESTAMP_KEYS = ("CreationTime", "LastAccessTime", "LastAnalyzedTime")


def partition_json(partition: Any) -> dict[str, Any]:
    """One moto FakePartition as moto's serializer writes it."""
    from moto.core.serialize import TimestampSerializer

    answer = {key: value for key, value in partition.as_dict().items() if value is not None}
    to_epoch = TimestampSerializer(TimestampSerializer.TIMESTAMP_FORMAT_UNIX)._convert_timestamp_to_str
    for key in TIMESTAMP_KEYS:
        if key in answer:
            answer[key] = to_epoch(answer[key], TimestampSerializer.TIMESTAMP_FORMAT_UNIX)
    return answer


def moto_backend(scope: str) -> Any:
    """moto's Glue backend for a caller (`versions.scope_of`): its account and region, as moto's
    request handling picks them (this runs in moto's process)."""
    from moto.glue.models import glue_backends
    from moto.iam.models import get_account_id_from

    header, access_key, region = [*json.loads(scope), "", "", ""][:3]
    account = os.environ.get("MOTO_ACCOUNT_ID") or header or get_account_id_from(access_key or "AKIAEXAMPLE")
    return glue_backends[account][region or "us-east-1"]


def create_partitions(scope: str, body: dict[str, Any]) -> bytes | None:
    """BatchCreatePartition's answer, the partitions stored by moto's backend itself; None (nothing
    done) when the table is not there: moto's own handler answers that."""
    backend = moto_backend(scope)
    database, table = body.get("DatabaseName"), body.get("TableName")
    try:
        backend.get_table(database, table)
    except Exception:  # whatever moto raises here, its own handler raises again and answers
        return None
    SHARED.partitions(body.get("PartitionInputList") or [])
    errors = backend.batch_create_partition(database, table, body.get("PartitionInputList"))
    return fastjson.dumps({"Errors": errors} if errors else {})


def list_partitions(scope: str, body: dict[str, Any]) -> list[dict[str, Any]] | None:
    """GetPartitions' whole listing as answer shapes that share what moto holds (nothing copied
    but each partition's top level): a page is serialized when it is answered, never the whole
    listing at once. None when moto refuses the request: its own handler answers that."""
    backend = moto_backend(scope)
    try:
        found = backend.get_partitions(body.get("DatabaseName"), body.get("TableName"), body.get("Expression"))
    except Exception:  # whatever moto raises here, its own handler raises again and answers
        return None
    return [partition_json(partition) for partition in found]


def _utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)  # naive UTC, as moto keeps its times


_handed = threading.local()


@contextlib.contextmanager
def parsed_body(payload: bytes, body: dict[str, Any]) -> Iterator[None]:
    """moto, answering `payload` in this thread, takes `body` as its parse (the strict layer's own)."""
    _handed.value = (payload, body)
    try:
        yield
    finally:
        _handed.value = None


def _parsed_body(response: Any) -> dict[str, Any]:
    handed = getattr(_handed, "value", None)
    raw = response.body
    if handed is not None and handed[0] == (raw.encode() if isinstance(raw, str) else raw):
        return handed[1]  # type: ignore[no-any-return]
    parsed: dict[str, Any] = fastjson.loads(raw)
    return parsed


def install() -> None:
    """Answer GetPartitions in this process's moto with the direct serialization, and spare moto's
    request handling the work it repeats for every request."""
    from moto.core import responses as moto_responses
    from moto.core import utils as moto_utils
    from moto.glue import models as glue_models
    from moto.glue.responses import GlueResponse

    def get_partitions(self: Any) -> str:
        partitions = self.glue_backend.get_partitions(
            self.parameters.get("DatabaseName"), self.parameters.get("TableName"), self.parameters.get("Expression")
        )
        return fastjson.dumps({"Partitions": [partition_json(p) for p in partitions]}).decode()

    setattr(GlueResponse, "get_partitions", get_partitions)  # noqa: B010  (mypy refuses assigning a method)
    # moto parses the request body anew at every `self.parameters`: three times for each
    # BatchCreatePartition of 100 partitions. One parse per request (an instance answers one request).
    parameters = functools.cached_property(_parsed_body)
    parameters.__set_name__(GlueResponse, "parameters")
    setattr(GlueResponse, "parameters", parameters)  # noqa: B010
    # moto's clock imports `datetime.UTC` at every call, once for every partition it creates.
    setattr(glue_models, "utcnow", _utcnow)  # noqa: B010
    # moto lists a response class's methods (inspect.getmembers) at every request; they are fixed by now.
    cached = functools.cache(moto_utils.method_names_from_class)
    setattr(moto_responses, "method_names_from_class", cached)  # noqa: B010
