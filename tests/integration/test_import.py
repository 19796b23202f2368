"""import: realistic live tables become YAML that plans with zero changes and applies with zero writes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from deltalake import write_deltalake
from pyiceberg.catalog.glue import GlueCatalog
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.transforms import DayTransform
from pyiceberg.types import LongType, NestedField, StringType, TimestamptzType

from gluecat.sandbox.server import LocalGlue
from gluecat.secrets.files import Writer
from tests.integration.helpers import gluecat
from tests.integration.import_shapes import HIVE_SHAPES

WRITES = ("Create", "Update", "Delete", "Batch")


def _arrange(server: LocalGlue, raw_glue: Any) -> int:
    """Every shape in database `raw`, plus Iceberg and Delta tables in `lake`; returns the table count."""
    raw_glue.create_database(DatabaseInput={"Name": "raw", "LocationUri": "s3://lake/raw/", "Description": "Landing zone",
                                            "Parameters": {"owner": "ingest", "CreatedBy": "crawler"}})  # fmt: skip
    raw_glue.create_database(DatabaseInput={"Name": "lake", "LocationUri": "s3://lake/lake.db/"})
    for shape in HIVE_SHAPES:
        raw_glue.create_table(DatabaseName="raw", TableInput=shape)
    for dt in ("2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04"):
        for region in ("eu", "us"):
            raw_glue.create_partition(DatabaseName="raw", TableName="partitioned", PartitionInput={
                "Values": [dt, region], "StorageDescriptor": {"Location": f"s3://lake/raw/partitioned/dt={dt}/region={region}/"}})  # fmt: skip
    raw_glue.create_partition(DatabaseName="raw", TableName="partitioned", PartitionInput={
        "Values": ["2023-12-31", "eu"], "StorageDescriptor": {"Location": "s3://lake/old/2023-12-31/"}})  # fmt: skip

    endpoint = server.endpoint_url
    catalog = GlueCatalog("t", client=raw_glue, **{"s3.endpoint": endpoint, "s3.access-key-id": "testing",
                                                  "s3.secret-access-key": "testing", "s3.region": "us-east-1"})  # fmt: skip
    schema = Schema(NestedField(1, "id", LongType(), required=True), NestedField(2, "ts", TimestamptzType()),
                    NestedField(3, "kind", StringType(), doc="what happened"))  # fmt: skip
    table = catalog.create_table("lake.events", schema, location="s3://lake/lake.db/events",
                                 partition_spec=PartitionSpec(PartitionField(2, 1000, DayTransform(), "ts_day")),
                                 properties={"comment": "events", "write.format.default": "parquet"})  # fmt: skip
    table.append(pa.Table.from_pylist([{"id": 1, "ts": None, "kind": "a"}], schema=table.schema().as_arrow()))

    options = {"AWS_ENDPOINT_URL": endpoint, "AWS_ALLOW_HTTP": "true", "AWS_REGION": "us-east-1",
               "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing"}  # fmt: skip
    location = "s3://lake/lake.db/stock"
    write_deltalake(location, pa.table({"sku": ["a"], "qty": pa.array([1], pa.int32())}), storage_options=options,
                    configuration={"delta.appendOnly": "true"}, description="stock levels")  # fmt: skip
    parquet = HIVE_SHAPES[0]["StorageDescriptor"]
    raw_glue.create_table(DatabaseName="lake", TableInput={
        "Name": "stock", "TableType": "EXTERNAL_TABLE",
        "Parameters": {"table_type": "DELTA", "spark.sql.sources.provider": "delta", "EXTERNAL": "TRUE"},
        "StorageDescriptor": {"Columns": [{"Name": "sku", "Type": "string"}, {"Name": "qty", "Type": "int"}],
                              "Location": location, "InputFormat": parquet["InputFormat"],
                              "OutputFormat": parquet["OutputFormat"],
                              "SerdeInfo": {"SerializationLibrary": parquet["SerdeInfo"]["SerializationLibrary"],
                                            "Parameters": {"serialization.format": "1", "path": location}}},
        "PartitionKeys": []})  # fmt: skip
    return len(HIVE_SHAPES) + 2


def test_import_then_plan_shows_nothing_and_apply_writes_nothing(
    tmp_path: Path, server: LocalGlue, lake_bucket: str, raw_glue: Any
) -> None:
    tables = _arrange(server, raw_glue)
    assert tables >= 25
    root = tmp_path / "imported"
    root.mkdir()
    (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")

    imported = gluecat("import", str(root), "--partitions")
    assert imported.exit_code == 0, imported.output
    assert f"Imported {tables} tables" in imported.stdout
    assert (root / "raw" / "tables" / "athena_view.yaml").read_text().count("format: view") == 1
    assert "format: iceberg" in (root / "lake" / "tables" / "events.yaml").read_text()
    assert "format: delta" in (root / "lake" / "tables" / "stock.yaml").read_text()
    partitioned = (root / "raw" / "tables" / "partitioned.yaml").read_text()
    assert (
        "expand:" in partitioned and "from: '2024-01-01'" in partitioned and "s3://lake/old/2023-12-31/" in partitioned
    )
    assert "NumberOfBuckets: 8" in (root / "raw" / "tables" / "bucketed.yaml").read_text()
    crawled = (root / "raw" / "tables" / "crawled_parquet.yaml").read_text()
    assert "UPDATED_BY_CRAWLER" not in crawled and "classification: parquet" in crawled

    validated = gluecat("validate", str(root))
    assert validated.exit_code == 0, validated.output
    planned = gluecat("plan", str(root), "--detailed-exitcode")
    assert planned.exit_code == 0, planned.output

    server.reset_counts()
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    writes = {op: n for op, n in server.calls().items() if op.startswith(WRITES)}
    assert writes == {}


def test_reimport_of_an_unchanged_catalog_rewrites_nothing(
    tmp_path: Path, server: LocalGlue, lake_bucket: str, raw_glue: Any
) -> None:
    _arrange(server, raw_glue)
    root = tmp_path / "imported"
    root.mkdir()
    (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
    assert gluecat("import", str(root), "--partitions").exit_code == 0
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in root.rglob("*.yaml")}
    again = gluecat("import", str(root), "--partitions")
    assert again.exit_code == 0, again.output
    assert "0 files written" in again.stdout
    assert {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in root.rglob("*.yaml")} == before


def test_edited_files_are_kept_without_force(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    raw_glue.create_database(DatabaseInput={"Name": "raw", "LocationUri": "s3://lake/raw/"})
    raw_glue.create_table(DatabaseName="raw", TableInput=HIVE_SHAPES[3])
    root = tmp_path / "imported"
    root.mkdir()
    (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
    assert gluecat("import", str(root)).exit_code == 0
    edited = root / "raw" / "tables" / "athena_ctas_parquet.yaml"
    edited.write_text(edited.read_text() + "description: mine\n")
    kept = gluecat("import", str(root))
    assert kept.exit_code == 1 and "--force" in kept.output
    assert "description: mine" in edited.read_text()
    assert gluecat("import", str(root), "--force").exit_code == 0
    assert "description: mine" not in edited.read_text()


def test_the_summary_counts_files_by_kind_and_names_what_was_skipped(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    server.configure(fold_names=False)  # Glue folds names; some metastores hold them as given
    raw_glue.create_database(DatabaseInput={"Name": "raw", "LocationUri": "s3://lake/raw/"})
    for name in ("first", "second", "Upper"):  # 'Upper' cannot be a table file: skipped, and named
        raw_glue.create_table(DatabaseName="raw", TableInput={**HIVE_SHAPES[3], "Name": name})
    root = tmp_path / "imported"
    root.mkdir()
    (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")

    first = gluecat("import", str(root))
    assert first.exit_code == 1
    assert first.stdout.endswith(
        "Imported 2 tables: 3 files written, 0 unchanged, 0 differ, 1 skipped (1 table).\n"
        "  2 table files: 2 written, 0 unchanged, 0 differ\n"
        "  1 database file: 1 written, 0 unchanged, 0 differ\n"
    ), first.stdout

    edited = root / "raw" / "tables" / "second.yaml"
    edited.write_text(edited.read_text() + "description: mine\n")
    again = gluecat("import", str(root))
    assert again.exit_code == 1
    assert (
        f"kept {edited}: it differs from the live catalog (description: 'mine' in the file, absent live)"
        in again.stderr
    )
    assert again.stdout.endswith(
        "Imported 2 tables: 0 files written, 2 unchanged, 1 differ (kept), 1 skipped (1 table).\n"
        "  2 table files: 0 written, 1 unchanged, 1 differ\n"
        "  1 database file: 0 written, 1 unchanged, 0 differ\n"
    ), again.stdout


def test_a_table_the_model_cannot_hold_is_carried_as_a_registration(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    raw_glue.create_database(DatabaseInput={"Name": "raw", "LocationUri": "s3://lake/raw/"})
    raw_glue.create_table(DatabaseName="raw", TableInput={
        "Name": "weird", "TableType": "EXTERNAL_TABLE",
        "StorageDescriptor": {**HIVE_SHAPES[3]["StorageDescriptor"],
                              "Columns": [{"Name": "u", "Type": "uniontype<int,string>"}]}})  # fmt: skip
    root = tmp_path / "imported"
    root.mkdir()
    (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
    result = gluecat("import", str(root))
    assert result.exit_code == 0, result.output
    assert "raw.weird" in result.output and "uniontype" in result.output
    assert "format: registration" in (root / "raw" / "tables" / "weird.yaml").read_text()
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_import_lists_tables_in_pages(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    raw_glue.create_database(DatabaseInput={"Name": "many", "LocationUri": "s3://lake/many/"})
    for index in range(230):
        raw_glue.create_table(DatabaseName="many", TableInput={**HIVE_SHAPES[3], "Name": f"t{index:03d}"})
    root = tmp_path / "imported"
    root.mkdir()
    (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
    server.reset_counts()
    assert gluecat("import", str(root)).exit_code == 0
    assert dict(server.calls()) == {"GetDatabases": 1, "GetTables": 3}
    assert len(list((root / "many" / "tables").glob("*.yaml"))) == 230


def test_ctrl_c_while_writing_says_how_many_files_are_whole_and_a_rerun_finishes(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw_glue.create_database(DatabaseInput={"Name": "raw", "LocationUri": "s3://lake/raw/"})
    for shape in HIVE_SHAPES[:4]:
        raw_glue.create_table(DatabaseName="raw", TableInput=shape)
    root = tmp_path / "imported"
    root.mkdir()
    (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
    real_write, written = Writer.write, []

    def interrupted_on_the_third(writer: Writer, path: Path, data: bytes | str) -> Path:
        if len(written) == 2:
            raise KeyboardInterrupt
        written.append(path)
        return real_write(writer, path, data)

    monkeypatch.setattr(Writer, "write", interrupted_on_the_third)
    stopped = gluecat("import", str(root))

    assert stopped.exit_code == 130
    assert "interrupted: 2 of 5 database and table files written or found unchanged" in stopped.output
    assert "re-run import" in stopped.output
    on_disk = sorted(p for p in root.rglob("*") if p.is_file() and p.name != "catalog.yaml")
    assert on_disk == sorted(written)  # each whole, no temporary file left
    monkeypatch.undo()
    assert gluecat("import", str(root)).exit_code == 0
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0
