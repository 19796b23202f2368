"""The local Glue keeps table versions as Glue does: one per UpdateTable unless SkipArchive, the
VersionId checked, GetTableVersions paged, BatchDeleteTableVersion at most 100 a call with an error
per version it cannot delete, never the current one."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError

from gluecat.sandbox.server import LocalGlue


def _table(comment: str) -> dict[str, Any]:
    return {
        "Name": "events",
        "Description": comment,
        "StorageDescriptor": {"Columns": [{"Name": "id", "Type": "bigint"}], "Location": "s3://lake/events/"},
    }


def _versions(raw_glue: Any) -> list[str]:
    pages = raw_glue.get_paginator("get_table_versions").paginate(DatabaseName="web", TableName="events")
    return [v["VersionId"] for page in pages for v in page["TableVersions"]]


@pytest.fixture
def events(raw_glue: Any) -> Any:
    raw_glue.create_database(DatabaseInput={"Name": "web"})
    raw_glue.create_table(DatabaseName="web", TableInput=_table("v1"))
    return raw_glue


def _update(glue: Any, comment: str, **extra: Any) -> None:
    glue.update_table(DatabaseName="web", TableInput=_table(comment), **extra)


def test_each_update_keeps_a_version_newest_first_each_with_its_own_definition(events: Any) -> None:
    for comment in ("v2", "v3", "v4"):
        _update(events, comment)
    answer = events.get_table_versions(DatabaseName="web", TableName="events")["TableVersions"]
    assert [v["VersionId"] for v in answer] == ["4", "3", "2", "1"]
    assert [v["Table"]["Description"] for v in answer] == ["v4", "v3", "v2", "v1"]
    times = [v["Table"]["UpdateTime"] for v in answer]
    assert times == sorted(times, reverse=True) and len(set(times)) == 4  # each version's own time
    assert events.get_table(DatabaseName="web", Name="events")["Table"]["VersionId"] == "4"
    one = events.get_table_version(DatabaseName="web", TableName="events", VersionId="2")["TableVersion"]
    assert one["Table"]["Description"] == "v2"


def test_skip_archive_keeps_no_copy_of_the_replaced_version_yet_moves_the_version_id(events: Any) -> None:
    _update(events, "v2")
    _update(events, "v3", SkipArchive=True)
    assert _versions(events) == ["3", "1"]  # version 2 was replaced without an archived copy
    with pytest.raises(ClientError) as stale:
        _update(events, "late", VersionId="2")
    assert stale.value.response["Error"]["Code"] == "ConcurrentModificationException"
    _update(events, "v4", VersionId="3")
    assert _versions(events) == ["4", "3", "1"]


def test_get_table_versions_pages_at_most_100(events: Any, server: LocalGlue) -> None:
    for number in range(2, 131):
        _update(events, f"v{number}")
    first = events.get_table_versions(DatabaseName="web", TableName="events")
    assert len(first["TableVersions"]) == 100 and "NextToken" in first
    assert _versions(events) == [str(n) for n in range(130, 0, -1)]
    server.configure(page_size=7)
    assert len(_versions(events)) == 130


def test_batch_delete_holds_glue_limit_and_reports_what_it_cannot_delete(events: Any) -> None:
    for number in range(2, 6):
        _update(events, f"v{number}")
    with pytest.raises(ClientError) as too_many:
        events.batch_delete_table_version(DatabaseName="web", TableName="events", VersionIds=["1"] * 101)
    assert too_many.value.response["Error"]["Code"] == "ValidationException"
    assert _versions(events) == ["5", "4", "3", "2", "1"]  # the refused call deleted nothing
    answer = events.batch_delete_table_version(DatabaseName="web", TableName="events", VersionIds=["1", "5", "77", "2"])
    refused = {e["VersionId"]: e["ErrorDetail"]["ErrorCode"] for e in answer["Errors"]}
    assert refused == {"5": "InvalidInputException", "77": "EntityNotFoundException"}
    assert _versions(events) == ["5", "4", "3"]
    assert events.get_table(DatabaseName="web", Name="events")["Table"]["Description"] == "v5"
    with pytest.raises(ClientError) as missing:
        events.batch_delete_table_version(DatabaseName="web", TableName="nope", VersionIds=["1"])
    assert missing.value.response["Error"]["Code"] == "EntityNotFoundException"
    with pytest.raises(ClientError) as gone:
        events.get_table_version(DatabaseName="web", TableName="events", VersionId="1")
    assert gone.value.response["Error"]["Code"] == "EntityNotFoundException"
