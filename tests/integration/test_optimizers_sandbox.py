"""The local Glue's table optimizers hold the AWS Glue API reference's contract, call by call, through boto3."""

from __future__ import annotations

from typing import Any

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

from gluecat.sandbox.server import LocalGlue

ROLE = "arn:aws:iam::123456789012:role/glue-optimizer"
ACCOUNT = "123456789012"


def _table(glue: Any, name: str, iceberg: bool = True) -> None:
    parameters = {"table_type": "ICEBERG", "metadata_location": f"s3://lake/{name}/metadata/0.json"} if iceberg else {}
    glue.create_table(
        DatabaseName="lake",
        TableInput={"Name": name, "Parameters": parameters, "StorageDescriptor": {"Location": f"s3://lake/{name}"}},
    )


@pytest.fixture
def glue(raw_glue: Any) -> Any:
    raw_glue.create_database(DatabaseInput={"Name": "lake"})
    _table(raw_glue, "events")
    _table(raw_glue, "plain", iceberg=False)
    return raw_glue


def _names(table: str = "events", kind: str = "compaction") -> dict[str, str]:
    return {"CatalogId": ACCOUNT, "DatabaseName": "lake", "TableName": table, "Type": kind}


def _compaction(strategy: str = "binpack", **extra: Any) -> dict[str, Any]:
    iceberg = {"strategy": strategy, **extra}
    return {"enabled": True, "roleArn": ROLE, "compactionConfiguration": {"icebergConfiguration": iceberg}}


def _code(call: Any, **kwargs: Any) -> str:
    with pytest.raises(ClientError) as raised:
        call(**kwargs)
    return str(raised.value.response["Error"]["Code"])


def test_create_get_update_delete_round_trip(glue: Any) -> None:
    glue.create_table_optimizer(**_names(), TableOptimizerConfiguration=_compaction(minInputFiles=20))
    got = glue.get_table_optimizer(**_names())
    assert (got["DatabaseName"], got["TableName"], got["TableOptimizer"]["type"]) == ("lake", "events", "compaction")
    assert got["TableOptimizer"]["configuration"] == _compaction(minInputFiles=20)

    glue.update_table_optimizer(**_names(), TableOptimizerConfiguration=_compaction("z-order"))
    assert glue.get_table_optimizer(**_names())["TableOptimizer"]["configuration"] == _compaction("z-order")

    glue.delete_table_optimizer(**_names())
    assert _code(glue.get_table_optimizer, **_names()) == "EntityNotFoundException"


def test_one_optimizer_per_table_and_type(glue: Any) -> None:
    glue.create_table_optimizer(**_names(), TableOptimizerConfiguration=_compaction())
    again = _code(glue.create_table_optimizer, **_names(), TableOptimizerConfiguration=_compaction("sort"))
    assert again == "AlreadyExistsException"
    retention = {"enabled": True, "roleArn": ROLE, "retentionConfiguration": {"icebergConfiguration": {}}}
    glue.create_table_optimizer(**_names(kind="retention"), TableOptimizerConfiguration=retention)  # another type


def test_what_is_missing_is_entity_not_found(glue: Any) -> None:
    assert _code(glue.update_table_optimizer, **_names(), TableOptimizerConfiguration=_compaction()) == (
        "EntityNotFoundException"
    )
    assert _code(glue.delete_table_optimizer, **_names()) == "EntityNotFoundException"
    for table in ("nosuch",):
        assert _code(glue.create_table_optimizer, **_names(table), TableOptimizerConfiguration=_compaction()) == (
            "EntityNotFoundException"
        )
    missing_database = {**_names(), "DatabaseName": "nowhere"}
    assert _code(glue.get_table_optimizer, **missing_database) == "EntityNotFoundException"


def test_glue_validates_table_type_role_and_values(glue: Any) -> None:
    create = glue.create_table_optimizer
    assert _code(create, **_names("plain"), TableOptimizerConfiguration=_compaction()) == "InvalidInputException"
    assert _code(create, **_names(kind="vacuum"), TableOptimizerConfiguration=_compaction()) == "ValidationException"
    short_role = {**_compaction(), "roleArn": "arn:aws:iam::1:r"}
    unchecked = boto3.client("glue", endpoint_url=glue.meta.endpoint_url, config=Config(parameter_validation=False))
    assert _code(unchecked.create_table_optimizer, **_names(), TableOptimizerConfiguration=short_role) == (
        "ValidationException"  # botocore checks the length too; the service does it for every client
    )
    not_a_role = {**_compaction(), "roleArn": "arn:aws:s3:::lake-bucket-of-mine"}
    assert _code(create, **_names(), TableOptimizerConfiguration=not_a_role) == "InvalidInputException"
    no_role = {k: v for k, v in _compaction().items() if k != "roleArn"}
    assert _code(create, **_names(), TableOptimizerConfiguration=no_role) == "InvalidInputException"
    assert _code(create, **_names(), TableOptimizerConfiguration=_compaction("zorder")) == "ValidationException"
    assert _code(create, **_names(), TableOptimizerConfiguration=_compaction(minInputFiles=0)) == (
        "InvalidInputException"
    )
    too_often = {
        "enabled": True,
        "roleArn": ROLE,
        "retentionConfiguration": {"icebergConfiguration": {"runRateInHours": 2}},
    }
    assert _code(create, **_names(kind="retention"), TableOptimizerConfiguration=too_often) == "InvalidInputException"
    assert _code(glue.get_table_optimizer, **_names()) == "EntityNotFoundException"  # nothing was kept


def test_batch_get_answers_every_entry(glue: Any, server: LocalGlue) -> None:
    glue.create_table_optimizer(**_names(), TableOptimizerConfiguration=_compaction())
    entries = [
        {"catalogId": ACCOUNT, "databaseName": "lake", "tableName": "events", "type": "compaction"},
        {"catalogId": ACCOUNT, "databaseName": "lake", "tableName": "events", "type": "retention"},
        {"catalogId": ACCOUNT, "databaseName": "lake", "tableName": "nosuch", "type": "compaction"},
    ]
    server.reset_counts()
    answer = glue.batch_get_table_optimizer(Entries=entries)
    assert server.calls()["BatchGetTableOptimizer"] == 1
    assert [(t["tableName"], t["tableOptimizer"]["type"]) for t in answer["TableOptimizers"]] == [
        ("events", "compaction")
    ]
    assert answer["TableOptimizers"][0]["tableOptimizer"]["configuration"] == _compaction()
    assert [(f["tableName"], f["type"], f["error"]["ErrorCode"]) for f in answer["Failures"]] == [
        ("events", "retention", "EntityNotFoundException"),
        ("nosuch", "compaction", "EntityNotFoundException"),
    ]


def test_an_optimizer_goes_with_its_table(glue: Any) -> None:
    glue.create_table_optimizer(**_names(), TableOptimizerConfiguration=_compaction())
    glue.delete_table(DatabaseName="lake", Name="events")
    assert _code(glue.get_table_optimizer, **_names()) == "EntityNotFoundException"
    _table(glue, "events")  # a new table of the same name starts without optimizers
    assert _code(glue.get_table_optimizer, **_names()) == "EntityNotFoundException"
    glue.create_table_optimizer(**_names(), TableOptimizerConfiguration=_compaction("sort"))
    assert glue.get_table_optimizer(**_names())["TableOptimizer"]["configuration"] == _compaction("sort")
