"""Full fidelity: the real-world corpus, imported, turns back into exactly what Glue held — compared by
the whole TableInput, not by the plan — and rebuilds an emptied catalog field for field, partitions
included."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from gluecat.sandbox.server import LocalGlue
from tests.corpus import load_corpus
from tests.fidelity import comparable, differences, sent_table_inputs
from tests.integration.helpers import gluecat

WRITES = ("Create", "Update", "Delete", "Batch")
# Entries whose import belongs to other parts of the work on adopting real catalogs (names outside
# [a-z0-9_], registrations without their metadata or log, tables with no formats): until then they
# are named by import and skipped here; every entry import writes must come back field for field.
CRAWLED = {"sizeKey": "75", "objectCount": "1", "recordCount": "9", "averageRecordSize": "7",
           "UPDATED_BY_CRAWLER": "nightly", "CrawlerSchemaSerializerVersion": "1.0"}  # fmt: skip


def _entries() -> list[dict[str, Any]]:
    """The corpus, with partitions of their own added to two tables: a location without the trailing
    slash, crawler parameters (volatile and durable), SerDe parameters and columns that drifted."""
    entries = copy.deepcopy(load_corpus())
    by_file = {entry["file"]: entry for entry in entries}
    users = by_file["athena_ddl_partitions_users.json"]
    descriptor = users["table_input"]["StorageDescriptor"]
    location = descriptor["Location"].rstrip("/")
    users["partitions"] += [
        {"Values": ["c"], "StorageDescriptor": {**descriptor, "Location": f"{location}/id=c"}},
        {"Values": ["d"], "Parameters": {"classification": "json", "compressionType": "gzip", **CRAWLED},
         "StorageDescriptor": {**descriptor, "Location": f"{location}/id=d/",
                               "Parameters": {"typeOfData": "file", **CRAWLED}}},
        {"Values": ["e"], "StorageDescriptor": {
            **descriptor, "Location": "s3://elsewhere/users/e/",
            "Columns": descriptor["Columns"][:1],
            "SerdeInfo": {**descriptor["SerdeInfo"], "Parameters": {"ignore.malformed.json": "true"}}}},
    ]  # fmt: skip
    return entries


def _arrange(raw_glue: Any, entries: list[dict[str, Any]]) -> None:
    for database in sorted({entry["database"].lower() for entry in entries}):
        raw_glue.create_database(DatabaseInput={"Name": database, "LocationUri": f"s3://lake/{database}/"})
    for entry in entries:
        name = entry["table_input"]["Name"]
        raw_glue.create_table(DatabaseName=entry["database"], TableInput=entry["table_input"])
        if entry.get("partitions"):
            answer = raw_glue.batch_create_partition(
                DatabaseName=entry["database"], TableName=name, PartitionInputList=entry["partitions"]
            )
            assert not answer.get("Errors"), (entry["file"], answer["Errors"])


def _import(root: Path, endpoint: str, entries: list[dict[str, Any]]) -> None:
    """Database by database (a name Glue accepts but gluecat does not yet stops a whole import)."""
    root.mkdir()
    (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {endpoint}\n")
    for database in sorted({entry["database"].lower() for entry in entries}):
        gluecat("import", str(root), "--database", database, "--partitions")


def _snapshot(raw_glue: Any, keys: list[tuple[str, str]]) -> dict[tuple[str, str], Any]:
    """Each table and its partitions as Glue answers them, minus output-only fields and volatile values."""
    found = {}
    for database, name in keys:
        table = raw_glue.get_table(DatabaseName=database, Name=name)["Table"]
        partitions = raw_glue.get_partitions(DatabaseName=database, TableName=name)["Partitions"]
        found[(database, name)] = {
            "table": comparable(table),
            "partitions": sorted((comparable(p) for p in partitions), key=lambda p: p["Values"]),
        }
    return found


def test_every_imported_corpus_table_turns_back_into_what_glue_holds(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    entries = _entries()
    _arrange(raw_glue, entries)
    root = tmp_path / "imported"
    _import(root, server.endpoint_url, entries)

    sent = sent_table_inputs(root)
    imported = {
        entry["file"]: (entry["database"].lower(), entry["table_input"]["Name"].lower())
        for entry in entries
        if (entry["database"].lower(), entry["table_input"]["Name"].lower()) in sent
    }
    assert set(imported) == {entry["file"] for entry in entries}  # every corpus table became a file
    for file, key in sorted(imported.items()):
        shape = sent[key]
        assert shape is not None, file
        live = raw_glue.get_table(DatabaseName=key[0], Name=key[1])["Table"]
        assert differences(shape, live) == [], file


def test_the_imported_corpus_rebuilds_an_emptied_catalog_field_for_field(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    entries = _entries()
    _arrange(raw_glue, entries)
    root = tmp_path / "imported"
    _import(root, server.endpoint_url, entries)
    users = (root / "partitions" / "tables" / "users.yaml").read_text()
    assert "location: s3://DOC-EXAMPLE-BUCKET/folder/id=c\n" in users  # as written: no slash added
    assert "sizeKey" not in users and "compressionType: gzip" in users

    keys = sorted(sent_table_inputs(root))
    databases = {database: raw_glue.get_database(Name=database)["Database"] for database, _ in keys}
    before = _snapshot(raw_glue, keys)
    assert sum(len(found["partitions"]) for found in before.values()) >= 11

    server.reset()  # the disaster: an empty catalog
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output

    after = _snapshot(raw_glue, keys)
    for key in keys:
        assert differences(after[key], before[key]) == [], key
    for name, database in databases.items():
        assert differences(raw_glue.get_database(Name=name)["Database"], database) == [], name

    server.reset_counts()
    again = gluecat("plan", str(root), "--detailed-exitcode")
    assert again.exit_code == 0, again.output
    assert not [op for op in server.calls() if op.startswith(WRITES)]


def test_a_partition_parameter_edited_in_yaml_is_updated_and_the_rest_kept(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    entry = next(e for e in _entries() if e["file"] == "athena_ddl_partitions_users.json")
    _arrange(raw_glue, [entry])
    root = tmp_path / "imported"
    _import(root, server.endpoint_url, [entry])
    path = root / "partitions" / "tables" / "users.yaml"
    path.write_text(path.read_text().replace("compressionType: gzip", "compressionType: zstd"))

    planned = gluecat("plan", str(root), "--detailed-exitcode")
    assert planned.exit_code == 2, planned.output
    assert "partitions.users[id=d]" in planned.stdout and "its own parameters" in planned.stdout
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output

    held = raw_glue.get_partition(DatabaseName="partitions", TableName="users", PartitionValues=["d"])["Partition"]
    assert held["Parameters"]["compressionType"] == "zstd"
    assert held["Parameters"]["sizeKey"] == "75"  # volatile: kept, never written from YAML
    assert held["StorageDescriptor"]["Location"] == "s3://DOC-EXAMPLE-BUCKET/folder/id=d/"
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0


def test_partitions_glue_holds_without_a_location_import_plan_clean_and_rebuild_without_one(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    """BatchCreatePartition takes a partition of values alone, or a descriptor without a location:
    import must not turn that into 'move it to the default location'."""
    entry = next(e for e in _entries() if e["file"] == "athena_ddl_partitions_users.json")
    entry["partitions"] = [{"Values": ["bare"]}, {"Values": ["nowhere"], "StorageDescriptor": {"Columns": []}}]
    _arrange(raw_glue, [entry])
    root = tmp_path / "imported"
    _import(root, server.endpoint_url, [entry])
    server.reset_counts()
    planned = gluecat("plan", str(root), "--detailed-exitcode")
    assert planned.exit_code == 0, planned.output
    assert not [op for op in server.calls() if op.startswith(WRITES)]

    before = _snapshot(raw_glue, [("partitions", "users")])
    server.reset()
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert differences(_snapshot(raw_glue, [("partitions", "users")]), before) == []
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0
