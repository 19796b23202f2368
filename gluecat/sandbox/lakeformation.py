"""The local Lake Formation: a WSGI layer that answers Lake Formation's calls as the API reference says.

moto's Lake Formation falls short of the contract in ways that hide bugs: BatchGrantPermissions reads
a misspelt key and drops grant options, AddLFTagsToResource replaces a resource's whole tag list and
checks only the key, ListPermissions neither pages nor filters by column or tag policy, and a grant of
ALL on a table is kept as sent. This layer answers the grant and LF-tag calls itself, from one store:
grants merge per principal and resource, ALL on a table is listed expanded as Lake Formation lists it
(ALL, ALTER, DELETE, DESCRIBE, DROP, INSERT on the table, SELECT on a column wildcard), a table's
SELECT is listed on a column wildcard, lists come in pages with NextToken, batches hold at most 20
entries, tag assignments merge key by key and check key and value, and databases, tables and
columns are checked against the local Glue. Every other Lake Formation call goes on to moto.
"""

from __future__ import annotations

import base64
import io
import json
import threading
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gluecat.sandbox import lakeformation_store as lf_store
from gluecat.sandbox.lakeformation_glue import glue_changed
from gluecat.sandbox.lakeformation_store import Fault
from gluecat.sandbox.strict import CONTROL_PREFIX
from gluecat.secrets.files import write_inside

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
PAGE = 25  # ListPermissions' and ListLFTags' page when MaxResults is absent (small: clients must page)
BATCH = 20
HANDLED = frozenset(
    {
        "GrantPermissions",
        "RevokePermissions",
        "BatchGrantPermissions",
        "BatchRevokePermissions",
        "ListPermissions",
        "CreateLFTag",
        "GetLFTag",
        "UpdateLFTag",
        "DeleteLFTag",
        "ListLFTags",
        "AddLFTagsToResource",
        "RemoveLFTagsFromResource",
        "GetResourceLFTags",
        "GetDataLakeSettings",
        "PutDataLakeSettings",
    }
)


@dataclass
class LocalLakeFormation:
    app: WSGIApp
    store: lf_store.Store = field(default_factory=lf_store.Store)
    on_write: Callable[[], None] = lambda: None
    calls: Counter[str] = field(default_factory=Counter)  # apart from the local Glue's: `/_gluecat/lakeformation-calls`

    def __post_init__(self) -> None:
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("HTTP_X_AMZ_TARGET") in GLUE_WATCHED:
            return self._glue_write(environ, start_response)
        if environ.get("PATH_INFO") in (CALLS_PATH, RESET_COUNTS_PATH):
            with self.lock:
                counted = dict(self.calls)
                if environ["PATH_INFO"] == RESET_COUNTS_PATH:
                    self.calls.clear()
            if environ["PATH_INFO"] == RESET_COUNTS_PATH:
                return self.app(environ, start_response)
            start_response("200 OK", [("Content-Type", "application/json")])
            return [json.dumps({"calls": counted}).encode()]
        if environ.get("PATH_INFO") == "/moto-api/reset":
            with self.lock:
                self.store.clear()
            return self.app(environ, start_response)
        operation = str(environ.get("PATH_INFO", "")).strip("/")
        if operation not in HANDLED or lf_store.service(environ) != "lakeformation":
            return self.app(environ, start_response)
        body = _read(environ)
        account, region = lf_store.account_region(environ)
        try:
            with self.lock:
                self.calls[operation] += 1
                answer = self._handle(operation, body, account, region)
        except Fault as fault:
            payload = json.dumps({"__type": fault.code, "message": fault.message}).encode()
            start_response("400 Bad Request", [("Content-Type", "application/json"), ("x-amzn-ErrorType", fault.code)])
            return [payload]
        start_response("200 OK", [("Content-Type", "application/json")])
        return [json.dumps(answer).encode()]

    def _glue_write(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        """A database or table Glue created gets the settings' default grants (IAM_ALLOWED_PRINCIPALS' ALL
        in a new account); one Glue deleted loses its grants and LF-tags, as in Lake Formation."""
        body = _read(environ)
        answered: dict[str, str] = {}

        def capture(status: str, headers: list[tuple[str, str]], *rest: Any) -> Any:
            answered["status"] = status
            return start_response(status, headers, *rest)

        chunks = list(self.app(environ, capture))
        if answered.get("status", "").startswith("200"):
            account, _ = lf_store.account_region(environ)
            operation = str(environ["HTTP_X_AMZ_TARGET"]).split(".", 1)[1]
            with self.lock:
                glue_changed(self.store, str(body.get("CatalogId") or account), operation, body)
            self.on_write()
        return chunks

    def _page_size(self) -> int | None:
        options = getattr(self.app, "options", None)  # the local Glue's options: tests set smaller pages
        return getattr(options, "page_size", None)

    def _handle(self, operation: str, body: dict[str, Any], account: str, region: str) -> dict[str, Any]:
        catalog = str(body.get("CatalogId") or account)
        store = self.store
        if operation in ("GrantPermissions", "RevokePermissions"):
            entry = {k: body.get(k) for k in ("Principal", "Resource", "Permissions", "PermissionsWithGrantOption")}
            store.check_grant(catalog, region, entry)
            (store.grant if operation == "GrantPermissions" else store.revoke)(catalog, entry)
            self.on_write()
            return {}
        if operation in ("BatchGrantPermissions", "BatchRevokePermissions"):
            return self._batch(operation, catalog, region, body.get("Entries") or [])
        if operation == "ListPermissions":
            found = store.list_permissions(catalog, body)
            return _page(found, "PrincipalResourcePermissions", body, self._page_size())
        if operation == "ListLFTags":
            tags = [{"CatalogId": catalog, "TagKey": k, "TagValues": v} for k, v in store.tags_of(catalog).items()]
            return _page(tags, "LFTags", body, self._page_size())
        if operation == "GetLFTag":
            key = str(body.get("TagKey"))
            return {"CatalogId": catalog, "TagKey": key, "TagValues": store.tag_values(catalog, key)}
        if operation == "GetDataLakeSettings":
            return {"DataLakeSettings": store.data_lake_settings(catalog)}
        if operation == "GetResourceLFTags":
            return store.resource_tags(
                catalog, region, body.get("Resource") or {}, bool(body.get("ShowAssignedLFTags"))
            )
        answer = self._tag_write(operation, catalog, region, body)
        self.on_write()
        return answer

    def _tag_write(self, operation: str, catalog: str, region: str, body: dict[str, Any]) -> dict[str, Any]:
        store = self.store
        if operation == "CreateLFTag":
            store.create_tag(catalog, str(body.get("TagKey")), list(body.get("TagValues") or []))
        elif operation == "UpdateLFTag":
            add, delete = list(body.get("TagValuesToAdd") or []), list(body.get("TagValuesToDelete") or [])
            store.update_tag(catalog, str(body.get("TagKey")), add, delete)
        elif operation == "PutDataLakeSettings":
            store.put_data_lake_settings(catalog, body.get("DataLakeSettings") or {})
        elif operation == "DeleteLFTag":
            store.delete_tag(catalog, str(body.get("TagKey")))
        elif operation == "AddLFTagsToResource":
            tags = body.get("LFTags") or []
            return {"Failures": store.add_resource_tags(catalog, region, body.get("Resource") or {}, tags)}
        elif operation == "RemoveLFTagsFromResource":
            tags = body.get("LFTags") or []
            return {"Failures": store.remove_resource_tags(catalog, region, body.get("Resource") or {}, tags)}
        return {}

    def _batch(self, operation: str, catalog: str, region: str, entries: list[dict[str, Any]]) -> dict[str, Any]:
        if not entries or len(entries) > BATCH:
            raise Fault(
                "InvalidInputException",
                f"1 validation error detected: Value at 'entries' failed to satisfy constraint: Member must have"
                f" length between 1 and {BATCH}",
            )
        failures = []
        apply = self.store.grant if operation == "BatchGrantPermissions" else self.store.revoke
        for entry in entries:
            try:
                self.store.check_grant(catalog, region, entry)
                apply(catalog, entry)
            except Fault as fault:
                error = {"ErrorCode": fault.code, "ErrorMessage": fault.message}
                failures.append({"RequestEntry": entry, "Error": error})
        self.on_write()
        return {"Failures": failures}


STATE_FILE = "lakeformation.json"
CALLS_PATH = f"{CONTROL_PREFIX}/lakeformation-calls"
RESET_COUNTS_PATH = f"{CONTROL_PREFIX}/reset-counts"
GLUE_WATCHED = frozenset(f"AWSGlue.{op}" for op in ("CreateDatabase", "CreateTable", "DeleteDatabase", "DeleteTable"))


def restore(layer: LocalLakeFormation, state: Path) -> None:
    path = state / STATE_FILE
    if path.is_file():
        layer.store.load(json.loads(path.read_text()))


def save(layer: LocalLakeFormation, state: Path) -> None:
    with layer.lock:
        data = layer.store.export()
    if any(data.values()) or (state / STATE_FILE).exists():  # principals name accounts: private, as state.json is
        write_inside(state, state / STATE_FILE, json.dumps(data, sort_keys=True), private=True)


def _page(items: list[dict[str, Any]], key: str, body: dict[str, Any], most: int | None) -> dict[str, Any]:
    """A page of at most MaxResults (PAGE when absent), and at most the local Glue's configured page."""
    size = int(body.get("MaxResults") or PAGE)
    if not 1 <= size <= 1000:
        raise Fault("InvalidInputException", "MaxResults must be between 1 and 1000")
    size = min(size, most or size)
    token = body.get("NextToken")
    try:
        start = int(base64.b64decode(token).decode()) if token else 0
    except ValueError:
        raise Fault("InvalidInputException", "Invalid NextToken") from None
    answer: dict[str, Any] = {key: items[start : start + size]}
    if start + size < len(items):
        answer["NextToken"] = base64.b64encode(str(start + size).encode()).decode()
    return answer


def _read(environ: dict[str, Any]) -> dict[str, Any]:
    length = int(environ.get("CONTENT_LENGTH") or 0)
    raw = environ["wsgi.input"].read(length) if length else b""
    environ["wsgi.input"] = io.BytesIO(raw)
    try:
        data = json.loads(raw or b"{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}
