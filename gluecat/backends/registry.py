"""Every catalog gluecat manages, one line each: what it holds and can do, so that what it cannot is
refused offline, in one line naming the backend and the key, before a plan reaches it.

Adding a backend is its module (a `Catalog` and the `open_connection` that `connect` calls, plus a
shapes module), its settings model in `gluecat/model/backend_settings.py` (a member of the union
on `backend:`) and one line here; nothing outside
`gluecat/backends/` asks which backend it talks to, only what the backend holds and can do
(`tests/unit/test_backend_names.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gluecat.changes.model import Plan

ALL_FORMATS = frozenset({"hive", "iceberg", "delta", "view", "registration"})


@dataclass(frozen=True)
class Capabilities:
    """What one backend holds: table formats, and the Glue-side features it has or lacks."""

    name: str  # as `backend:` writes it
    title: str  # as a sentence names it
    formats: frozenset[str]  # the table formats (`format:`) it can hold
    partition_indexes: bool
    lake_formation: bool
    optimizers: bool
    address_key: str | None  # the catalog.yaml key that says where it answers (None: AWS finds it)
    address_form: str = ""
    nested_namespaces: bool = False  # a database named `a.b` is the namespace `b` inside `a`
    engine_catalog: str = "glue"  # what spark-conf points engines' catalogs at: glue, hive (thrift) or rest
    versions: bool = False  # keeps each table's earlier versions: history, rollback, prune-versions
    # How a saved plan names the catalog it was made for: None, the AWS account (catalog_id, else the
    # caller's, from sts:GetCallerIdentity) and region; else this label with the `address_key` URI
    # and the settings' scope, if any (a REST catalog's warehouse).
    identity: str | None = None
    any_type_change: bool = True  # False: it refuses a column type change its values cannot be read as
    module: str = ""  # the backend's module, whose `open_connection` connects to it

    def __post_init__(self) -> None:
        object.__setattr__(self, "module", self.module or f"gluecat.backends.{self.name}")

    def holds(self, table_format: str) -> bool:
        return table_format in self.formats

    def refused_before_apply(self, plan: Plan) -> str | None:
        """A note naming the changes of `plan` this catalog would refuse, said before apply tries
        (`plan` holds the changes written to the catalog's own entry: the planner leaves out those a
        table format's library writes)."""
        if self.any_type_change:
            return None
        from gluecat.backends.metastore_types import metastore_note

        return metastore_note(plan)

    @property
    def partitions(self) -> bool:
        """Whether it lists tables' partitions itself: Hive-style tables keep theirs in the catalog; an
        Iceberg table keeps its own in its metadata files, so a catalog of Iceberg tables holds none."""
        return self.holds("hive")


BACKENDS: dict[str, Capabilities] = {
    backend.name: backend
    for backend in (
        Capabilities("glue", "the Glue Data Catalog", ALL_FORMATS, True, True, True, None, versions=True),
        Capabilities("hive", "a Hive Metastore", ALL_FORMATS, False, False, False, "metastore_uri", "thrift://HOST:PORT",
                     engine_catalog="hive", identity="hive-metastore", any_type_change=False),
        Capabilities(
            "iceberg-rest", "an Iceberg REST catalog", frozenset({"iceberg"}), False, False, False,
            "rest_uri", "https://HOST[:PORT][/PATH]", nested_namespaces=True, engine_catalog="rest",
            identity="iceberg-rest", module="gluecat.backends.rest",
        ),
    )
}  # fmt: skip


def capabilities(backend: str) -> Capabilities:
    return BACKENDS[backend]
