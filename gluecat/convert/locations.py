"""Default locations: tables under their database, partitions the Hive way."""

from __future__ import annotations

import re
from collections.abc import Sequence

from gluecat.model import Database
from gluecat.model.table import TableBase
from gluecat.secrets import values as secret_values

HIVE_DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__"
# Hive's FileUtils.escapePathName: control characters and these are written as %XX.
_ESCAPED = frozenset([chr(c) for c in range(0x01, 0x20)] + list("\"#%'*/:=?\\\x7f{[]^"))
_TO_ESCAPE = re.compile("[" + re.escape("".join(sorted(_ESCAPED))) + "]")


def escape_path_name(value: str) -> str:
    """Escape a partition value for a path exactly as Hive (and Spark) do."""
    if not value:
        return HIVE_DEFAULT_PARTITION
    return _TO_ESCAPE.sub(lambda found: f"%{ord(found.group()):02X}", value)


# A `${env.X}` partition value is written escaped into its partition's path: masked there too.
secret_values.register_form("path", escape_path_name)


def join(base: str, *parts: str) -> str:
    return "/".join([base.rstrip("/"), *parts])


def table_location(table: TableBase, database: Database) -> str | None:
    """The table's location, else `<database location>/<table name>` as Spark and Hive place it.

    An empty location declares a table without one (a Kinesis stream, a JDBC source)."""
    if table.location is not None:
        return table.location or None
    if database.location and table.name:
        return join(database.location, table.name)
    return None


def lake_location(table: TableBase, database: Database, warehouse: str | None) -> str | None:
    """Iceberg/Delta: the location, else `<warehouse>/<database>.db/<table>`, else under the database."""
    if table.location:
        return table.location
    if warehouse and table.name:
        return join(warehouse, f"{database.name}.db", table.name)
    return table_location(table, database)


def partition_location(table_location: str, keys: Sequence[str], values: Sequence[str]) -> str:
    """`<table location>/<key>=<value>/...`, keys and values escaped the Hive way."""
    parts = [f"{escape_path_name(k)}={escape_path_name(v)}" for k, v in zip(keys, values, strict=True)]
    return join(table_location, *parts) + "/"


class PartitionPaths:
    """`partition_location` for one table's many partitions: keys escaped once, and each value's
    `key=value/` segment once (a million partitions hold a few thousand distinct values per key)."""

    MAX_REMEMBERED = 1 << 16  # segments kept per key; a key of a million distinct values starts over

    def __init__(self, table_location: str, keys: Sequence[str]) -> None:
        self.base = table_location.rstrip("/") + "/"
        self._prefixes = tuple(f"{escape_path_name(key)}=" for key in keys)
        self._segments: tuple[dict[str, str], ...] = tuple({} for _ in keys)

    def segment(self, index: int, value: str) -> str:
        """The `key=value/` segment of the index-th key, both escaped the Hive way."""
        return f"{self._prefixes[index]}{escape_path_name(value)}/"

    def of(self, values: Sequence[str]) -> str:
        if len(values) != len(self._segments):
            raise ValueError(f"{len(values)} partition values for {len(self._segments)} partition keys")
        try:
            return self.base + "".join(map(dict.__getitem__, self._segments, values))
        except KeyError:
            for index, (segments, value) in enumerate(zip(self._segments, values, strict=True)):
                if value not in segments:
                    remember(segments, value, self.segment(index, value))
            return self.base + "".join(map(dict.__getitem__, self._segments, values))

    def of_each(self, values: Sequence[Sequence[str]]) -> list[str]:
        """`of` for a page of partitions: where each value's segment is known, without a call each."""
        segments, base = self._segments, self.base
        if all(map(len(segments).__eq__, map(len, values))):
            try:
                return [base + "".join(map(dict.__getitem__, segments, each)) for each in values]
            except KeyError:
                pass
        return [self.of(each) for each in values]


def remember(segments: dict[str, str], value: str, segment: str) -> None:
    """Keep a value's segment, starting over once a key holds PartitionPaths.MAX_REMEMBERED of them."""
    if len(segments) >= PartitionPaths.MAX_REMEMBERED:
        segments.clear()
    segments[value] = segment


def slashless(location: str | None) -> str | None:
    return location.rstrip("/") if location else location
