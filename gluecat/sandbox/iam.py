"""IAM actions checked in front of every call the local Glue answers, as moto checks them.

moto checks a caller's IAM policies once `INITIAL_NO_AUTH_ACTION_COUNT` calls have been made (the
first ones are free, for setting up) or once `POST /moto-api/reset-auth` sets that count. Behind the
strict layer its own check cannot work: that layer answers some calls itself (optimizers, partition
indexes, Lake Formation, batch partition writes), rewrites the bodies it forwards (so moto finds
the signature wrong) and makes calls of its own for a caller (a GetTable before an UpdateTable);
and moto names S3's actions after its operations (`s3:ListObjectsV2`), not as IAM does
(`s3:ListBucket`). So this layer, the outermost, takes moto's setting over and checks each request
as the client sent it: the caller's access key names an IAM user of the local IAM, and the user's
policies must allow the request's action. Like moto it checks actions, not resources: a statement's
`Resource` is not compared. Signatures are not checked. `sts:GetCallerIdentity` is always allowed,
as in AWS.
"""

from __future__ import annotations

import io
import json
import re
import threading
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
RESET_AUTH_PATH = "/moto-api/reset-auth"
ALWAYS_ALLOWED = frozenset({"sts:GetCallerIdentity"})
_CREDENTIAL = re.compile(r"Credential=([^/,\s]+)/[^/]*/([^/]+)/([^/]+)/")
# S3's IAM action for a request: (on a key?, method) -> action; a sub-resource in the query changes it.
_S3_ACTIONS = {
    (False, "HEAD"): "ListBucket",
    (False, "GET"): "ListBucket",
    (False, "PUT"): "CreateBucket",
    (False, "DELETE"): "DeleteBucket",
    (False, "POST"): "DeleteObject",  # ?delete: DeleteObjects
    (True, "HEAD"): "GetObject",
    (True, "GET"): "GetObject",
    (True, "PUT"): "PutObject",  # also UploadPart and CopyObject
    (True, "POST"): "PutObject",  # CreateMultipartUpload, CompleteMultipartUpload
    (True, "DELETE"): "DeleteObject",
}
_S3_SUBRESOURCES = {
    (False, "GET", "location"): "GetBucketLocation",
    (False, "GET", "versioning"): "GetBucketVersioning",
    (False, "GET", "uploads"): "ListBucketMultipartUploads",
    (False, "GET", "versions"): "ListBucketVersions",
    (True, "GET", "uploadId"): "ListMultipartUploadParts",
    (True, "DELETE", "uploadId"): "AbortMultipartUpload",
}


class IamGate:
    """`free_calls`: calls answered before policies are checked (moto's INITIAL_NO_AUTH_ACTION_COUNT)."""

    def __init__(self, app: WSGIApp, free_calls: float) -> None:
        self.app = app
        self.free_calls = free_calls
        self.made = 0
        self._lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("PATH_INFO") == RESET_AUTH_PATH and environ.get("REQUEST_METHOD") == "POST":
            return self._reset(environ, start_response)
        credential = _credential(environ)
        if credential is None:  # the sandbox's own hooks, and unsigned requests
            return self.app(environ, start_response)
        with self._lock:  # counted under the lock, answered outside it: calls go on side by side
            free = self.made < self.free_calls
            self.made += free
        if free:
            return self.app(environ, start_response)
        access_key, region, service = credential
        action = f"{service}:{_operation(environ, service)}"
        refusal = _refusal(access_key, region, action)
        if refusal is None:
            return self.app(environ, start_response)
        status, headers, body = _denial(service, *refusal)
        start_response(status, [*headers, ("Content-Length", str(len(body)))])
        return [body]

    def _reset(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        """moto's own hook: the number of calls still free; 0 checks every call from now on."""
        raw = _body(environ).decode(errors="replace").strip()
        try:
            free_calls = float(raw) if raw else float("inf")
        except ValueError:
            body = b'{"Error": "POST the number of calls left free, e.g. 0"}'
            start_response(
                "400 Bad Request", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
            )
            return [body]
        with self._lock:
            previous, self.free_calls, self.made = self.free_calls, free_calls, 0
        body = json.dumps({"status": "ok", "PREVIOUS_INITIAL_NO_AUTH_ACTION_COUNT": str(previous)}).encode()
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
        return [body]


def take_over_moto_setting() -> float:
    """moto's INITIAL_NO_AUTH_ACTION_COUNT (from the environment) becomes this layer's; moto itself
    then checks nothing, since it would see the strict layer's rewritten requests."""
    from moto import settings

    free_calls = float(settings.INITIAL_NO_AUTH_ACTION_COUNT)
    settings.INITIAL_NO_AUTH_ACTION_COUNT = float("inf")
    return free_calls


def _credential(environ: dict[str, Any]) -> tuple[str, str, str] | None:
    found = _CREDENTIAL.search(str(environ.get("HTTP_AUTHORIZATION", "")))
    if found is None:
        found = _CREDENTIAL.search(
            "Credential=" + "".join(parse_qs(environ.get("QUERY_STRING", "")).get("X-Amz-Credential", []))
        )
    return (found.group(1), found.group(2), found.group(3)) if found else None


def _operation(environ: dict[str, Any], service: str) -> str:
    target = str(environ.get("HTTP_X_AMZ_TARGET", ""))
    if target:  # JSON protocols (Glue): `AWSGlue.GetTables`
        return target.rsplit(".", 1)[-1]
    if service == "s3":
        return _s3_operation(environ)
    query = parse_qs(environ.get("QUERY_STRING", ""))
    if "Action" in query:
        return str(query["Action"][0])
    if "x-www-form-urlencoded" in str(environ.get("CONTENT_TYPE", "")):  # query protocols (IAM, STS)
        form = parse_qs(_body(environ).decode(errors="replace"))
        if "Action" in form:
            return str(form["Action"][0])
    return str(environ.get("PATH_INFO", "")).strip("/").split("/")[0]  # REST-JSON (Lake Formation): /ListLFTags


def _s3_operation(environ: dict[str, Any]) -> str:
    """Path-style addressing, as on a local endpoint: /bucket or /bucket/key."""
    on_key = "/" in str(environ.get("PATH_INFO", "")).strip("/")
    method = str(environ.get("REQUEST_METHOD", "GET"))
    query = parse_qs(environ.get("QUERY_STRING", ""), keep_blank_values=True)
    for (key, verb, name), action in _S3_SUBRESOURCES.items():
        if key == on_key and verb == method and name in query:
            return action
    return _S3_ACTIONS.get((on_key, method), method)


def _body(environ: dict[str, Any]) -> bytes:
    """The body, read once and put back for the layers below."""
    length = int(environ.get("CONTENT_LENGTH") or 0)
    body = environ["wsgi.input"].read(length) if length else b""
    environ["wsgi.input"] = io.BytesIO(body)
    return body


def _refusal(access_key: str, region: str, action: str) -> tuple[bool, str] | None:
    """Why the key's user may not call `action` (and whether the key is unknown), or None when a
    policy allows it."""
    if action in ALWAYS_ALLOWED:
        return None
    from moto.iam.models import get_account_id_from, iam_backends
    from moto.utilities.utils import get_partition

    account = get_account_id_from(access_key)
    backend = iam_backends[account][get_partition(region)]
    user = next((u for u in backend.users.values() for k in u.access_keys if k.access_key_id == access_key), None)
    if user is None:
        return True, "The security token included in the request is invalid."
    allowed = False
    for document in _documents(backend, user):
        for statement in _statements(document):
            if not any(_matches(pattern, action) for pattern in _listed(statement.get("Action"))):
                continue
            if statement.get("Effect") == "Deny":
                return False, f"User: {user.arn} is not authorized to perform: {action} with an explicit deny"
            allowed = True
    return None if allowed else (False, f"User: {user.arn} is not authorized to perform: {action}")


def _documents(backend: Any, user: Any) -> list[Any]:
    documents = [json.loads(text) for text in user.policies.values()]
    attached = list(user.managed_policies.values())
    for group in backend.get_groups_for_user(user.name):
        documents += [json.loads(text) for text in group.policies.values()]
        attached += list(group.managed_policies.values())
    for policy in attached:
        version = next(v for v in policy.versions if v.is_default)
        documents.append(json.loads(version.document))
    return documents


def _statements(document: Any) -> list[dict[str, Any]]:
    statements = document.get("Statement", [])
    return statements if isinstance(statements, list) else [statements]


def _listed(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else list(value or [])


def _matches(pattern: str, action: str) -> bool:
    """IAM's action match: case-insensitive, `*` and `?` wildcards."""
    expression = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    return re.fullmatch(expression, action, re.IGNORECASE) is not None


def _denial(service: str, unknown_key: bool, message: str) -> tuple[str, list[tuple[str, str]], bytes]:
    """AWS's refusal in the service's own protocol: JSON for Glue and Lake Formation, XML otherwise;
    a key the local IAM does not know is refused as AWS refuses one, not as a missing permission."""
    if service in ("glue", "lakeformation"):
        code = "UnrecognizedClientException" if unknown_key else "AccessDeniedException"
        body = json.dumps({"__type": code, "Message": message}).encode()
        status = "403 Forbidden" if service == "lakeformation" and not unknown_key else "400 Bad Request"
        return status, [("Content-Type", "application/x-amz-json-1.1"), ("x-amzn-ErrorType", code)], body
    escaped = message.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if service == "s3":
        code = "InvalidAccessKeyId" if unknown_key else "AccessDenied"
        xml = f"<?xml version='1.0' encoding='UTF-8'?><Error><Code>{code}</Code><Message>{escaped}</Message></Error>"
    else:
        code = "InvalidClientTokenId" if unknown_key else "AccessDenied"
        xml = f"<ErrorResponse><Error><Type>Sender</Type><Code>{code}</Code><Message>{escaped}</Message></Error>"
        xml += "</ErrorResponse>"
    return "403 Forbidden", [("Content-Type", "text/xml")], xml.encode()
