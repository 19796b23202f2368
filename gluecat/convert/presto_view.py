"""Athena (Presto/Trino) views as Glue holds them: `/* Presto View: base64(JSON) */`.

The JSON carries the SQL, the catalog and schema it resolves names in, and the
columns with Presto type names. Tools spell it differently (Terraform's
`jsonencode` sorts keys and escapes `<`), so views are compared by what the
JSON means, never by the base64 text.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gluecat.model import hivetype
from gluecat.model.hivetype import Array, Char, Decimal, Map, Primitive, Struct, Varchar

CATALOG = "awsdatacatalog"
PREFIX = "/* Presto View: "
SUFFIX = " */"
EXPANDED_TEXT = "/* Presto View */"
PARAMETERS = {"presto_view": "true", "comment": "Presto View"}
_PRIMITIVES = {"int": "integer", "float": "real", "string": "varchar", "binary": "varbinary"}
_PLAIN_FIELD = re.compile(r"^[a-z_][a-z0-9_]*$")
_DEFAULT_TIMESTAMP = re.compile(r"\btimestamp\(3\)(?!\s*with)")


@dataclass(frozen=True)
class PrestoView:
    """What an Athena view means; the fields compared when planning."""

    sql: str
    catalog: str | None
    schema: str | None
    columns: tuple[tuple[str, str], ...]  # (name, normalised Presto type)


def presto_type(hive: str) -> str:
    """The Presto spelling of a Hive type: string -> varchar, int -> integer, struct<...> -> row(...)."""
    return _render(hivetype.parse(hive))


def _render(tree: hivetype.HiveType) -> str:
    match tree:
        case Primitive(name):
            return _PRIMITIVES.get(name, name)
        case Decimal(precision, scale):
            return f"decimal({precision},{scale})"
        case Char(length):
            return f"char({length})"
        case Varchar(length):
            return f"varchar({length})"
        case Array(element):
            return f"array({_render(element)})"
        case Map(key, value):
            return f"map({_render(key)},{_render(value)})"
        case Struct(fields):
            return "row(" + ",".join(f"{_field(f.name)} {_render(f.type)}" for f in fields) + ")"
    raise AssertionError(tree)


def _field(name: str) -> str:
    return name if _PLAIN_FIELD.match(name) else '"' + name.replace('"', '""') + '"'


def normalise_presto(text: str) -> str:
    """One spelling per Presto type: lower case, no white space beside brackets and commas, and
    `timestamp(3)` (what Athena engine 3 writes for a Hive timestamp) as `timestamp`, its default precision."""
    folded = re.sub(r"\s+", " ", text.strip().lower())
    tight = re.sub(r"\s*([(),])\s*", r"\1", folded)
    return _DEFAULT_TIMESTAMP.sub("timestamp", tight)


def encode(
    sql: str, database: str, columns: Iterable[tuple[str, str]], comment: str | None = None, trino: bool = True
) -> str:
    """ViewOriginalText as Athena writes it, from the SQL and the Hive-typed columns; with `trino`
    (a catalog Trino reads), also what Trino needs and Athena ignores: a run-as identity
    (`runAsInvoker`: Athena always checks the querying principal's access, so invoker is what the
    view already means), and the description as the view's own `comment` (Trino hides a view whose
    Glue Description is set). Without, Athena's own form: the description is then Glue's."""
    payload: dict[str, Any] = {
        "originalSql": sql,
        "catalog": CATALOG,
        "schema": database,
        "columns": [{"name": name, "type": presto_type(hive)} for name, hive in columns],
    }
    if trino:
        payload["runAsInvoker"] = True
    if comment is not None and trino:
        payload["comment"] = comment
    text = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
    return PREFIX + base64.b64encode(text.encode("utf-8")).decode("ascii") + SUFFIX


def decode(original_text: str | None) -> dict[str, Any] | None:
    """The JSON inside a Presto view's ViewOriginalText; None when it holds none."""
    if not original_text:
        return None
    text = original_text.strip()
    if not (text.startswith(PREFIX.strip()) and text.endswith(SUFFIX.strip())):
        return None
    body = text[len(PREFIX.strip()) : -len(SUFFIX.strip())].strip()
    try:
        data = json.loads(base64.b64decode(body, validate=True).decode("utf-8"))
    except (binascii.Error, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("originalSql"), str) else None


def meaning(data: Mapping[str, Any]) -> PrestoView:
    columns = tuple(
        (str(c.get("name", "")), normalise_presto(str(c.get("type", ""))))
        for c in data.get("columns") or []
        if isinstance(c, Mapping)
    )
    return PrestoView(str(data["originalSql"]), data.get("catalog"), data.get("schema"), columns)


def desired_meaning(sql: str, database: str, columns: Iterable[tuple[str, str]]) -> PrestoView:
    typed = tuple((name, normalise_presto(presto_type(hive))) for name, hive in columns)
    return PrestoView(sql, CATALOG, database, typed)
