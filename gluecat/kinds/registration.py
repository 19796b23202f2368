"""Registrations (`format: registration`): a table carried verbatim as its Glue TableInput, created
when missing and never evolved (what the models cannot hold, or a table whose format's metadata
cannot be read)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from gluecat.changes.model import Action, Change, PartitionChanges
from gluecat.kinds.base import AdoptContext, Kind, NotModelled, PartitionSink, PlanContext, Reads, Rule, Writer
from gluecat.kinds.glue_diff import ABSENT
from gluecat.model import CatalogConfig, Database, RegistrationTable
from gluecat.project import checks
from gluecat.project.checks import Hit
from gluecat.project.engine_check import registration_problems
from gluecat.project.load import LoadedDatabase, LoadedTable

Shape = dict[str, Any]


class RegistrationKind:
    format = "registration"
    model = RegistrationTable
    spark_catalog: str | None = None  # carried verbatim: its own format decides
    evolves = False  # created when missing, never changed
    noun = "a table"
    view = False

    def claims(self, live: Shape) -> bool:
        return False  # what import cannot model becomes one: never recognised from live state

    def writer(self, action: Action, desired: Mapping[str, object] | None) -> Writer:
        return Writer.CATALOG

    def table_input(self, table: RegistrationTable, database: Database, ignore: tuple[str, ...]) -> Shape:
        return {**table.table_input, "Name": table.name}

    def reads(self, table: RegistrationTable, database: LoadedDatabase, config: CatalogConfig) -> Reads:
        return Reads()

    def sink(
        self, table: RegistrationTable, database: LoadedDatabase, live: Shape, config: CatalogConfig, was: Kind[Any]
    ) -> PartitionSink | None:
        return None

    def changes(
        self, table: RegistrationTable, loaded: LoadedTable, database: LoadedDatabase, context: PlanContext
    ) -> Iterator[Change | PartitionChanges]:
        if context.live_table(database.name, loaded.name) is None:
            yield registration_create(database.name, loaded.name, table)

    def rules(self) -> tuple[Rule, ...]:
        # Carried verbatim: nothing else of it is gluecat's to judge, but readers may refuse it.
        return (checks.table_name, _trino)

    def engine_features(self, table: RegistrationTable) -> frozenset[str]:
        return frozenset()

    def meaning(
        self,
        table: RegistrationTable,
        database: Database,
        warehouse: str | None,
        ignore: tuple[str, ...],
        partitions: bool,
    ) -> dict[str, Any]:
        return {}

    def adopt(self, live: Shape, context: AdoptContext) -> Shape:
        """Never asked (no live entry is recognised as one): what no kind can write, import itself
        carries as a registration."""
        raise NotModelled("carried verbatim")


def _trino(table: LoadedTable, _: LoadedDatabase) -> Iterator[Hit]:
    assert isinstance(table.model, RegistrationTable)
    yield from checks.engine_hits(registration_problems(table.model))


def registration_create(database: str, name: str, model: RegistrationTable) -> Change:
    """A registration is created exactly as carried, and never changed once Glue holds it."""
    desired = {**model.table_input, "Name": name}
    return Change(f"{database}.{name}", "table", Action.CREATE, database, name, desired, live_version=ABSENT,
                  table_kind="registration", reason="carried verbatim from `table_input`")  # fmt: skip


REGISTRATION = RegistrationKind()
