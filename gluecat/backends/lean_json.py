"""Glue's and Lake Formation's large listings parsed, and Glue's partition batches written, at JSON
speed; botocore still signs, retries and raises.

botocore walks every answer against the operation's output shape, turning each
timestamp into a datetime: for GetPartitions that walk costs about ten times
the JSON decoding itself. For the listings a plan and import read in bulk, a
`before-parse` handler decodes a successful answer's body once and hands the
result to botocore as the customised part of the answer, leaving the shape
walker an empty object. Errors (any status but 200) are parsed by botocore as
always, so retries and error codes are unchanged.

A body orjson refuses (a lone UTF-16 surrogate escaped in a live string, which Python's own JSON
reads) takes botocore's path too, so one odd value never stops a listing.

What differs from botocore's parse: timestamps stay as Glue sent them (epoch
seconds, a number) instead of datetimes. gluecat compares no timestamps, and
botocore accepts epoch numbers wherever a request carries one back.

Writing: botocore serialises a request by walking its input shape member by member, about a
third of a partition batch's client time. For the partition batches, a `before-parameter-build`
handler encodes the parameters with orjson, hands botocore the same parameters without their
list of partitions to serialise, and `before-call` puts the whole body back before the request
is signed (retries re-sign that same body). Parameters orjson cannot write as botocore would (a
datetime, bytes) take botocore's path. What gluecat sends is only JSON types, with the member
names of the input shape, so both paths write the same body.
"""

from __future__ import annotations

import functools
from typing import Any

import orjson

LEAN_OPERATIONS = ("GetDatabases", "GetTables", "GetPartitions", "BatchGetPartition")
LEAN_LAKE_FORMATION = ("ListPermissions",)  # every grant of the catalog, read by plan and import
# Each partition batch, with the member that holds its list.
LEAN_REQUESTS = {
    "BatchCreatePartition": "PartitionInputList",
    "BatchUpdatePartition": "Entries",
    "BatchDeletePartition": "PartitionsToDelete",
    "BatchGetPartition": "PartitionsToGet",
}
_BODY = "gluecat.lean_body"


def register(events: Any) -> None:
    """Parse the bulk listings of a Glue client (`client.meta.events`) lean, and write its
    partition batches lean."""
    for operation in LEAN_OPERATIONS:
        events.register(f"before-parse.glue.{operation}", _decode)
    for operation, member in LEAN_REQUESTS.items():
        events.register(f"before-parameter-build.glue.{operation}", functools.partial(_encode, member))
        events.register(f"before-call.glue.{operation}", _restore_body)


def register_lake_formation(events: Any) -> None:
    """Parse the bulk listings of a Lake Formation client lean."""
    for operation in LEAN_LAKE_FORMATION:
        events.register(f"before-parse.lakeformation.{operation}", _decode)


def _encode(member: str, params: dict[str, Any], context: dict[str, Any], **_: Any) -> None:
    try:
        body = orjson.dumps(params, option=orjson.OPT_PASSTHROUGH_DATETIME)
    except TypeError:
        return  # a datetime or bytes: botocore's serialiser writes those its own way
    context[_BODY] = body
    params[member] = []  # a fresh dict of the call's keyword arguments: the caller's list is untouched


def _restore_body(params: dict[str, Any], context: dict[str, Any], **_: Any) -> None:
    body = context.pop(_BODY, None)
    if body is not None:
        params["body"] = body


def _decode(response_dict: dict[str, Any], customized_response_dict: dict[str, Any], **_: Any) -> None:
    if response_dict.get("status_code") != 200 or response_dict["headers"].get("x-amz-crc32"):
        return  # errors, and answers botocore must check a checksum of, take botocore's own path
    try:
        decoded = orjson.loads(response_dict["body"])
    except orjson.JSONDecodeError:
        return  # JSON orjson refuses, such as a lone UTF-16 surrogate (`\ud800`): botocore's parser reads it
    if isinstance(decoded, dict):
        customized_response_dict.update(decoded)
        response_dict["body"] = b"{}"
