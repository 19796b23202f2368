"""The real-world corpus: every entry is a CreateTable Glue's API model accepts, and the local Glue stores it."""

from __future__ import annotations

from typing import Any

import botocore.session
import pytest
from botocore.validate import ParamValidator

from tests.corpus import load_corpus

CORPUS = load_corpus()
MODEL = botocore.session.get_session().get_service_model("glue")


def _input_shape(operation: str) -> Any:
    shape = MODEL.operation_model(operation).input_shape
    assert shape is not None
    return shape


def _ids(entries: list[dict[str, Any]]) -> list[str]:
    return [entry["file"] for entry in entries]


def _folded(column: dict[str, Any]) -> dict[str, Any]:
    return {**column, "Name": column["Name"].lower()}


def test_corpus_size_and_sources() -> None:
    assert len(CORPUS) >= 45
    assert all(entry["source"].strip() for entry in CORPUS)
    assert all(entry["tool"].strip() and entry["notes"].strip() for entry in CORPUS)
    assert len({entry["source"] for entry in CORPUS}) >= 15
    names = [(entry["database"].lower(), entry["table_input"]["Name"].lower()) for entry in CORPUS]
    assert len(names) == len(set(names)), "two entries would be the same Glue table once names are folded"


@pytest.mark.parametrize("entry", CORPUS, ids=_ids(CORPUS))
def test_entry_matches_glue_api_model(entry: dict[str, Any]) -> None:
    validator = ParamValidator()
    create = _input_shape("CreateTable")
    report = validator.validate({"DatabaseName": entry["database"], "TableInput": entry["table_input"]}, create)
    assert not report.has_errors(), report.generate_report()
    if entry.get("partitions"):
        batch = _input_shape("BatchCreatePartition")
        params = {
            "DatabaseName": entry["database"],
            "TableName": entry["table_input"]["Name"],
            "PartitionInputList": entry["partitions"],
        }
        report = validator.validate(params, batch)
        assert not report.has_errors(), report.generate_report()


def test_corpus_loads_into_local_glue(raw_glue: Any) -> None:
    """One pass over the whole corpus (one server reset): create, read back, add partitions."""
    for database in sorted({entry["database"] for entry in CORPUS}):
        raw_glue.create_database(DatabaseInput={"Name": database})
    for entry in CORPUS:
        table_input = entry["table_input"]
        raw_glue.create_table(DatabaseName=entry["database"], TableInput=table_input)
        table = raw_glue.get_table(DatabaseName=entry["database"], Name=table_input["Name"])["Table"]
        assert table["Name"].lower() == table_input["Name"].lower(), entry["file"]
        for key in ("TableType", "ViewOriginalText", "ViewExpandedText", "Parameters", "Owner", "Description"):
            if key in table_input:
                assert table[key] == table_input[key], (entry["file"], key)
        if "StorageDescriptor" in table_input:
            # Glue folds top-level column names to lower case; types and nested names keep theirs.
            want = [_folded(column) for column in table_input["StorageDescriptor"].get("Columns", [])]
            assert table["StorageDescriptor"].get("Columns", []) == want, entry["file"]
        if entry.get("partitions"):
            answer = raw_glue.batch_create_partition(
                DatabaseName=entry["database"],
                TableName=table_input["Name"],
                PartitionInputList=entry["partitions"],
            )
            assert not answer.get("Errors"), (entry["file"], answer["Errors"])
            stored = raw_glue.get_partitions(DatabaseName=entry["database"], TableName=table_input["Name"])
            assert len(stored["Partitions"]) == len(entry["partitions"])
