"""JSON Schemas for the YAML files, generated from the models.

Run `python -m gluecat.project.schemas [DIR]` to rewrite them (default: ./schemas);
a test fails when the committed files are out of date.

A schema describes what `validate` accepts, which is more than the models' field types say:

- the models are validated in pydantic's lax mode: an integer field takes `"3"` and `true`, a
  boolean field `yes`, `off`, `0` and `1` (pydantic's conversion table);
- a before-validator widens what a field takes (parameters and partition values take numbers and
  booleans and store them as text, projection types and units any case): each one is asked,
  with a sample of every kind of YAML scalar, which kinds it takes;
- the loader gives a database or table its `name` from the directory or file name, so no file
  needs one;
- in database and table files, `${var.NAME}` and `${env.NAME}` may stand for any scalar (a number,
  an enum value), since they are replaced before the models see the file;
- a field with an alias (`from` in a range) is also taken under its own name (`start`), one of
  the two at a time;
- catalog.yaml writes the backend's settings flat (`backend`, `metastore_uri`, ...), not as the
  union the model folds them into: the schema says so, and that another backend's key is refused.

What only a validator checks (a type string, a transform, a byte limit) stays `validate`'s to say.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, TypeAdapter
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import CoreSchema, SchemaError, SchemaValidator, ValidationError, core_schema

from gluecat.model import CatalogConfig, Database, Table
from gluecat.model.backend_settings import BACKEND_NAMES, DEFAULT_BACKEND, FIELD, OWNERS

SCHEMA_URI = "https://json-schema.org/draft/2020-12/schema"

# What pydantic's lax mode turns into an int: digits with '_' between groups, an optional '.0',
# white space around. (JSON Schema's "integer" already takes 3.0.)
INT_TEXT = r"^\s*[+-]?[0-9]+(?:_[0-9]+)*(?:\.0+)?\s*$"
# ... and into a bool: these words in any case.
BOOL_WORDS = ("true", "false", "yes", "no", "on", "off", "t", "f", "y", "n", "1", "0")
# A reference the loader replaces in database and table files (gluecat.project.interpolate).
REFERENCE = r"\$\{(?:var|env)\.[A-Za-z_][A-Za-z0-9_]*\}"
# Keys the loader supplies from the path: a database's directory, a table's file stem.
FROM_PATH = ("name",)

# One sample of every kind of YAML scalar but text, with the JSON Schema type it stands for.
_SCALAR_SAMPLES: tuple[tuple[str, Any], ...] = (("integer", 2), ("number", 1.5), ("boolean", True), ("null", None))


def _any_case(word: str) -> str:
    """A pattern (ECMAScript and Python alike) that matches `word` in any case."""
    parts = []
    for char in word:
        if char.lower() != char.upper():
            parts.append(f"[{char.upper()}{char.lower()}]")
        else:
            parts.append("\\" + char if char in "\\^$.|?*+()[]{}/" else char)
    return "".join(parts)


def _validator(schema: CoreSchema) -> Callable[[Any], bool] | None:
    """Whether `schema` (a part of a model, run as validate runs it) takes a value; None if it
    cannot run on its own."""
    try:
        validator = SchemaValidator(schema)
    except SchemaError:  # a part that needs its model's definitions: not widened
        return None

    def takes(value: Any) -> bool:
        try:
            validator.validate_python(value)
        except ValidationError:
            return False
        return True

    return takes


class _AsValidated(GenerateJsonSchema):
    """JSON Schema of what validation takes (see the module docstring)."""

    references: ClassVar[bool] = False

    def _scalar(self, *alternatives: JsonSchemaValue) -> JsonSchemaValue:
        """A scalar position: its alternatives, and a reference where the file kind has them."""
        options = [*alternatives, {"type": "string", "pattern": REFERENCE}] if self.references else list(alternatives)
        return options[0] if len(options) == 1 else {"anyOf": options}

    def int_schema(self, schema: core_schema.IntSchema) -> JsonSchemaValue:
        return self._scalar(super().int_schema(schema), {"type": "boolean"}, {"type": "string", "pattern": INT_TEXT})

    def bool_schema(self, schema: core_schema.BoolSchema) -> JsonSchemaValue:
        words = "|".join(_any_case(word) for word in BOOL_WORDS)
        return self._scalar({"type": "boolean"}, {"enum": [0, 1]}, {"type": "string", "pattern": f"^(?:{words})$"})

    def literal_schema(self, schema: core_schema.LiteralSchema) -> JsonSchemaValue:
        return self._scalar(super().literal_schema(schema))

    def enum_schema(self, schema: core_schema.EnumSchema) -> JsonSchemaValue:
        return self._scalar(super().enum_schema(schema))

    def str_schema(self, schema: core_schema.StringSchema) -> JsonSchemaValue:
        json_schema = super().str_schema(schema)
        return self._scalar(json_schema) if "pattern" in json_schema else json_schema

    def function_before_schema(self, schema: core_schema.BeforeValidatorFunctionSchema) -> JsonSchemaValue:
        json_schema = super().function_before_schema(schema)
        takes = _validator(schema)
        if takes is None:
            return json_schema
        inner = schema["schema"]
        if inner["type"] == "literal":
            return self._folded_literal(list(inner["expected"]), json_schema, takes)
        return self._widened(json_schema, takes)

    def _folded_literal(
        self, values: list[Any], json_schema: JsonSchemaValue, takes: Callable[[Any], bool]
    ) -> JsonSchemaValue:
        """A literal whose validator folds case and strips white space takes any spelling of it."""
        expected = [value for value in values if isinstance(value, str)]
        if len(expected) != len(values):
            return json_schema
        spellings = [f" {v.upper()}\t" for v in expected] + [f"\n{v.lower()} " for v in expected]
        if not all(takes(spelling) for spelling in spellings):
            return json_schema
        words = "|".join(_any_case(value) for value in expected)
        return self._scalar({"type": "string", "pattern": f"^\\s*(?:{words})\\s*$"})

    def _widened(self, json_schema: JsonSchemaValue, takes: Callable[[Any], bool]) -> JsonSchemaValue:
        """`json_schema` with each place that holds any text also taking the scalars `takes` takes there."""
        if json_schema.get("type") == "object" and isinstance(json_schema.get("additionalProperties"), dict):
            values = self._widened(json_schema["additionalProperties"], lambda value: takes({"key": value}))
            return {**json_schema, "additionalProperties": values}
        if json_schema.get("type") == "array" and isinstance(json_schema.get("items"), dict):
            return {**json_schema, "items": self._widened(json_schema["items"], lambda value: takes([value]))}
        if "anyOf" in json_schema:
            return {**json_schema, "anyOf": [self._widened(option, takes) for option in json_schema["anyOf"]]}
        if json_schema.get("type") == "string" and json_schema.keys() <= {"type", "minLength", "maxLength"}:
            kinds = [kind for kind, sample in _SCALAR_SAMPLES if takes(sample)]
            if "number" in kinds and "integer" in kinds:
                kinds.remove("integer")
            return {**json_schema, "type": ["string", *kinds]} if kinds else json_schema
        return json_schema

    def model_schema(self, schema: core_schema.ModelSchema) -> JsonSchemaValue:
        json_schema = super().model_schema(schema)
        cls: type[BaseModel] = schema["cls"]
        if cls.model_config.get("validate_by_name") or cls.model_config.get("populate_by_name"):
            _also_by_name(json_schema, cls)
        return json_schema


def _also_by_name(json_schema: JsonSchemaValue, cls: type[BaseModel]) -> None:
    """A field with an alias is also taken under its name (the model validates by name too), never both."""
    properties = json_schema.get("properties", {})
    required = json_schema.get("required", [])
    rules: list[dict[str, Any]] = []
    for name, field in cls.model_fields.items():
        alias = field.validation_alias if isinstance(field.validation_alias, str) else field.alias
        if not alias or alias == name or alias not in properties:
            continue
        properties[name] = {**properties[alias], "description": f"The same as `{alias}`"}
        rules.append({"not": {"required": [alias, name]}})
        if alias in required:
            required.remove(alias)
            rules.append({"anyOf": [{"required": [alias]}, {"required": [name]}]})
    if rules:
        json_schema["allOf"] = [*json_schema.get("allOf", []), *rules]
    if "required" in json_schema and not required:
        del json_schema["required"]


class _WithReferences(_AsValidated):
    references = True


def _schema(
    target: Any, title: str, generator: type[GenerateJsonSchema], optional: tuple[str, ...] = ()
) -> dict[str, Any]:
    schema = _simplified(TypeAdapter(target).json_schema(by_alias=True, mode="validation", schema_generator=generator))
    for model in _models(schema):
        required = [key for key in model.get("required", []) if key not in optional]
        if required:
            model["required"] = required
        else:
            model.pop("required", None)
    return {"$schema": SCHEMA_URI, "title": title, **schema}


def _simplified(node: Any) -> Any:
    """The schema with each `anyOf` stripped of what another of its options already takes (a pattern
    beside any text, a null beside a type list holding null), and of options that repeat."""
    if isinstance(node, list):
        return [_simplified(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _simplified(value) for key, value in node.items()}
    if "anyOf" not in node:
        return node
    options: list[dict[str, Any]] = []
    for option in node["anyOf"]:
        nested = option["anyOf"] if option.keys() == {"anyOf"} else [option]
        options.extend(item for item in nested if item not in options)
    types = [option["type"] for option in options if option.keys() == {"type"}]
    open_text = any(kind == "string" or (isinstance(kind, list) and "string" in kind) for kind in types)
    nullable = any(isinstance(kind, list) and "null" in kind for kind in types)
    kept = [
        option
        for option in options
        if not (open_text and option.get("type") == "string" and option.keys() == {"type", "pattern"})
        and not (nullable and option == {"type": "null"})
    ]
    if len(kept) == 1 and not kept[0].keys() & node.keys():
        rest = {key: value for key, value in node.items() if key != "anyOf"}
        return {**rest, **kept[0]}
    return {**node, "anyOf": kept}


def _models(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The object schemas of a file's top level: the schema itself, or each of a union's."""
    options = schema.get("anyOf", [schema])
    definitions = schema.get("$defs", {})
    return [definitions[option["$ref"].rsplit("/", 1)[-1]] if "$ref" in option else option for option in options]


def _flat_settings(schema: dict[str, Any]) -> dict[str, Any]:
    """catalog.yaml's schema with the backend's settings as the file writes them: `backend` and each
    backend's own keys beside the others, a key of another backend than the mapping's empty at most
    (an environment's backend is its own, else the catalog's)."""
    definitions = schema["$defs"]
    members = [definitions.pop(option["$ref"].rsplit("/", 1)[-1]) for option in schema["properties"][FIELD]["oneOf"]]
    own = {key: value for member in members for key, value in member["properties"].items() if key != "backend"}
    description = members[0]["properties"]["backend"]["description"]
    empty = {"type": "null"}

    def others(backend: str) -> dict[str, Any]:
        return {key: empty for key, owner in OWNERS.items() if owner != backend}

    def flatten(model: dict[str, Any], backend: dict[str, Any], rules: list[dict[str, Any]]) -> None:
        del model["properties"][FIELD]
        model["properties"].update({"backend": {**backend, "description": description}, **own})
        model["allOf"] = [*model.get("allOf", []), *rules]

    environment = definitions["Environment"]
    sandbox = environment["properties"]["sandbox"]  # an environment's null overrides nothing
    environment["properties"]["sandbox"] = {**sandbox, "anyOf": [*sandbox["anyOf"], empty]}
    flatten(
        environment,
        {"anyOf": [{"enum": list(BACKEND_NAMES)}, empty]},
        [
            {
                "if": {"properties": {"backend": {"const": name}}, "required": ["backend"]},
                "then": {"properties": others(name)},
            }
            for name in BACKEND_NAMES
        ],
    )
    inherited = {"if": {"properties": {"backend": empty}}}  # absent or null: the catalog's backend
    flatten(
        schema,
        {"enum": list(BACKEND_NAMES), "default": DEFAULT_BACKEND},
        [
            {
                "if": {
                    "properties": {"backend": {"const": name}},
                    **({} if name == DEFAULT_BACKEND else {"required": ["backend"]}),
                },
                "then": {
                    "properties": {
                        **others(name),
                        "environments": {"additionalProperties": {**inherited, "then": {"properties": others(name)}}},
                    }
                },
            }
            for name in BACKEND_NAMES
        ],
    )
    return schema


def schemas() -> dict[str, dict[str, Any]]:
    """File name -> JSON Schema, for every kind of YAML file in a catalog project."""
    return {
        "catalog.schema.json": _flat_settings(_schema(CatalogConfig, "gluecat catalog.yaml", _AsValidated)),
        "database.schema.json": _schema(Database, "gluecat database.yaml", _WithReferences, FROM_PATH),
        "table.schema.json": _schema(Table, "gluecat tables/<table>.yaml", _WithReferences, FROM_PATH),
    }


def render(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def write(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in schemas().items():
        path = directory / name
        path.write_text(render(schema), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for written_path in write(Path(sys.argv[1] if len(sys.argv) > 1 else "schemas")):
        print(written_path)
