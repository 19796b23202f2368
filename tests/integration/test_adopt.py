"""Adopting catalogs nobody designed for gluecat: the real-world corpus in one project, odd names,
tables that break lint rules, registrations whose files are gone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from gluecat.sandbox.server import LocalGlue
from tests.corpus import create_corpus
from tests.integration.helpers import gluecat, write_project
from tests.integration.import_shapes import HIVE_SHAPES

WRITES = ("Create", "Update", "Delete", "BatchCreate", "BatchUpdate", "BatchDelete", "Put", "Register")


def _writes(server: LocalGlue) -> dict[str, int]:
    return {op: n for op, n in server.calls().items() if op.startswith(WRITES)}


def _empty_project(tmp_path: Path, server: LocalGlue) -> Path:
    root = tmp_path / "imported"
    root.mkdir()
    (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
    return root


def _table_file(root: Path, database: str, table: str) -> dict[str, Any]:
    data = yaml.safe_load((root / database / "tables" / f"{table}.yaml").read_text())
    assert isinstance(data, dict)
    return data


def test_the_whole_corpus_imports_into_one_project_whose_plan_writes_nothing(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    corpus = create_corpus(raw_glue)
    root = _empty_project(tmp_path, server)

    imported = gluecat("import", str(root), "--partitions")
    assert imported.exit_code == 0, imported.output
    assert f"Imported {len(corpus)} tables" in imported.stdout
    assert "skipped" in imported.stdout and " 0 skipped" in imported.stdout
    # Adopted as Glue holds them, each oddity named for review.
    assert _table_file(root, "gluedatabase-zmbv0ldvq3hn", "gluetable-1x2y3z4a5b6c")["lint"] == {
        "allow": ["table-location"]
    }
    assert _table_file(root, "db_name", "table_name")["format"] == "registration"  # Athena-style Delta
    assert _table_file(root, "iceberg_db", "iceberg_table")["format"] == "registration"  # metadata gone
    assert "iceberg_db.iceberg_table: imported as a registration" in imported.output
    assert "partitions" not in _table_file(root, "waf", "waf_logs")  # projected: partitions left out
    assert "waf.waf_logs: left `partitions` out" in imported.output

    server.reset_counts()
    plan = gluecat("plan", str(root), "--detailed-exitcode")
    assert plan.exit_code == 0, plan.output
    assert "No changes" in plan.stdout
    assert _writes(server) == {}
    assert server.calls()["GetTables"] >= 40


def test_hyphenated_names_apply_plan_clean_and_import_back(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    files = {
        "flights-db/database.yaml": "location: s3://lake/flights-db/\n",
        "flights-db/tables/delays-2024.yaml": """\
            storage: parquet
            columns:
              - {name: flight-id, type: bigint}
              - {name: delay, type: int}
            partition_keys:
              - {name: dt, type: string}
            partitions:
              - values: {dt: "2024-01-01"}
            """,
    }
    root = write_project(tmp_path / "project", server.endpoint_url, files)
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert 'quote it in Athena as "flights-db" and in Spark as `flights-db`' in applied.output
    table = raw_glue.get_table(DatabaseName="flights-db", Name="delays-2024")["Table"]
    assert [c["Name"] for c in table["StorageDescriptor"]["Columns"]] == ["flight-id", "delay"]
    assert table["StorageDescriptor"]["Location"] == "s3://lake/flights-db/delays-2024"
    partition = raw_glue.get_partition(
        DatabaseName="flights-db", TableName="delays-2024", PartitionValues=["2024-01-01"]
    )
    assert partition["Partition"]["StorageDescriptor"]["Location"] == "s3://lake/flights-db/delays-2024/dt=2024-01-01/"

    server.reset_counts()
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0
    assert gluecat("plan", str(root), "--detailed-exitcode", "--target", "flights-db.delays-2024").exit_code == 0
    assert _writes(server) == {}
    ddl = gluecat("spark-conf", str(root), "--format", "ddl").stdout
    assert "CREATE EXTERNAL TABLE IF NOT EXISTS `flights-db`.`delays-2024` (" in ddl
    assert "`flight-id` bigint" in ddl

    back = _empty_project(tmp_path, server)
    imported = gluecat("import", str(back), "--partitions")
    assert imported.exit_code == 0, imported.output
    assert (back / "flights-db" / "tables" / "delays-2024.yaml").is_file()
    assert gluecat("plan", str(back), "--detailed-exitcode").exit_code == 0


def test_a_mixed_case_column_from_a_lenient_source_imports_and_plans_clean(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    server.configure(fold_names=False)  # a stand-in that keeps names' case, as some tools' fakes do
    raw_glue.create_database(DatabaseInput={"Name": "cloudtrail", "LocationUri": "s3://lake/cloudtrail/"})
    columns = [{"Name": "eventVersion", "Type": "string"}, {"Name": "userIdentity", "Type": "struct<type:string>"}]
    raw_glue.create_table(DatabaseName="cloudtrail", TableInput={**HIVE_SHAPES[3], "Name": "events",
                          "StorageDescriptor": {**HIVE_SHAPES[3]["StorageDescriptor"], "Columns": columns}})  # fmt: skip
    root = _empty_project(tmp_path, server)
    imported = gluecat("import", str(root))
    assert imported.exit_code == 0, imported.output
    assert [c["name"] for c in _table_file(root, "cloudtrail", "events")["columns"]] == ["eventVersion", "userIdentity"]
    plan = gluecat("plan", str(root), "--detailed-exitcode")
    assert plan.exit_code == 0, plan.output
    assert "Glue stores it as 'eventversion'" in plan.output

    # Against a Glue that folds, the same YAML applies and compares clean against the folded names.
    server.configure()
    server.reset()
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    table = raw_glue.get_table(DatabaseName="cloudtrail", Name="events")["Table"]
    assert [c["Name"] for c in table["StorageDescriptor"]["Columns"]] == ["eventversion", "useridentity"]
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_import_never_fails_whole_and_names_what_it_skips(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    server.configure(fold_names=False)
    raw_glue.create_database(DatabaseInput={"Name": "Mixed", "LocationUri": "s3://lake/mixed/"})
    raw_glue.create_table(DatabaseName="Mixed", TableInput={**HIVE_SHAPES[3], "Name": "t"})
    raw_glue.create_database(DatabaseInput={"Name": "ok-db", "LocationUri": "s3://lake/ok-db/"})
    raw_glue.create_table(DatabaseName="ok-db", TableInput={**HIVE_SHAPES[3], "Name": "Upper"})
    raw_glue.create_table(DatabaseName="ok-db", TableInput={**HIVE_SHAPES[3], "Name": "fine"})
    root = _empty_project(tmp_path, server)
    imported = gluecat("import", str(root))
    assert imported.exit_code == 1
    assert "not imported Mixed: name 'Mixed' must be lowercase" in imported.output
    assert "(its 1 table was not imported)" in imported.output
    assert "not imported ok-db.Upper: name 'Upper' must be lowercase" in imported.output
    assert "Imported 1 table" in imported.stdout and "2 skipped" in imported.stdout
    assert (root / "ok-db" / "tables" / "fine.yaml").is_file()


def test_a_table_breaking_a_lint_rule_is_adopted_with_a_visible_exception(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    raw_glue.create_database(DatabaseInput={"Name": "raw", "LocationUri": "s3://lake/raw/"})
    descriptor = {**HIVE_SHAPES[3]["StorageDescriptor"], "Columns": [{"Name": "id", "Type": "bigint"},
                                                                    {"Name": "dt", "Type": "string"}]}  # fmt: skip
    raw_glue.create_table(DatabaseName="raw", TableInput={**HIVE_SHAPES[3], "Name": "repeats", "StorageDescriptor":
                          descriptor, "PartitionKeys": [{"Name": "dt", "Type": "string"}]})  # fmt: skip
    root = _empty_project(tmp_path, server)
    imported = gluecat("import", str(root))
    assert imported.exit_code == 0, imported.output
    assert _table_file(root, "raw", "repeats")["lint"] == {"allow": ["partition-key-is-column"]}
    assert "raw.repeats: adopted with lint exceptions (partition-key-is-column)" in imported.output
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0

    # Without the exception the rule blocks the plans that target the table, and only those.
    path = root / "raw" / "tables" / "repeats.yaml"
    path.write_text(path.read_text().replace("lint:\n  allow:\n    - partition-key-is-column\n", ""))
    (root / "other" / "tables").mkdir(parents=True)
    (root / "other" / "database.yaml").write_text("location: s3://lake/other/\n")
    (root / "other" / "tables" / "t.yaml").write_text("storage: parquet\ncolumns:\n  - {name: id, type: bigint}\n")
    blocked = gluecat("plan", str(root))
    assert blocked.exit_code == 1
    assert "repeats.yaml" in blocked.output and "[partition-key-is-column]" in blocked.output
    other = gluecat("plan", str(root), "--target", "other")
    assert other.exit_code == 0, other.output
    assert "(not targeted by this plan) [partition-key-is-column]" in other.output
    assert "other.t" in other.output

    path.write_text(path.read_text() + "lint:\n  allow: [partition-key-is-colum]\n")
    typo = gluecat("validate", str(root))
    assert typo.exit_code == 1
    assert "unknown lint rule 'partition-key-is-colum'" in typo.output and "partition-key-is-column" in typo.output


def test_registrations_are_recreated_verbatim_in_an_empty_catalog(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    """Disaster recovery: what gluecat cannot model still comes back exactly as Glue held it."""
    athena_delta = {"Name": "orders", "TableType": "EXTERNAL_TABLE", "Parameters": {"table_type": "DELTA",
                    "EXTERNAL": "TRUE"}, "StorageDescriptor": {"Location": "s3://lake/delta/orders/",
                    "Columns": []}}  # fmt: skip
    lost_iceberg = {"Name": "events", "TableType": "EXTERNAL_TABLE", "Parameters": {"table_type": "ICEBERG"},
                    "StorageDescriptor": {"Location": "s3://lake/ice/events", "Columns": [
                        {"Name": "id", "Type": "bigint"}]}}  # fmt: skip
    raw_glue.create_database(DatabaseInput={"Name": "lake", "LocationUri": "s3://lake/"})
    for table_input in (athena_delta, lost_iceberg):
        raw_glue.create_table(DatabaseName="lake", TableInput=table_input)
    root = _empty_project(tmp_path, server)
    imported = gluecat("import", str(root))
    assert imported.exit_code == 0, imported.output
    assert "lake.orders: imported as a registration: registered Athena-style" in imported.output
    assert "lake.events: imported as a registration: registered as Iceberg, but Glue holds no metadata_location" in (
        imported.output
    )
    before = {t["Name"]: t for t in raw_glue.get_tables(DatabaseName="lake")["TableList"]}
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0

    server.reset()
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    after = {t["Name"]: t for t in raw_glue.get_tables(DatabaseName="lake")["TableList"]}
    for name in ("orders", "events"):
        for key in ("TableType", "Parameters", "StorageDescriptor"):
            assert after[name].get(key) == before[name].get(key), (name, key)
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_a_name_too_long_for_a_file_is_skipped_and_the_rest_imported(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    """Glue takes 255-character names; '<name>.yaml' then passes the 255-byte limit of a file name."""
    raw_glue.create_database(DatabaseInput={"Name": "logs", "LocationUri": "s3://lake/logs/"})
    longest, too_long = "t" * 250, "x" * 255
    for name in (longest, too_long, "fine"):
        raw_glue.create_table(DatabaseName="logs", TableInput={**HIVE_SHAPES[3], "Name": name})
    root = _empty_project(tmp_path, server)
    imported = gluecat("import", str(root))
    assert imported.exit_code == 1
    assert f"not imported logs.{too_long}: the name is too long for a file" in imported.output
    assert "(gluecat can manage a name of 250 bytes or fewer)" in imported.output
    assert "Imported 2 tables" in imported.stdout and "1 skipped" in imported.stdout
    assert (root / "logs" / "tables" / f"{longest}.yaml").is_file()
    assert (root / "logs" / "tables" / "fine.yaml").is_file()
    planned = gluecat("plan", str(root), "--detailed-exitcode", "--target", f"logs.{longest}")
    assert planned.exit_code == 0, planned.output
