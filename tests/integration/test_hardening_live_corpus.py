"""A generated corpus of hostile live state: realistic tables (tests/integration/import_shapes.py)
each bent one way a real catalog can hold — a field missing, null or empty, an odd type, a corrupt
Iceberg pointer or Athena view payload, an odd name, a huge value, a mismatched partition — and all
imported at once. Import never ends in a traceback or the catch-all; every table is imported (as
what it is, or as a registration naming why) or named in one line; and the next plan is clean."""

from __future__ import annotations

import base64
import copy
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project
from tests.integration.import_shapes import HIVE_SHAPES

SEED = 20261126
Shape = dict[str, Any]


def _drop(*path: str) -> Callable[[Shape], None]:
    def change(table: Shape) -> None:
        holder = table
        for step in path[:-1]:
            holder = holder.get(step) or {}
        holder.pop(path[-1], None)

    return change


def _set(value: Any, *path: str) -> Callable[[Shape], None]:
    def change(table: Shape) -> None:
        holder = table
        for step in path[:-1]:
            holder = holder.setdefault(step, {})
        holder[path[-1]] = copy.deepcopy(value)

    return change


def _columns(change: Callable[[list[Shape]], None]) -> Callable[[Shape], None]:
    def apply(table: Shape) -> None:
        change(table.setdefault("StorageDescriptor", {}).setdefault("Columns", []))

    return apply


def _payload(document: Any) -> str:
    return "/* Presto View: " + base64.b64encode(json.dumps(document).encode()).decode() + " */"


MUTATIONS: dict[str, Callable[[Shape], None]] = {
    "no description": _drop("Description"),
    "empty description": _set("", "Description"),
    "no parameters": _drop("Parameters"),
    "empty parameters": _set({}, "Parameters"),
    "no table type": _drop("TableType"),
    "managed table type": _set("MANAGED_TABLE", "TableType"),
    "odd table type": _set("GOVERNED", "TableType"),
    "no location": _drop("StorageDescriptor", "Location"),
    "empty location": _set("", "StorageDescriptor", "Location"),
    "location without scheme": _set("lake/raw/x", "StorageDescriptor", "Location"),
    "file location": _set("file:///etc/passwd", "StorageDescriptor", "Location"),
    "no input format": _drop("StorageDescriptor", "InputFormat"),
    "no serde": _drop("StorageDescriptor", "SerdeInfo"),
    "empty serde": _set({}, "StorageDescriptor", "SerdeInfo"),
    "no columns": _drop("StorageDescriptor", "Columns"),
    "empty columns": _set([], "StorageDescriptor", "Columns"),
    "untyped column": _columns(lambda cs: cs.append({"Name": "untyped"})),
    "empty type": _columns(lambda cs: cs.append({"Name": "empty_type", "Type": ""})),
    "unparsable type": _columns(lambda cs: cs.append({"Name": "broken", "Type": "struct<a:int"})),
    "huge decimal": _columns(lambda cs: cs.append({"Name": "big", "Type": "decimal(99,99)"})),
    "upper-case type": _columns(lambda cs: cs.append({"Name": "shout", "Type": "BIGINT"})),
    "duplicate column": _columns(lambda cs: cs.extend([{"Name": "dup", "Type": "int"}, {"Name": "DUP", "Type": "int"}])),
    "column comment with controls": _columns(lambda cs: cs.append({"Name": "c", "Type": "int", "Comment": "a\x01b\r\nc\u2028"})),
    "column parameters": _columns(lambda cs: cs.append({"Name": "p", "Type": "int", "Parameters": {"iceberg.field.id": "7"}})),
    "unicode column": _columns(lambda cs: cs.append({"Name": "prix_€_ü", "Type": "string"})),
    "huge parameter": _set({"blob": "x" * 200_000}, "Parameters"),
    "newline parameter": _set({"note": "line one\nline two\x07", "k\ney": "v"}, "Parameters"),
    "reference-like parameter": _set({"tmpl": "${var.lake}/${env.HOME}/$${x}"}, "Parameters"),
    "planted placeholder": _set({"x": "(sensitive:AWS_SECRET_ACCESS_KEY)"}, "Parameters"),
    "secret parameter": _set({"jdbc.password": "PlantedLive1", "fs.azure.account.key.a": "PlantedLive2"}, "Parameters"),
    "secret in value": _set({"source": "postgresql://u:PlantedLive3@db/x"}, "Parameters"),
    "iceberg without pointer": _set({"table_type": "ICEBERG"}, "Parameters"),
    "iceberg pointer to a file": _set({"table_type": "ICEBERG", "metadata_location": "file:///etc/hostname"}, "Parameters"),
    "iceberg pointer to garbage": _set({"table_type": "ICEBERG", "metadata_location": "s3://lake/garbage.json"}, "Parameters"),
    "iceberg pointer nowhere": _set({"table_type": "ICEBERG", "metadata_location": "s3://lake/none.metadata.json"}, "Parameters"),
    "delta without log": _set({"spark.sql.sources.provider": "delta"}, "Parameters"),
    "delta athena style": _set({"table_type": "DELTA"}, "Parameters"),
    "view without texts": _set("VIRTUAL_VIEW", "TableType"),
    "view with garbage payload": lambda t: t.update(TableType="VIRTUAL_VIEW", ViewOriginalText="/* Presto View: !!! */",
                                                    ViewExpandedText="/* Presto View */"),
    "view with non-json payload": lambda t: t.update(
        TableType="VIRTUAL_VIEW", ViewOriginalText="/* Presto View: " + base64.b64encode(b"\xff\x00").decode() + " */",
        ViewExpandedText="/* Presto View */"),
    "view payload without sql": lambda t: t.update(TableType="VIRTUAL_VIEW", ViewOriginalText=_payload({"catalog": "x"}),
                                                   ViewExpandedText="/* Presto View */"),
    "view payload of a list": lambda t: t.update(TableType="VIRTUAL_VIEW", ViewOriginalText=_payload([1, 2]),
                                                 ViewExpandedText="/* Presto View */"),
    "table carrying view texts": lambda t: t.update(ViewOriginalText="SELECT 1", ViewExpandedText="SELECT 1"),
    "partition key untyped": _set([{"Name": "dt"}], "PartitionKeys"),
    "partition key odd type": _set([{"Name": "dt", "Type": "map<string,int>"}], "PartitionKeys"),
    "partition key duplicating a column": _set([{"Name": "id", "Type": "bigint"}], "PartitionKeys"),
    "owner and retention": lambda t: t.update(Owner="someone", Retention=7),
    "buckets": _set(4, "StorageDescriptor", "NumberOfBuckets"),
    "skewed info": _set({"SkewedColumnNames": ["id"]}, "StorageDescriptor", "SkewedInfo"),
}  # fmt: skip


def _shapes() -> Iterator[tuple[str, Shape]]:
    """Each mutation on several base shapes, and random pairs of mutations: a few hundred tables."""
    rng = random.Random(SEED)
    names = sorted(MUTATIONS)
    for index, name in enumerate(names):
        for base in rng.sample(HIVE_SHAPES, 3):
            table = copy.deepcopy(base)
            MUTATIONS[name](table)
            yield (
                f"m{index:02d}_{len(table.get('StorageDescriptor', {}).get('Columns') or [])}_{rng.randrange(10**6)}",
                table,
            )
    for pair in range(120):
        first, second = rng.sample(names, 2)
        table = copy.deepcopy(rng.choice(HIVE_SHAPES))
        MUTATIONS[first](table)
        MUTATIONS[second](table)
        yield f"p{pair:03d}", table


def test_a_generated_hostile_live_catalog_imports_and_plans_clean(
    tmp_path: Path, server: LocalGlue, lake_bucket: str, raw_glue: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    s3 = boto3.client("s3", endpoint_url=server.endpoint_url, region_name="us-east-1")
    s3.put_object(Bucket="lake", Key="garbage.json", Body=b"{not json at all")
    raw_glue.create_database(DatabaseInput={"Name": "hostile", "LocationUri": "s3://lake/hostile/"})
    created, refused = 0, 0
    for name, shape in _shapes():
        try:
            raw_glue.create_table(DatabaseName="hostile", TableInput={**shape, "Name": name})
            created += 1
        except raw_glue.exceptions.ClientError:
            refused += 1  # Glue itself refuses that shape: no catalog can hold it
        except Exception:  # botocore's own client-side validation of the input
            refused += 1
    assert created >= 200, f"only {created} shapes landed ({refused} refused by Glue)"
    root = write_project(tmp_path / "imported", server.endpoint_url, {})

    imported = gluecat("import", str(root), "--partitions")
    assert "Traceback" not in imported.output and "unexpected error" not in imported.output, imported.output
    failed = [line for line in imported.stderr.splitlines() if line.startswith("not imported")]
    assert all(line.startswith("not imported hostile.") for line in failed), failed
    assert imported.exit_code == (1 if failed else 0), imported.output
    for secret in ("PlantedLive1", "PlantedLive2", "PlantedLive3", "root:x:0:0"):
        assert secret not in imported.output
        assert not any(secret in p.read_text() for p in root.rglob("*.yaml")), secret

    # The user sets the variables import named, to the values Glue holds.
    planted = {"SOURCE": "postgresql://u:PlantedLive3@db/x", "JDBC_PASSWORD": "PlantedLive1",
               "FS_AZURE_ACCOUNT_KEY_A": "PlantedLive2"}  # fmt: skip
    for line in imported.stdout.splitlines():
        variable = line.strip().split("  ", 1)[0]
        if line.startswith("  HOSTILE_") and variable:
            monkeypatch.setenv(variable, next(v for suffix, v in planted.items() if variable.endswith(suffix)))
    planned = gluecat("plan", str(root), "--detailed-exitcode")
    assert "Traceback" not in planned.output and "unexpected error" not in planned.output, planned.output
    assert planned.exit_code == 0, planned.output
