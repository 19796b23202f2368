"""Import's reading of table optimizers: only for Iceberg tables (the only ones Glue optimizes), all of
them in a few BatchGetTableOptimizer calls, never one call per table."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from gluecat.backends.base import Shape
from gluecat.backends.connect import Connection
from gluecat.errors import AccessDeniedError, GluecatError
from gluecat.kinds.iceberg.optimizers import optimizers_block
from gluecat.kinds.registry import ICEBERG, recognise

TableKey = tuple[str, str]


def is_iceberg(live: Shape) -> bool:
    return recognise(live) is ICEBERG


def live_optimizers(
    connection: Connection, tables: Iterable[TableKey], note: Callable[[str], None], warn: Callable[[str], None]
) -> dict[TableKey, dict[str, Shape]]:
    """The optimizers of these (Iceberg) tables, by type; a catalog that cannot say is one note, not a stop.
    Credentials without the permission to read them: one warning naming it, and import goes on (the
    files leave `optimizers` out, so gluecat leaves them alone)."""
    wanted = list(tables)
    if not wanted or not connection.capabilities.optimizers:  # a Hive Metastore, a REST catalog: none
        return {}
    from gluecat.backends.optimizers import optimizers_of

    try:
        return optimizers_of(connection).read(wanted)
    except AccessDeniedError as exc:
        warn(f"table optimizers were not imported (the files leave them unmanaged): {exc}")
        return {}
    except GluecatError as exc:
        note(f"table optimizers were not imported: {exc}")
        return {}


def with_optimizers(data: dict[str, Any], live: dict[str, Shape] | None) -> None:
    """Add the `optimizers:` block of an imported Iceberg table that has any (none: the key stays out)."""
    if data.get("format") != ICEBERG.format or not live:
        return
    block = optimizers_block(live, data.get("location"))
    if block:
        data["optimizers"] = block
