"""Prove fidelity by the whole shape: the TableInput gluecat would send for a YAML file, compared field
by field with what Glue returned, minus the fields only Glue writes and the volatile parameters."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from gluecat.convert import presto_view
from gluecat.convert.extra import meaningful
from gluecat.convert.parameters import is_volatile
from gluecat.kinds.registry import desired_table_input
from gluecat.project.load import load_project

# Fields Glue answers that no *Input shape takes: who, when, which version, where.
OUTPUT_ONLY = frozenset({
    "CreateTime", "UpdateTime", "VersionId", "CatalogId", "DatabaseName", "TableName", "CreatedBy",
    "IsRegisteredWithLakeFormation", "IsMultiDialectView", "IsMaterializedView", "FederatedTable",
    "LastAccessTime", "LastAnalyzedTime", "Status", "CreationTime",
})  # fmt: skip
PARAMETER_MAPS = ("Parameters",)


def sent_table_inputs(root: Path) -> dict[tuple[str, str], dict[str, Any] | None]:
    """(database, table) -> the TableInput a create would send, for every table file of a project."""
    project = load_project(root)
    ignore = tuple(project.config.ignore_parameters)
    return {
        (database.name, table.name): desired_table_input(table.model, database.model, ignore)
        for database in project.databases
        for table in database.tables
    }


def comparable(shape: Mapping[str, Any]) -> dict[str, Any]:
    """A Glue shape without output-only fields, volatile parameters and values Glue treats as unset."""
    return _clean(_athena_view_as_meant(shape))  # type: ignore[no-any-return]


def _athena_view_as_meant(shape: Mapping[str, Any]) -> Mapping[str, Any]:
    """An Athena view by its decoded JSON, less what gluecat adds for Trino and Athena ignores: the
    run-as identity, and the description kept as the view's own comment rather than Glue's."""
    data = presto_view.decode(shape.get("ViewOriginalText"))
    if data is None:
        return shape
    meant = dict(shape)
    data = dict(data)
    data.pop("runAsInvoker", None)
    comment = data.pop("comment", None)
    if comment is not None and not meant.get("Description"):
        meant["Description"] = comment
    meant["ViewOriginalText"] = data
    return meant


def _clean(value: Any, key: str = "") -> Any:
    if isinstance(value, Mapping):
        cleaned = {}
        for child, item in value.items():
            if child in OUTPUT_ONLY or (key in PARAMETER_MAPS and is_volatile(child)):
                continue
            item = _clean(item, child)
            if key not in PARAMETER_MAPS and not meaningful(child, item):
                continue
            cleaned[child] = item
        return cleaned
    if isinstance(value, list):
        return [_clean(item) for item in value]
    return value


def differences(sent: Mapping[str, Any], live: Mapping[str, Any]) -> list[str]:
    """Every field path where the two shapes differ, as `path: sent != live`."""
    return list(_walk(comparable(sent), comparable(live), ""))


def _walk(sent: Any, live: Any, path: str) -> Iterator[str]:
    if isinstance(sent, Mapping) and isinstance(live, Mapping):
        for key in sorted(set(sent) | set(live)):
            yield from _walk(sent.get(key), live.get(key), f"{path}.{key}" if path else key)
    elif isinstance(sent, list) and isinstance(live, list) and len(sent) == len(live):
        for index, (a, b) in enumerate(zip(sent, live, strict=True)):
            yield from _walk(a, b, f"{path}[{index}]")
    elif sent != live:
        yield f"{path}: {sent!r} != {live!r}"
