"""Read what Lake Formation holds of what the project owns: few calls, every list paged."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from gluecat.access.desired import DesiredAccess, TagTarget
from gluecat.access.meaning import GrantKey, GrantState, live_grants
from gluecat.backends import lakeformation as lf
from gluecat.errors import LiveStateError

Shape = dict[str, object]


@dataclass
class LiveAccess:
    tag_keys: dict[str, list[str]] = field(default_factory=dict)
    assignments: dict[TagTarget, dict[str, str]] = field(default_factory=dict)
    grants: dict[GrantKey, GrantState] = field(default_factory=dict)


def read_access(client: lf.LakeFormation, wanted: DesiredAccess, exists: Callable[[TagTarget], bool]) -> LiveAccess:
    """`exists`: whether a database or table is in the live catalog (one the plan creates is not,
    and holds nothing yet)."""
    live = LiveAccess()
    if wanted.tag_keys is not None:
        live.tag_keys = client.tags()
    if wanted.owned_grants or wanted.owns_tag_grants:
        live.grants = live_grants(client.permissions())
    tables: dict[tuple[str, str], list[str]] = {}
    for target in wanted.assignments:
        if target[0] == "column":
            tables.setdefault((target[1], target[2]), []).append(target[3])
        elif exists(target):
            resource = lf.database_resource(target[1]) if target[0] == "database" else lf.table_resource(*target[1:])
            answer = _tags_of(client, resource)
            pairs = answer.get("LFTagOnDatabase") if target[0] == "database" else answer.get("LFTagsOnTable")
            live.assignments[target] = _pairs(pairs)
    for (database, table), columns in tables.items():
        if not exists(("table", database, table)):
            continue
        answer = _tags_of(client, lf.columns_resource(database, table, sorted(columns)))
        for column in answer.get("LFTagsOnColumns") or []:
            live.assignments[("column", database, table, str(column["Name"]).lower())] = _pairs(column.get("LFTags"))
    return live


def _tags_of(client: lf.LakeFormation, resource: dict[str, object]) -> dict[str, list[dict[str, object]]]:
    try:
        return client.resource_tags(resource)
    except LiveStateError as exc:
        if "EntityNotFoundException" in str(exc):  # not in the catalog yet: nothing assigned
            return {}
        raise


def _pairs(pairs: object) -> dict[str, str]:
    found: dict[str, str] = {}
    for pair in pairs if isinstance(pairs, list) else []:
        values = pair.get("TagValues") or []
        if values:
            found[str(pair["TagKey"])] = str(values[0])
    return found
