"""What Trino (Athena's engine family) refuses of tables Glue accepts, found offline.

Each rule is one a real Trino 476 showed on a real-world table definition (the engines tests read
the whole corpus through it): the table applies cleanly and fails at the first query.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from gluecat.convert import presto_view
from gluecat.convert.storage import resolve_storage
from gluecat.model import HiveTable, RegistrationTable, ViewTable
from gluecat.project.rule_ids import declare
from gluecat.project.yamlparse import Loc

RULE = declare("engine-trino", "what Trino refuses at the first query although Glue accepts it (warning)")


@dataclass(frozen=True)
class EngineProblem:
    loc: Loc
    message: str


def hive_problems(table: HiveTable) -> Iterator[EngineProblem]:
    if "hudi" in resolve_storage(table).input_format.lower():
        yield EngineProblem(
            ("input_format",),
            'Trino\'s hive catalog refuses Hudi tables ("Cannot query Hudi table"): read them through its'
            " hudi connector, or point the hive catalog at one with hive.hudi-catalog-name",
        )
    if table.location == "":
        yield EngineProblem(("location",), "Trino cannot read a table whose location is empty: give it one")


def view_problems(view: ViewTable) -> Iterator[EngineProblem]:
    if view.dialect == "athena":
        comment = view.parameters.get("comment", presto_view.PARAMETERS["comment"])
        if comment != presto_view.PARAMETERS["comment"]:
            yield EngineProblem(
                ("parameters", "comment"),
                "Trino takes a Glue view for an Athena view only with the parameter `comment: Presto View`;"
                " without it the view is invisible to Trino (Athena reads it)",
            )
    elif _undecodable_presto_view(view.view_original_text):
        yield EngineProblem(
            ("view_original_text",),
            "the Presto view's payload is not base64 JSON: Trino and Athena refuse the view",
        )


def _undecodable_presto_view(text: str | None) -> bool:
    if not text or not text.strip().startswith(presto_view.PREFIX.strip()):
        return False
    return presto_view.decode(text) is None


def registration_problems(table: RegistrationTable) -> Iterator[EngineProblem]:
    yield from _registration(table.table_input)


def _registration(table_input: dict[str, Any]) -> Iterator[EngineProblem]:
    if table_input.get("TargetTable"):
        yield EngineProblem(
            ("table_input", "TargetTable"),
            "Trino does not follow Lake Formation resource links: query the target table's catalog instead",
        )
        return
    descriptor = table_input.get("StorageDescriptor")
    if table_input.get("TableType") == "VIRTUAL_VIEW":
        return
    if not descriptor:
        yield EngineProblem(("table_input",), "Trino refuses a table without a StorageDescriptor")
    elif not descriptor.get("SerdeInfo"):
        yield EngineProblem(
            ("table_input", "StorageDescriptor"),
            "Trino refuses a table whose StorageDescriptor has no SerdeInfo (a stream or JDBC source)",
        )
