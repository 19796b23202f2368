"""import and an existing catalog.yaml: its Lake Formation keys are compared with the live catalog's
by meaning, like every other file import would write.

A key the file lacks is added (the file is then written). A key the file declares with another
meaning (other administrators, other tag values, other tag grants, or one the live catalog has none
of) makes the file differ: it is kept as it is, unless --force replaces those keys. Every other line
of the file (comments, connection keys, environments) is left as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gluecat.access.meaning import tag_grant_resource
from gluecat.model import CatalogConfig
from gluecat.model.lakeformation import TagGrant, principal_text
from gluecat.secrets.files import write_inside

Shape = dict[str, Any]
LAKE_FORMATION_KEYS = ("data_lake_admins", "lf_tags", "tag_grants")


@dataclass
class CatalogKeys:
    """What import makes of an existing catalog.yaml."""

    live: Shape = field(default_factory=dict)  # the live catalog's keys, as import would write them
    added: list[str] = field(default_factory=list)  # live keys the file lacks
    differing: list[str] = field(default_factory=list)  # keys the file declares with another meaning

    @property
    def unchanged(self) -> bool:
        return not self.added and not self.differing

    def why(self) -> str:
        return f"{', '.join(self.differing)} differ from the live catalog's"


def compare_catalog_keys(declared: CatalogConfig, live: Shape, read: bool) -> CatalogKeys:
    """`read`: whether Lake Formation was read at all (a catalog without it, or one gluecat may not
    read, has nothing to compare the file with)."""
    if not read:
        return CatalogKeys()
    outcome = CatalogKeys(live={key: live.get(key, _EMPTY[key]) for key in LAKE_FORMATION_KEYS})
    for key in LAKE_FORMATION_KEYS:
        held = getattr(declared, key)
        if held is None:
            if key in live:
                outcome.added.append(key)
        elif _meaning(key, held) != _meaning(key, live.get(key, _EMPTY[key])):
            outcome.differing.append(key)
    return outcome


_EMPTY: Shape = {"data_lake_admins": [], "lf_tags": {}, "tag_grants": []}


def _meaning(key: str, value: Any) -> Any:
    """A key's value as Lake Formation holds it: lists as sets, principals as it lists them."""
    if key == "data_lake_admins":
        return frozenset(principal_text(admin) for admin in value)
    if key == "lf_tags":
        return {str(name): frozenset(map(str, values)) for name, values in dict(value).items()}
    grants: dict[tuple[Any, ...], tuple[frozenset[str], frozenset[str]]] = {}
    for grant in value:
        model = grant if isinstance(grant, TagGrant) else TagGrant.model_validate(grant)
        key_of = (principal_text(model.principal), tag_grant_resource(model))
        permissions, grantable = grants.get(key_of, (frozenset(), frozenset()))
        grants[key_of] = (permissions | set(model.permissions), grantable | set(model.grantable))
    return grants


def write_catalog_keys(root: Path, catalog: Path, keys: CatalogKeys, force: bool, dump: Callable[[Shape], str]) -> bool:
    """Add the keys the file lacks and, with `force`, replace those that differ; a file that differs
    without `force` is left whole. Whether the file was written."""
    if keys.unchanged or (keys.differing and not force):
        return False
    lines = catalog.read_text().splitlines(keepends=True)
    for key in keys.differing:
        start = next(i for i, line in enumerate(lines) if _top_level_key(line) == key)
        end = next((i for i in range(start + 1, len(lines)) if _top_level_key(lines[i])), len(lines))
        lines[start:end] = [dump({key: keys.live[key]})]
    text = "".join(lines)
    if keys.added:
        text += ("" if text.endswith("\n") or not text else "\n") + dump({key: keys.live[key] for key in keys.added})
    write_inside(root, catalog, text)
    return True


def _top_level_key(line: str) -> str | None:
    """The key a line starts at the top level of catalog.yaml (not a comment, not indented)."""
    if not line or line[0].isspace() or line.startswith(("#", "-", "---")):
        return None
    name, colon, _ = line.partition(":")
    return name.strip().strip("'\"") if colon else None
