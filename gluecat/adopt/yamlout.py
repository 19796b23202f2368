"""Models -> YAML in one canonical form: stable key order, block style, nothing left to chance."""

from __future__ import annotations

import io
from typing import Any

from pydantic import BaseModel
from ruamel.yaml import YAML
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, LiteralScalarString

KEY_ORDER = (
    "name", "description", "format", "dialect", "kind", "table_type", "location", "storage", "input_format",
    "output_format", "serde", "library", "storage_parameters", "columns", "type", "comment", "required",
    "partition_keys", "partition_columns", "partition_spec", "column", "transform", "direction", "null_order",
    "sort_order", "partitions", "partition_indexes", "values", "expand", "from", "to", "every", "projection", "enabled",
    "location_template", "keys", "range", "interval", "unit", "digits", "sql", "view_original_text",
    "view_expanded_text", "properties", "optimizers", "role_arn", "vpc_connection", "compaction", "retention",
    "orphan_file_deletion", "strategy", "min_input_files", "delete_file_threshold", "snapshot_retention_days",
    "snapshots_to_retain", "clean_expired_files", "retention_days", "run_rate_hours", "parameters", "extra",
)  # fmt: skip


def _ordered(value: Any) -> Any:
    if isinstance(value, dict):
        rank = {key: index for index, key in enumerate(KEY_ORDER)}
        keys = sorted(value, key=lambda k: (rank.get(k, len(rank)), k))
        nested_in_free_mapping = not any(k in rank for k in value)
        if nested_in_free_mapping:  # parameters, properties, extra: sort plainly
            keys = sorted(value)
        return {_scalar(k) if isinstance(k, str) else k: _ordered(value[k]) for k in keys}
    if isinstance(value, list):
        return [_ordered(v) for v in value]
    if isinstance(value, str):
        return _scalar(value)
    return value


def _scalar(text: str) -> str:
    r"""Text in a style that reads back as it is: a block literal for printable lines; double quotes,
    where YAML escapes what it holds, for any other character (a control character, `\r`, NEL or a
    Unicode line separator, which other styles would fold or refuse)."""
    styled: str = text
    if not all(line.isprintable() for line in text.replace("\t", " ").split("\n")):
        styled = DoubleQuotedScalarString(text)
    elif "\n" in text:
        styled = LiteralScalarString(text)
    return styled


def model_data(model: BaseModel, drop: tuple[str, ...] = ("name",)) -> dict[str, Any]:
    data = model.model_dump(mode="json", by_alias=True, exclude_defaults=True, exclude_none=True)
    for key in drop:
        data.pop(key, None)
    return data


def _null(representer: Any, _: None) -> Any:
    """`key: null`, not `key:`, so an explicit null reads as one."""
    return representer.represent_scalar("tag:yaml.org,2002:null", "null")


def dump(data: dict[str, Any], header: str = "") -> str:
    yaml = YAML(typ="rt")
    yaml.default_flow_style = False
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.representer.add_representer(type(None), _null)
    buffer = io.StringIO()
    yaml.dump(_ordered(data), buffer)
    return header + buffer.getvalue()
