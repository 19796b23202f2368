"""A call AWS refused for want of an IAM permission, as one line naming the permission.

Glue, Lake Formation and STS name their IAM actions as their operations (glue:GetTables is the
GetTables call), so the operation botocore sent is the permission to add. S3's actions are not its
operations (HeadObject needs s3:GetObject, ListObjectsV2 s3:ListBucket), and pyiceberg's (pyarrow's)
and deltalake's S3 requests fail as text, not as a ClientError: their refusals are read from it."""

from __future__ import annotations

import re

from botocore.exceptions import ClientError

from gluecat.errors import AccessDeniedError, LiveStateError

DENIED_CODES = frozenset({"AccessDeniedException", "AccessDenied", "UnauthorizedOperation", "AuthorizationError"})
POLICY_HINT = "`gluecat iam-policy` prints what each command needs"


def denied(exc: ClientError, service: str) -> AccessDeniedError | None:
    """The refusal as an AccessDeniedError, or None when the call failed for another reason."""
    error = exc.response.get("Error", {})
    status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
    if error.get("Code") not in DENIED_CODES and status != 403:
        return None
    action = S3_ACTIONS.get(exc.operation_name, "") if service == "s3" else ""
    action = action or f"{service}:{exc.operation_name}"
    return AccessDeniedError(action, denial_message(action))


DENIED_PREFIX = "permission denied: "
DENIED = re.compile(r"permission denied: the credentials lack (\S+);")


def denial_message(action: str) -> str:
    return f"{DENIED_PREFIX}the credentials lack {action}; grant it ({POLICY_HINT})"


# S3 operations by the IAM action that allows them (as pyarrow and botocore name them).
S3_ACTIONS = {
    "HeadObject": "s3:GetObject",
    "GetObject": "s3:GetObject",
    "PutObject": "s3:PutObject",
    "CreateMultipartUpload": "s3:PutObject",
    "UploadPart": "s3:PutObject",
    "CompleteMultipartUpload": "s3:PutObject",
    "CopyObject": "s3:PutObject",
    "ListObjectsV2": "s3:ListBucket",
    "ListObjects": "s3:ListBucket",
    "HeadBucket": "s3:ListBucket",
    "DeleteObject": "s3:DeleteObject",
    "DeleteObjects": "s3:DeleteObject",
}
# pyarrow's S3 filesystem (under pyiceberg): "AWS Error ACCESS_DENIED during HeadObject operation".
_PYARROW = re.compile(r"AWS Error ACCESS_DENIED during (\w+) operation")
# object_store (under deltalake): "Error performing GET http://… - … 403 Forbidden", "Error performing list request".
_OBJECT_STORE = re.compile(r"Error performing (GET|HEAD|PUT|POST|DELETE|list)\b")
_OBJECT_STORE_ACTIONS = {
    "GET": "s3:GetObject",
    "HEAD": "s3:GetObject",
    "PUT": "s3:PutObject",
    "POST": "s3:PutObject",
    "DELETE": "s3:DeleteObject",
    "list": "s3:ListBucket",
}


def engine_denied(exc: BaseException, service: str = "glue") -> AccessDeniedError | None:
    """A refusal raised inside an engine library (pyiceberg's Glue calls, pyarrow's or deltalake's
    S3 requests), found in `exc` or what caused it; `service`: whose botocore calls it made."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, AccessDeniedError):
            return seen
        if isinstance(seen, ClientError):
            return denied(seen, "s3" if seen.operation_name in S3_ACTIONS else service)
        text = str(seen)
        found = _PYARROW.search(text)
        if found:
            action = S3_ACTIONS.get(found.group(1), f"s3:{found.group(1)}")
            return AccessDeniedError(action, denial_message(action))
        performed = _OBJECT_STORE.search(text)
        if performed and ("403 Forbidden" in text or "lacked the necessary privileges" in text):
            action = _OBJECT_STORE_ACTIONS[performed.group(1)]
            return AccessDeniedError(action, denial_message(action))
        seen = seen.__cause__ or seen.__context__
    return None


def live_error(exc: BaseException, message: str, service: str = "glue") -> LiveStateError:
    """What an engine library's failure becomes: the permission it lacked, named in one line, or `message`."""
    return engine_denied(exc, service) or LiveStateError(message)
