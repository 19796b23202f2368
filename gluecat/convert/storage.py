"""`storage` shorthand ↔ the exact InputFormat, OutputFormat and SerDe."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from gluecat.model import HiveTable, Serde
from gluecat.model.storage import STORAGE_FORMATS


@dataclass(frozen=True)
class ResolvedStorage:
    input_format: str
    output_format: str
    serde_library: str
    serde_parameters: dict[str, str]


def resolve_storage(table: HiveTable) -> ResolvedStorage:
    """The formats a table writes to Glue: shorthand defaults, overridden by explicit keys."""
    serde = table.serde or Serde()
    if table.storage:
        preset = STORAGE_FORMATS[table.storage]
        return ResolvedStorage(
            table.input_format or preset.input_format,
            table.output_format or preset.output_format,
            serde.library or preset.serde,
            {**preset.serde_parameters, **serde.parameters},
        )
    assert table.input_format and table.output_format and serde.library  # model-validated
    return ResolvedStorage(table.input_format, table.output_format, serde.library, dict(serde.parameters))


@dataclass(frozen=True)
class StorageKeys:
    """How a table file spells its storage: a shorthand when one matches exactly."""

    storage: str | None
    input_format: str | None
    output_format: str | None
    serde: Serde | None


def storage_keys(
    input_format: str, output_format: str, library: str, parameters: Mapping[str, str], serde_name: str | None = None
) -> StorageKeys:
    """The shorthand whose formats and SerDe match and whose default parameter keys are all set.

    Among matches, the one whose defaults equal most live values wins; parameters
    that differ from its defaults stay as explicit serde parameters.
    """
    best: tuple[int, int, str] | None = None
    for name, preset in STORAGE_FORMATS.items():
        same_classes = (preset.input_format, preset.output_format, preset.serde) == (
            input_format,
            output_format,
            library,
        )
        if not same_classes or not set(preset.serde_parameters) <= set(parameters):
            continue
        equal = sum(parameters[k] == v for k, v in preset.serde_parameters.items())
        score = (equal, len(preset.serde_parameters), name)
        if best is None or score[:2] > best[:2]:
            best = score
    if best is None:
        serde = Serde(name=serde_name, library=library, parameters=dict(parameters))
        return StorageKeys(None, input_format, output_format, serde)
    defaults = STORAGE_FORMATS[best[2]].serde_parameters
    extra = {k: v for k, v in parameters.items() if defaults.get(k) != v}
    return StorageKeys(best[2], None, None, Serde(name=serde_name, parameters=extra) if extra or serde_name else None)
