"""Glue's large listings parsed at JSON speed while botocore still signs, retries and raises.

botocore walks every answer against the operation's output shape, turning each
timestamp into a datetime: for GetPartitions that walk costs about ten times
the JSON decoding itself. For the listings a plan and import read in bulk, a
`before-parse` handler decodes a successful answer's body once and hands the
result to botocore as the customised part of the answer, leaving the shape
walker an empty object. Errors (any status but 200) are parsed by botocore as
always, so retries and error codes are unchanged.

What differs from botocore's parse: timestamps stay as Glue sent them (epoch
seconds, a number) instead of datetimes. gluecat compares no timestamps, and
botocore accepts epoch numbers wherever a request carries one back.
"""

from __future__ import annotations

from typing import Any

import orjson

LEAN_OPERATIONS = ("GetDatabases", "GetTables", "GetPartitions", "BatchGetPartition")


def register(events: Any) -> None:
    """Parse the bulk listings of a Glue client (`client.meta.events`) lean."""
    for operation in LEAN_OPERATIONS:
        events.register(f"before-parse.glue.{operation}", _decode)


def _decode(response_dict: dict[str, Any], customized_response_dict: dict[str, Any], **_: Any) -> None:
    if response_dict.get("status_code") != 200 or response_dict["headers"].get("x-amz-crc32"):
        return  # errors, and answers botocore must check a checksum of, take botocore's own path
    decoded = orjson.loads(response_dict["body"])
    if isinstance(decoded, dict):
        customized_response_dict.update(decoded)
        response_dict["body"] = b"{}"
