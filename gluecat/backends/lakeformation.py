"""The Lake Formation calls gluecat makes: LF-tags, their assignments, and grants, paged and batched.

ListPermissions and ListLFTags are read page by page (NextToken); grants and revocations go in
BatchGrantPermissions / BatchRevokePermissions calls of at most 20 entries, each entry's failure
returned beside its id; tag values are sent at most 50 a call (the API reference's limits).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from gluecat.backends import aws, lean_json
from gluecat.backends.aws import Session
from gluecat.backends.denied import denied
from gluecat.errors import AccessDeniedError, GluecatError, LiveStateError, UnreachableError

BATCH_PERMISSIONS = 20
TAG_VALUES_PER_CALL = 50
TAGS_PER_CALL = 50
PAGE = 1000  # ListPermissions' and ListLFTags' largest MaxResults: Lake Formation may answer fewer
Shape = dict[str, Any]


@dataclass(frozen=True)
class EntryFailure:
    """One entry of a batch Lake Formation refused: its id and why."""

    id: str
    code: str
    message: str


class LakeFormation:
    def __init__(self, session: Session, endpoint_url: str | None, catalog_id: str | None) -> None:
        self.client = aws.client(session, "lakeformation", endpoint_url)
        self.catalog_id = catalog_id
        self.calls: Counter[str] = Counter()
        self.client.meta.events.register("after-call.lakeformation", self._count)
        lean_json.register_lake_formation(self.client.meta.events)

    def _count(self, model: Any, **_: Any) -> None:
        self.calls[model.name] += 1

    def _call(self, operation: str, **kwargs: Any) -> Shape:
        if self.catalog_id:
            kwargs.setdefault("CatalogId", self.catalog_id)
        try:
            result: Shape = getattr(self.client, operation)(**kwargs)
        except ClientError as exc:
            refused = denied(exc, "lakeformation")
            if refused is not None:
                raise refused from exc
            error = exc.response.get("Error", {})
            raise LiveStateError(
                f"Lake Formation {exc.operation_name} failed: {error.get('Code', 'Unknown')}: {error.get('Message')}"
            ) from exc
        except BotoCoreError as exc:
            raise UnreachableError(f"cannot reach Lake Formation: {aws.explain(exc)}") from exc
        return result

    def _paged(self, operation: str, key: str, **kwargs: Any) -> list[Shape]:
        items: list[Shape] = []
        token: str | None = None
        while True:
            answer = self._call(operation, **kwargs, **({"NextToken": token} if token else {}))
            items.extend(answer.get(key) or [])
            token = answer.get("NextToken")
            if not token:
                return items

    # settings

    def settings(self) -> Shape:
        return self._call("get_data_lake_settings").get("DataLakeSettings") or {}

    def admins(self) -> list[str]:
        settings = self.settings()
        return [a["DataLakePrincipalIdentifier"] for a in settings.get("DataLakeAdmins") or []]

    def set_admins(self, principals: Sequence[str]) -> None:
        """The administrators alone change: the other settings are written back as they were read."""
        settings = self._call("get_data_lake_settings").get("DataLakeSettings") or {}
        settings["DataLakeAdmins"] = [{"DataLakePrincipalIdentifier": p} for p in principals]
        self._call("put_data_lake_settings", DataLakeSettings=settings)

    # LF-tag definitions

    def tags(self) -> dict[str, list[str]]:
        pages = self._paged("list_lf_tags", "LFTags", MaxResults=PAGE)
        return {t["TagKey"]: list(t["TagValues"]) for t in pages}

    def create_tag(self, key: str, values: Sequence[str]) -> None:
        first, *rest = list(aws.chunks(list(values), TAG_VALUES_PER_CALL))
        self._call("create_lf_tag", TagKey=key, TagValues=list(first))
        for more in rest:
            self._call("update_lf_tag", TagKey=key, TagValuesToAdd=list(more))

    def update_tag(self, key: str, add: Sequence[str] = (), delete: Sequence[str] = ()) -> None:
        for values in aws.chunks(list(add), TAG_VALUES_PER_CALL):
            self._call("update_lf_tag", TagKey=key, TagValuesToAdd=list(values))
        for values in aws.chunks(list(delete), TAG_VALUES_PER_CALL):
            self._call("update_lf_tag", TagKey=key, TagValuesToDelete=list(values))

    def delete_tag(self, key: str) -> None:
        self._call("delete_lf_tag", TagKey=key)

    # LF-tags on databases, tables and columns

    def resource_tags(self, resource: Shape) -> Shape:
        """What is assigned to the resource itself (not what it inherits): LFTagOnDatabase,
        LFTagsOnTable, LFTagsOnColumns."""
        return self._call("get_resource_lf_tags", Resource=resource, ShowAssignedLFTags=True)

    def add_tags(self, resource: Shape, tags: dict[str, str]) -> None:
        pairs = [{"TagKey": k, "TagValues": [v]} for k, v in tags.items()]
        for chunk in aws.chunks(pairs, TAGS_PER_CALL):
            self._failed("AddLFTagsToResource", self._call("add_lf_tags_to_resource", Resource=resource, LFTags=chunk))

    def remove_tags(self, resource: Shape, tags: dict[str, str]) -> None:
        pairs = [{"TagKey": k, "TagValues": [v]} for k, v in tags.items()]
        for chunk in aws.chunks(pairs, TAGS_PER_CALL):
            answer = self._call("remove_lf_tags_from_resource", Resource=resource, LFTags=chunk)
            self._failed("RemoveLFTagsFromResource", answer)

    @staticmethod
    def _failed(operation: str, answer: Shape) -> None:
        failures = answer.get("Failures") or []
        if failures:
            first = failures[0]
            error = first.get("Error") or {}
            tag = first.get("LFTag") or {}
            raise LiveStateError(
                f"Lake Formation {operation} refused {tag.get('TagKey')}={tag.get('TagValues')}:"
                f" {error.get('ErrorCode')}: {error.get('ErrorMessage')}"
            )

    # grants

    def permissions(self) -> list[Shape]:
        """Every grant of the catalog, page by page (PrincipalResourcePermissions)."""
        return self._paged("list_permissions", "PrincipalResourcePermissions", MaxResults=PAGE)

    def batch_grant(self, entries: Sequence[Shape]) -> list[EntryFailure]:
        return self._batch("batch_grant_permissions", entries)

    def batch_revoke(self, entries: Sequence[Shape]) -> list[EntryFailure]:
        return self._batch("batch_revoke_permissions", entries)

    def _batch(self, operation: str, entries: Sequence[Shape]) -> list[EntryFailure]:
        """Entries carry an `Id`; the failures name theirs. A call that fails whole fails each entry."""
        failures: list[EntryFailure] = []
        for chunk in aws.chunks(list(entries), BATCH_PERMISSIONS):
            try:
                answer = self._call(operation, Entries=list(chunk))
            except (UnreachableError, AccessDeniedError):  # every later call would fail too
                raise
            except GluecatError as exc:
                failures.extend(EntryFailure(e["Id"], "CallFailed", str(exc)) for e in chunk)
                continue
            for failure in answer.get("Failures") or []:
                error = failure.get("Error") or {}
                entry = failure.get("RequestEntry") or {}
                code, message = error.get("ErrorCode", ""), error.get("ErrorMessage", "")
                failures.append(EntryFailure(str(entry.get("Id")), code, message))
        return failures


def database_resource(name: str) -> Shape:
    return {"Database": {"Name": name}}


def table_resource(database: str, table: str) -> Shape:
    return {"Table": {"DatabaseName": database, "Name": table}}


def columns_resource(database: str, table: str, columns: Sequence[str]) -> Shape:
    return {"TableWithColumns": {"DatabaseName": database, "Name": table, "ColumnNames": list(columns)}}


def excluded_resource(database: str, table: str, excluded: Sequence[str]) -> Shape:
    wildcard = {"ExcludedColumnNames": list(excluded)}
    return {"TableWithColumns": {"DatabaseName": database, "Name": table, "ColumnWildcard": wildcard}}


def tag_policy_resource(resource_type: str, expression: dict[str, list[str]]) -> Shape:
    terms = [{"TagKey": key, "TagValues": list(values)} for key, values in expression.items()]
    return {"LFTagPolicy": {"ResourceType": resource_type, "Expression": terms}}
