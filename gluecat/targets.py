"""`--target sales` / `--target sales.orders`: which objects a plan or apply may touch."""

from __future__ import annotations

from dataclasses import dataclass

from gluecat.errors import GluecatError


@dataclass(frozen=True)
class Targets:
    """Empty means everything."""

    entries: tuple[tuple[str, str | None], ...] = ()

    @classmethod
    def parse(cls, raw: list[str] | None) -> Targets:
        entries: list[tuple[str, str | None]] = []
        for text in raw or []:
            database, _, table = text.strip().partition(".")
            if not database or "." in table:
                raise GluecatError(f"--target '{text}': write DATABASE or DATABASE.TABLE")
            entries.append((database, table or None))
        return cls(tuple(entries))

    def texts(self) -> tuple[str, ...]:
        """The targets as the user wrote them (`sales`, `sales.orders`)."""
        return tuple(db if table is None else f"{db}.{table}" for db, table in self.entries)

    def database(self, database: str) -> bool:
        """True when the database itself (not only some of its tables) is targeted."""
        return not self.entries or (database, None) in self.entries

    def touches(self, database: str) -> bool:
        return not self.entries or any(db == database for db, _ in self.entries)

    def table(self, database: str, table: str) -> bool:
        return self.database(database) or (database, table) in self.entries
