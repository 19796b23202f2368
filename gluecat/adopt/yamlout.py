"""Models -> YAML in one canonical form: stable key order, block style, nothing left to chance."""

from __future__ import annotations

from typing import Any

import yaml  # type: ignore[import-untyped]  # PyYAML ships no type hints

from gluecat.adopt import yamlfast
from gluecat.errors import GluecatError
from gluecat.project.yamlparse import resolve_plain

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
        rank = _RANK
        keys = sorted(value, key=lambda k: (rank.get(k, len(rank)), k))
        nested_in_free_mapping = not any(k in rank for k in value)
        if nested_in_free_mapping:  # parameters, properties, extra: sort plainly
            keys = sorted(value)
        return {k: _ordered(value[k]) for k in keys}
    if isinstance(value, list):
        return [_ordered(v) for v in value]
    return value


_RANK = {key: index for index, key in enumerate(KEY_ORDER)}


def _style(text: str) -> str | None:
    r"""A style that reads back as it is: a block literal for printable lines; double quotes,
    where YAML escapes what it holds, for any other character (a control character, `\r`, NEL or a
    Unicode line separator, which other styles would fold or refuse); else plain where YAML reads
    it back as the same text, quoted where not (the emitter decides)."""
    if not all(line.isprintable() for line in text.replace("\t", " ").split("\n")):
        return '"'
    if "\n" in text:
        return "|"
    if text and resolve_plain(text) is not text:
        return "'"  # plain, gluecat (YAML 1.2's core schema) would read a number, bool or null
    return None  # plain unless YAML 1.1 readers would not read it as this text (PyYAML decides)


class _Dumper(yaml.SafeDumper):  # type: ignore[misc]  # PyYAML ships no type hints
    """Block style, sequences indented under their key, text styled by `_style`, `key: null`."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)

    def represent_str(self, data: str) -> Any:
        return self.represent_scalar("tag:yaml.org,2002:str", data, style=_style(data))

    def represent_none(self, data: None) -> Any:
        return self.represent_scalar("tag:yaml.org,2002:null", "null")


_Dumper.add_representer(str, _Dumper.represent_str)
_Dumper.add_representer(type(None), _Dumper.represent_none)


_RESOLVER = yamlfast.resolver_of(_Dumper)


def check_writable(data: Any, where: str = "") -> None:
    """A GluecatError naming the first text no YAML file can hold: a lone UTF-16 surrogate (`\\ud800`,
    which Glue keeps and JSON escapes) is no Unicode character, so it has no YAML spelling."""
    if isinstance(data, str):
        try:
            data.encode("utf-8")
        except UnicodeEncodeError as exc:
            shown = ascii(data[exc.start : exc.end])
            raise GluecatError(
                f"{where or 'a value'} holds a lone UTF-16 surrogate ({shown}), which no YAML file can hold:"
                " correct it in Glue, then import again"
            ) from None
    elif isinstance(data, dict):
        for key, value in data.items():
            check_writable(key, f"a key under {where or 'the file'}")
            check_writable(value, f"{where}.{key}" if where else str(key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            check_writable(value, f"{where}[{index}]")


def dump(data: dict[str, Any], header: str = "") -> str:
    ordered = _ordered(data)
    text = yamlfast.dump(ordered, _style, _RESOLVER)
    if text is None:
        text = yaml.dump(
            ordered, Dumper=_Dumper, sort_keys=False, default_flow_style=False, allow_unicode=True, width=4096
        )
    return header + text
