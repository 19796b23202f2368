"""One live table -> the YAML data `import` writes: as the kind it really is writes it (`Kind.adopt`),
else as a registration carried verbatim; never a reason to stop importing the rest."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gluecat.backends.base import Shape
from gluecat.backends.connect import Connection
from gluecat.convert.shapes import CARRIED_TABLE_KEYS
from gluecat.errors import GluecatError
from gluecat.kinds.base import AdoptContext, NotModelled
from gluecat.kinds.registry import recognise
from gluecat.lint.rules import database_rules, table_rules
from gluecat.model import TABLE_MODELS, Database
from gluecat.project.load import LoadedDatabase, LoadedTable
from gluecat.project.source import SourceFile
from gluecat.text.plain import pydantic_plain

# What a live shape the models cannot hold raises (HiveTypeError is a ValueError). Errors reaching
# Glue or S3 are not among them: those skip the table rather than turn it into a registration.
UNMODELLED = (ValidationError, KeyError, TypeError, ValueError)
MODEL_ERRORS = (*UNMODELLED, GluecatError)

REGISTRATION = "imported as a registration"  # what a table whose format cannot be read becomes


@dataclass
class Adopted:
    data: dict[str, Any]
    notes: list[str] = field(default_factory=list)


def adopt_table(
    connection: Connection, database: Database, live: Shape, ignore: tuple[str, ...], with_partitions: bool
) -> Adopted:
    """The table file's data, with a note for each thing a reviewer should know: the kind the live
    entry is writes it (`Kind.adopt`), else it is carried as a registration."""
    context = AdoptContext(connection, database, ignore, with_partitions)
    try:
        adopted = Adopted(recognise(live).adopt(live, context), context.notes)
    except NotModelled as exc:
        adopted = Adopted(registration(live, str(exc)), [f"{REGISTRATION}: {exc}"])
    except UNMODELLED as exc:
        reason = f"gluecat cannot model it ({reason_of(exc)})"
        adopted = Adopted(registration(live, reason), [f"{REGISTRATION}: {reason}"])
    allow = lint_exceptions(database, live["Name"], adopted.data)
    if allow:
        adopted.data["lint"] = {"allow": allow}
        adopted.notes.append(f"adopted with lint exceptions ({', '.join(allow)}): Glue holds it that way")
    return adopted


def registration(live: Shape, reason: str) -> dict[str, Any]:
    """The live table as the TableInput that recreates it, exactly."""
    table_input = {k: live[k] for k in CARRIED_TABLE_KEYS if k in live}
    return {"format": "registration", "reason": reason, "table_input": table_input}


def lint_exceptions(database: Database, name: str, data: dict[str, Any]) -> list[str]:
    """The lint rules (errors only) the adopted table breaks as Glue holds it."""
    model_class: Callable[..., Any] = TABLE_MODELS[data.get("format", "hive")].model_validate
    model = model_class({"name": name, **data})
    nowhere = Path(name)
    table = LoadedTable(model, SourceFile(nowhere, data))
    owner = LoadedDatabase(database, SourceFile(nowhere, {}), (table,))
    return sorted({hit.rule for hit in table_rules(table, owner) if hit.severity == "error"})


def reason_of(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        return "; ".join(_error_text(error["loc"], error["msg"]) for error in exc.errors())
    return str(exc)


def _error_text(loc: tuple[int | str, ...], message: str) -> str:
    where = ".".join(map(str, loc))
    message = pydantic_plain(message)
    return f"{where}: {message}" if where and where != "name" else message  # name errors quote the name


def database_exceptions(database: Database) -> list[str]:
    """The lint rules (errors only) the adopted database breaks as Glue holds it."""
    loaded = LoadedDatabase(database, SourceFile(Path(database.name), {}), ())
    return sorted({hit.rule for hit in database_rules(loaded) if hit.severity == "error"})
