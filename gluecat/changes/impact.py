"""What a change does to the readers of a table: an ordered impact and findings that say why.

Pure: shapes in, findings out. The Hive column rules live in `kinds/hive/impact.py`; this module holds
the vocabulary and the rules for the other kinds (deletes, replaces, views, Iceberg, Delta).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol, get_args

from gluecat.model.catalog import Engine
from gluecat.text.plain import counted

# The engines whose reading a finding speaks for. Athena is judged by its documentation and by
# Trino, its engine family; each verdict is backed by that engine in the engines tests.
ENGINES: tuple[Engine, ...] = get_args(Engine)


class Impact(StrEnum):
    """Ordered: safe < breaking < access (someone loses access) < destructive."""

    SAFE = "safe"
    BREAKING = "breaking"
    ACCESS = "access"
    DESTRUCTIVE = "destructive"

    @property
    def rank(self) -> int:
        return _RANKS[self.value]

    def __lt__(self, other: str) -> bool:
        return self.rank < _RANKS[other]

    def __le__(self, other: str) -> bool:
        return self.rank <= _RANKS[other]

    def __gt__(self, other: str) -> bool:
        return self.rank > _RANKS[other]

    def __ge__(self, other: str) -> bool:
        return self.rank >= _RANKS[other]


_RANKS = {"safe": 0, "breaking": 1, "access": 2, "destructive": 3}


@dataclass(frozen=True)
class Finding:
    """One reason for a change's impact, worded for the reviewer of the plan."""

    rule: str
    impact: Impact
    message: str
    engines: tuple[str, ...] = ENGINES  # the engines it holds for (a breaking change breaks only these)

    def holds_for(self, readers: Iterable[str]) -> bool:
        return any(engine in self.engines for engine in readers)

    @property
    def engines_label(self) -> str:
        """`` for every engine, else ` (spark only)`: what a plan adds beside a breaking finding's rule."""
        if self.impact is Impact.SAFE or set(self.engines) == set(ENGINES):
            return ""
        return f" ({', '.join(self.engines)} only)"


METADATA_ONLY = Finding(
    "metadata-only",
    Impact.SAFE,
    "no column, format or location change: readers see the same data (descriptions, comments or parameters)",
)


def worst(impacts: Iterable[Impact]) -> Impact:
    return max(impacts, default=Impact.SAFE, key=lambda impact: impact.rank)


def impact_of(findings: Iterable[Finding], readers: Iterable[str] = ENGINES) -> Impact:
    """The worst impact of the findings on these readers: a breaking finding that breaks none of
    them is safe for them; destructive is destructive for every reader."""
    chosen = tuple(readers)
    return worst(Impact.SAFE if f.impact is Impact.BREAKING and not f.holds_for(chosen) else f.impact for f in findings)


def table_delete(address: str) -> Finding:
    return Finding(
        "table-delete",
        Impact.DESTRUCTIVE,
        f"{address} and its partitions leave the catalog, with Glue's version history of the table;"
        " the files in S3 stay, but readers no longer find them",
    )


def table_replace(before: str, after: str) -> Finding:
    return Finding(
        "partition-keys-change",
        Impact.DESTRUCTIVE,
        f"partition keys change ({before} -> {after}): Glue cannot alter them, so the table is deleted and"
        " created again; its partitions and version history are lost and existing files under the old"
        " layout are no longer read",
    )


def partition_deletes(count: int) -> Finding:
    return Finding(
        "partition-delete",
        Impact.DESTRUCTIVE,
        f"{counted(count, 'partition')} {'leaves' if count == 1 else 'leave'} the catalog:"
        f" {'its files stay' if count == 1 else 'their files stay'} in S3 but no query reads them",
    )


def lake_column_drops(engine: str, dropped: Iterable[str]) -> list[Finding]:
    """Iceberg and Delta map columns by id: a dropped column's data cannot come back by re-adding it.
    `engine`: the table format as its kind names it (`Iceberg`); the rule is `iceberg-column-drop`."""
    return [
        Finding(
            f"{engine.lower()}-column-drop",
            Impact.DESTRUCTIVE,
            f"{engine} drops column `{name}` and its field id: adding `{name}` again makes a new, empty"
            " column; the values already written cannot be read back",
        )
        for name in dropped
    ]


def view_columns(changed: Iterable[str]) -> list[Finding]:
    names = ", ".join(f"`{n}`" for n in changed)
    if not names:
        return []
    return [
        Finding(
            "view-columns",
            Impact.BREAKING,
            f"the view's columns change ({names}): queries and dashboards that read the view see a different shape",
        )
    ]


# The fields of a view's definition: a change to any of them changes what readers get.
VIEW_DEFINITION = ("sql", "view.catalog", "view.schema", "view_original_text", "view_expanded_text")


def view_definition(changed: Iterable[str]) -> list[Finding]:
    fields = sorted(set(changed))
    if not fields:
        return []
    return [
        Finding(
            "view-sql",
            Impact.BREAKING,
            f"the view's definition changes ({', '.join(fields)}): queries and dashboards that read it get"
            " different rows from the next query on",
        )
    ]


class Noun(Protocol):
    """A kind of table as a plan names it: every kind is one (`gluecat.kinds.base.Kind`)."""

    @property
    def noun(self) -> str: ...  # "an Iceberg table"

    @property
    def view(self) -> bool: ...  # its catalog entry is a view (its SQL), not a table holding data


def kind_change(
    live: Mapping[str, Any], was: Noun, becomes: Noun, partitions: int | None = None
) -> tuple[str, Finding] | None:
    """A live table that the YAML declares as another kind (a table as a view, a view as a table):
    Glue cannot turn one into the other in place, so it is deleted and created again. The reason a plan
    shows, and the finding that says what is lost; None when both are views or both are tables.
    `was`: the kind the live entry is (as the kinds registry recognises it); `becomes`: the declared
    one. `partitions`: how many the live table holds, when they were read (None: unknown)."""
    if was.view == becomes.view:
        return None
    keys = [c.get("Name", "") for c in live.get("PartitionKeys") or []]
    if was.view:
        reason = f"{was.noun} becomes {becomes.noun}: its definition (SQL) is deleted"
        lost = "the view's definition (its SQL) and Glue's version history are lost"
    elif keys and partitions != 0:
        held = f"with {partitions:,} partitions" if partitions is not None else f"partitioned by {', '.join(keys)}"
        reason = f"{was.noun} {held} becomes {becomes.noun}: its partitions are deleted"
        lost = (
            "the table, its partitions and Glue's version history are deleted; the files in S3 stay,"
            " but no query reads them through the catalog"
        )
    else:
        reason = f"{was.noun} becomes {becomes.noun}: its location, storage format and SerDe are deleted"
        lost = (
            "the table and Glue's version history are deleted; the files in S3 stay, but no query reads"
            " them through the catalog"
        )
    message = (
        f"{was.noun} becomes {becomes.noun}, which Glue cannot do in place: it is deleted and created again; {lost}"
    )
    return reason, Finding("kind-change", Impact.DESTRUCTIVE, message)
