"""The JSON Schemas in schemas/: in step with the models, and taking every file validate takes."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, TypeAdapter, ValidationError

from gluecat.model import CatalogConfig, Database, HiveTable, IcebergTable
from gluecat.project import schemas
from gluecat.project.load import CATALOG_FILE, DATABASE_FILE, TABLES_DIR, load_partial
from gluecat.project.source import read_yaml

REPO = Path(__file__).parents[2]
SCHEMAS = REPO / "schemas"
CATALOGS = REPO / "catalogs"


def schema_for(path: Path) -> str:
    """The schema file that describes a catalog project file."""
    if path.name == CATALOG_FILE:
        return "catalog.schema.json"
    if path.name == DATABASE_FILE:
        return "database.schema.json"
    assert path.parent.name == TABLES_DIR, path
    return "table.schema.json"


def _validators() -> dict[str, jsonschema.protocols.Validator]:
    found = {}
    for name in schemas.schemas():
        schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
        validator_class = jsonschema.validators.validator_for(schema)
        validator_class.check_schema(schema)
        found[name] = validator_class(schema)
    return found


VALIDATORS = _validators()


def schema_problems(path: Path) -> list[str]:
    """What the committed schema says of a file (read as validate reads it), as `where: message`."""
    validator = VALIDATORS[schema_for(path)]
    data = read_yaml(path).data
    return [f"{path}:{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(data)]


def project_files(root: Path) -> list[Path]:
    """catalog.yaml, every database.yaml and every table file of a project."""
    return [
        root / CATALOG_FILE,
        *sorted(root.glob(f"*/{DATABASE_FILE}")),
        *sorted(root.glob(f"*/{TABLES_DIR}/*.yaml")),
    ]


def files_validate_takes(root: Path) -> list[Path]:
    """The files of a project that load without an error (lint findings are no load errors)."""
    _, errors = load_partial(root, secrets_required=False)
    refused = {error.position.path.resolve() for error in errors}
    return [path for path in project_files(root) if path.resolve() not in refused]


def test_committed_schemas_match_the_models() -> None:
    for name, schema in schemas.schemas().items():
        committed = (SCHEMAS / name).read_text(encoding="utf-8")
        assert committed == schemas.render(schema), (
            f"schemas/{name} is out of date: run `python -m gluecat.project.schemas`"
        )


def test_table_schema_knows_every_format() -> None:
    schema = json.loads((SCHEMAS / "table.schema.json").read_text())
    assert {"HiveTable", "IcebergTable", "DeltaTable"} <= set(schema["$defs"])


@pytest.mark.parametrize("catalog", sorted(p.name for p in CATALOGS.iterdir() if p.is_dir()))
def test_every_file_of_the_shipped_catalogs_that_validate_takes_the_schema_takes(catalog: str) -> None:
    taken = files_validate_takes(CATALOGS / catalog)
    assert taken
    problems = [problem for path in taken for problem in schema_problems(path)]
    assert problems == []


def test_the_example_loads_whole_so_every_file_of_it_is_checked() -> None:
    example = CATALOGS / "example"
    assert files_validate_takes(example) == project_files(example)
    assert len(project_files(example)) > 10


# Files validate takes whose values are not of the type their model field declares: the schema
# must describe what validate does with them, not the field type alone.
TAKEN = [
    (
        "iceberg property as a number",
        "sales/tables/orders.yaml",
        """\
        format: iceberg
        location: s3://lake/sales/orders
        columns: [{name: id, type: bigint, required: yes}]
        properties: {format-version: 2, write.metadata.delete-after-commit.enabled: true, gone: null}
        """,
    ),
    (
        "parameters as numbers, booleans and dates",
        "sales/tables/orders.yaml",
        """\
        storage: csv
        columns: [{name: id, type: bigint, parameters: {width: 8}}]
        parameters: {skip.header.line.count: 1, has_encrypted_data: false, since: 2024-01-01, ratio: 0.5}
        storage_parameters: {sizeKey: 1024}
        serde: {parameters: {field.delim: 0}}
        """,
    ),
    (
        "database without a name, as import writes it",
        "sales/database.yaml",
        """\
        location: s3://lake/sales/
        parameters: {retention_days: 30, pii: true}
        """,
    ),
    ("table without a name", "sales/tables/orders.yaml", "storage: parquet\ncolumns: [{name: id, type: int}]\n"),
    (
        "projection range, values and settings as numbers and any case",
        "sales/tables/orders.yaml",
        """\
        storage: parquet
        location: s3://lake/sales/orders/
        columns: [{name: id, type: int}]
        partition_keys: [{name: hour, type: int}, {name: region, type: string}, {name: dt, type: string}]
        projection:
          enabled: "true"
          keys:
            hour: {type: Integer, range: [0, 23], digits: "2", interval: 1}
            region: {type: " ENUM ", values: [1, 2, eu]}
            dt: {type: date, range: [NOW-3YEARS, NOW], format: yyyy-MM-dd, interval: 1, unit: days}
        """,
    ),
    (
        "partition values as numbers, booleans and null",
        "sales/tables/orders.yaml",
        """\
        storage: parquet
        location: s3://lake/sales/orders/
        columns: [{name: id, type: int}]
        partition_keys: [{name: year, type: int}, {name: flag, type: boolean}, {name: note, type: string}]
        partitions:
          - values: {year: 2024, flag: true, note: null}
          - expand: {year: [2023, 2024], flag: [false], note: {from: 1, to: 3, step: "1", width: 2}}
          - expand: {year: {start: 2020, end: 2021}, flag: [true], note: [""]}
        """,
    ),
    (
        "integers and booleans written as text",
        "sales/tables/orders.yaml",
        """\
        storage: parquet
        location: s3://lake/sales/orders/
        columns: [{name: id, type: int}]
        partition_keys: [{name: dt, type: string}]
        partitions:
          - expand: {dt: {from: 2024-01-01, to: 2024-01-31, step: " 7 ", every: day}}
        """,
    ),
    (
        "references where numbers, booleans and enum values go",
        "sales/tables/orders.yaml",
        """\
        format: ${var.iceberg}
        location: s3://lake/${var.team}/orders
        columns: [{name: id, type: bigint, required: "${var.yes}"}]
        partition_spec: [{column: id, transform: "bucket[16]"}]
        sort_order: [{column: id, direction: "${var.desc}"}]
        properties: {format-version: "${var.two}"}
        """,
    ),
    (
        "references in projection settings",
        "sales/tables/orders.yaml",
        """\
        storage: parquet
        table_type: ${var.external}
        location: s3://lake/sales/orders/
        columns: [{name: id, type: int}]
        partition_keys: [{name: hour, type: int}]
        projection:
          enabled: ${var.yes}
          keys:
            hour: {type: "${var.integer}", range: ["${var.two}", 23], interval: "${var.two}"}
        """,
    ),
    (
        "catalog booleans as words and numbers",
        "catalog.yaml",
        """\
        region: eu-west-1
        vars: {team: sales, iceberg: iceberg, "yes": "true", desc: desc, two: "2", external: EXTERNAL_TABLE, integer: integer}
        sandbox: Off
        prune: 0
        environments: {dev: {sandbox: "yes"}}
        default_env: dev
        """,
    ),
]


def _project(root: Path, files: dict[str, str]) -> Path:
    defaults = {
        "catalog.yaml": """\
            region: eu-west-1
            vars: {team: sales, iceberg: iceberg, "yes": "true", desc: desc, two: "2", external: EXTERNAL_TABLE,
                   integer: integer}
            """,
        "sales/database.yaml": "name: sales\nlocation: s3://lake/sales/\n",
        "sales/tables/orders.yaml": "storage: parquet\ncolumns: [{name: id, type: bigint}]\n",
    }
    for relative, text in {**defaults, **files}.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


@pytest.mark.parametrize(("case", "relative", "text"), TAKEN, ids=[case[0] for case in TAKEN])
def test_what_validate_takes_the_schema_takes(tmp_path: Path, case: str, relative: str, text: str) -> None:
    root = _project(tmp_path, {relative: text})
    _, errors = load_partial(root)
    assert [str(error) for error in errors] == []
    assert schema_problems(root / relative) == []


REFUSED = [
    ("catalog.yaml", "region: eu-west-1\nregoin: eu-west-2\n", "'regoin'"),
    ("catalog.yaml", "region: eu-west-1\nspark: {catalog: glue}\n", "'catalog'"),
    ("sales/database.yaml", "location: s3://lake/sales/\nowner: me\n", "'owner'"),
    ("sales/tables/orders.yaml", "storage: parquet\ncolums: []\n", "'colums'"),
    ("sales/tables/orders.yaml", "storage: parquet\ncolumns: [{name: id, type: int, nullable: true}]\n", "'nullable'"),
    ("sales/tables/orders.yaml", "format: iceberg\npartition_spec: [{column: id, transfrom: day}]\n", "'transfrom'"),
]


@pytest.mark.parametrize(("relative", "text", "key"), REFUSED)
def test_a_file_validate_refuses_for_an_unknown_key_the_schema_refuses(
    tmp_path: Path, relative: str, text: str, key: str
) -> None:
    root = _project(tmp_path, {relative: text})
    _, errors = load_partial(root)
    assert any(f"unknown key {key}" in error.message for error in errors), errors
    assert schema_problems(root / relative) != []


def test_the_broken_example_s_misspelt_key_is_refused_by_the_schema_too() -> None:
    problems = schema_problems(CATALOGS / "broken" / "sales" / "tables" / "orders.yaml")
    assert problems != []


def test_refused_by_both_a_value_of_the_wrong_kind(tmp_path: Path) -> None:
    cases = {
        "catalog.yaml": "region: eu-west-1\nsandbox: maybe\n",
        "sales/database.yaml": "location: s3://lake/sales/\nparameters: {owners: [a, b]}\n",
        "sales/tables/orders.yaml": "format: hive\nstorage: parquet\ncolumns: [{name: id, type: int}]\ntable_type: VIEW\n",
    }
    for relative, text in cases.items():
        root = _project(tmp_path / relative.replace("/", "_"), {relative: text})
        assert load_partial(root)[1], relative
        assert schema_problems(root / relative) != [], relative


def test_a_reference_stands_for_a_value_in_database_and_table_files_only() -> None:
    catalog, table = VALIDATORS["catalog.schema.json"], VALIDATORS["table.schema.json"]
    assert not catalog.is_valid({"sandbox": "${var.sandbox}"})  # catalog.yaml is read as written
    assert table.is_valid({"storage": "parquet", "partition_schema": "${var.follow}"})
    assert not table.is_valid({"storage": "parquet", "partition_schema": "${var.follow"})  # not closed


@pytest.mark.parametrize(
    "text",
    ["3", " 3 ", "+3", "-3", "3.0", "3.00", "1_000", "03", "\t3\n", "0x10", "3.5", "3.", "1e3", "_3", "3_", "", "- 3"],
)
def test_integer_text_is_what_pydantic_takes(text: str) -> None:
    digits = {"storage": "parquet", "projection": {"keys": {"hour": {"type": "integer", "digits": text}}}}
    assert VALIDATORS["table.schema.json"].is_valid(digits) == _takes(int, text)


@pytest.mark.parametrize("text", ["yes", "YES", "No", "on", "oFF", "t", "F", "y", "N", "1", "0", "true", "FALSE",
                                  " yes", "true ", "2", "maybe", "", "ja"])  # fmt: skip
def test_boolean_text_is_what_pydantic_takes(text: str) -> None:
    assert VALIDATORS["catalog.schema.json"].is_valid({"sandbox": text}) == _takes(bool, text)


def _takes(kind: type, value: Any) -> bool:
    try:
        TypeAdapter(kind).validate_python(value)
    except ValidationError:
        return False
    return True


# One scalar at each kind of place a YAML value goes: whenever the model takes it, the schema must.
PLACES: list[tuple[type[BaseModel], str, Any]] = [
    (CatalogConfig, "catalog.schema.json", lambda v: {"sandbox": v}),
    (CatalogConfig, "catalog.schema.json", lambda v: {"region": v}),
    (CatalogConfig, "catalog.schema.json", lambda v: {"readers": [v]}),
    (Database, "database.schema.json", lambda v: {"name": "db", "parameters": {"k": v}}),
    (Database, "database.schema.json", lambda v: {"name": "db", "description": v}),
    (HiveTable, "table.schema.json", lambda v: {"storage": "parquet", "parameters": {"k": v}}),
    (HiveTable, "table.schema.json", lambda v: {"storage": "parquet", "table_type": v}),
    (HiveTable, "table.schema.json", lambda v: {"storage": "parquet", "partitions": [{"values": {"k": v}}]}),
    (
        HiveTable,
        "table.schema.json",
        lambda v: {"storage": "parquet", "partitions": [{"expand": {"k": {"from": 1, "to": 2, "step": v}}}]},
    ),
    (
        HiveTable,
        "table.schema.json",
        lambda v: {"storage": "parquet", "partitions": [{"expand": {"k": {"from": v, "to": v}}}]},
    ),
    (HiveTable, "table.schema.json", lambda v: {"storage": "parquet", "projection": {"enabled": v}}),
    (HiveTable, "table.schema.json", lambda v: {"storage": "parquet", "projection": {"keys": {"k": {"type": v}}}}),
    (
        HiveTable,
        "table.schema.json",
        lambda v: {"storage": "parquet", "projection": {"keys": {"k": {"type": "date", "unit": v, "range": [v, v]}}}},
    ),
    (
        HiveTable,
        "table.schema.json",
        lambda v: {"storage": "parquet", "projection": {"keys": {"k": {"type": "integer", "digits": v}}}},
    ),
    (IcebergTable, "table.schema.json", lambda v: {"format": "iceberg", "properties": {"k": v}}),
    (
        IcebergTable,
        "table.schema.json",
        lambda v: {"format": "iceberg", "columns": [{"name": "c", "type": "int", "required": v}]},
    ),
]

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=12),
    st.sampled_from([" 7 ", "1_0", "3.0", "Yes", "oFF", " Integer ", "days", "MANAGED_TABLE", "athena", "2024-01-01"]),
)


@given(value=SCALARS)
def test_whatever_scalar_a_model_takes_its_schema_takes(value: Any) -> None:
    for model, schema, place in PLACES:
        data = place(value)
        try:
            model.model_validate(data)
        except ValidationError:
            continue
        assert VALIDATORS[schema].is_valid(data), (schema, data)
