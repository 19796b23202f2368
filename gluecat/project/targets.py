"""`--target sales` / `--target sales.orders`: which objects a plan or apply may touch."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from gluecat.errors import GluecatError
from gluecat.model.suggest import closest, either


@dataclass(frozen=True)
class Targets:
    """Empty means everything, unless `scoped` (a `--changed-since` plan that found nothing to plan)."""

    entries: tuple[tuple[str, str | None], ...] = ()
    # Tables whose files are gone (`--changed-since`): planned as a full plan plans a table the YAML
    # no longer declares (deleted under prune, named otherwise).
    removed: tuple[tuple[str, str], ...] = ()
    # Only the targeted objects' files are read (`--changed-since`); else every file is, and errors in
    # files not targeted are warnings.
    scoped: bool = False
    summary: str | None = None  # the plan's note, when not the --target one

    @classmethod
    def parse(cls, raw: list[str] | None) -> Targets:
        entries: list[tuple[str, str | None]] = []
        for text in raw or []:
            database, _, table = text.strip().partition(".")
            if not database or "." in table:
                raise GluecatError(f"--target '{text}': write DATABASE or DATABASE.TABLE")
            entries.append((database, table or None))
        return cls(tuple(entries))

    @property
    def everything(self) -> bool:
        return not self.entries and not self.removed and not self.scoped

    def check(self, tables_by_database: Mapping[str, Iterable[str]]) -> None:
        """Every target names a database or table of the project, else an error with a did-you-mean."""
        for database, table in self.entries:
            names = tables_by_database.get(database)
            if names is None or (table is not None and table not in names):
                text = database if table is None else f"{database}.{table}"
                raise unmatched("--target", text, addresses(tables_by_database), "in the project")

    def note(self) -> str | None:
        """The plan's reminder that it saw only part of the catalog."""
        if self.summary is not None:
            return self.summary
        if self.everything:
            return None
        return f"Targeting {', '.join(self.texts())} only: other objects were not read."

    def texts(self) -> tuple[str, ...]:
        """The targets as the user wrote them (`sales`, `sales.orders`), and the removed tables."""
        named = tuple(db if table is None else f"{db}.{table}" for db, table in self.entries)
        return named + tuple(f"{db}.{table}" for db, table in self.removed)

    def database(self, database: str) -> bool:
        """True when the database itself (not only some of its tables) is targeted."""
        return self.everything or (database, None) in self.entries

    def touches(self, database: str) -> bool:
        return self.everything or any(db == database for db, _ in (*self.entries, *self.removed))

    def table(self, database: str, table: str) -> bool:
        return self.database(database) or (database, table) in self.entries

    def tables_in(self, database: str) -> list[str]:
        """The tables targeted one by one in `database`, the removed ones too (not the database whole)."""
        return [t for db, t in (*self.entries, *self.removed) if db == database and t is not None]

    def gone(self, database: str) -> list[str]:
        """The removed tables of `database`."""
        return [t for db, t in self.removed if db == database]


def addresses(tables_by_database: Mapping[str, Iterable[str]]) -> list[str]:
    """`sales`, `sales.orders`, ...: every name a target or selection may use."""
    names: list[str] = []
    for database, tables in sorted(tables_by_database.items()):
        names += [database, *(f"{database}.{table}" for table in sorted(tables))]
    return names


def unmatched(flag: str, text: str, candidates: list[str], where: str) -> GluecatError:
    """`--target 'sales.ordrs' matches nothing in the project: did you mean 'sales.orders'?`"""
    close = closest(text, candidates)
    if close:
        hint = f"did you mean {either(close)}?"
    elif candidates:
        hint = f"there are {', '.join(candidates[:5])}{', ...' if len(candidates) > 5 else ''}"
    else:
        hint = "there is nothing to match"
    return GluecatError(f"{flag} {text!r} matches nothing {where}: {hint}")
