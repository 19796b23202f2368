"""The local Glue's direct GetPartitions body equals what moto's own serializer writes."""

from __future__ import annotations

import json
from typing import Any

from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
from werkzeug.test import Client

from gluecat.sandbox.fast_partitions import partition_json

HEADERS = {
    "Content-Type": "application/x-amz-json-1.1",
    "Host": "glue.us-east-1.amazonaws.com",
    "Authorization": "AWS4-HMAC-SHA256 Credential=testing/20240101/us-east-1/glue/aws4_request, SignedHeaders=host,"
    " Signature=x",
}
STORAGE = {
    "Columns": [{"Name": "id", "Type": "bigint", "Comment": "key", "Parameters": {"a": "b"}}],
    "Location": "s3://lake/t/n=1/",
    "InputFormat": "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
    "OutputFormat": "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat",
    "Compressed": False,
    "NumberOfBuckets": 4,
    "SerdeInfo": {
        "Name": "s",
        "SerializationLibrary": "x.ParquetHiveSerDe",
        "Parameters": {"serialization.format": "1"},
    },
    "BucketColumns": ["id"],
    "SortColumns": [{"Column": "id", "SortOrder": 1}],
    "Parameters": {"k": "v"},
    "SkewedInfo": {
        "SkewedColumnNames": ["id"],
        "SkewedColumnValues": ["1"],
        "SkewedColumnValueLocationMaps": {"1": "s3://x/"},
    },
    "StoredAsSubDirectories": True,
}


def _call(client: Client, operation: str, body: dict[str, Any]) -> Any:
    response = client.post("/", data=json.dumps(body), headers={**HEADERS, "X-Amz-Target": f"AWSGlue.{operation}"})
    assert response.status_code == 200, response.get_data(as_text=True)
    return json.loads(response.get_data())


def test_every_partition_field_serializes_as_moto_writes_it() -> None:
    backend_app = DomainDispatcherApplication(create_backend_app)
    client = Client(backend_app)
    _call(client, "CreateDatabase", {"DatabaseInput": {"Name": "fastdb"}})
    table = {"Name": "t", "StorageDescriptor": STORAGE, "PartitionKeys": [{"Name": "n", "Type": "int"}]}
    _call(client, "CreateTable", {"DatabaseName": "fastdb", "TableInput": table})
    partitions = [
        {"Values": ["1"], "StorageDescriptor": STORAGE, "Parameters": {"p": "q"}, "LastAccessTime": 1700000000.123456},
        {"Values": ["2"], "LastAnalyzedTime": 1700000001},
        {"Values": [""]},
    ]
    _call(
        client, "BatchCreatePartition", {"DatabaseName": "fastdb", "TableName": "t", "PartitionInputList": partitions}
    )

    by_moto = _call(client, "GetPartitions", {"DatabaseName": "fastdb", "TableName": "t"})["Partitions"]

    from moto.glue.models import glue_backends

    stored = glue_backends["123456789012"]["us-east-1"].get_partitions("fastdb", "t", None)
    direct = json.loads(json.dumps([partition_json(p) for p in stored]))
    assert len(by_moto) == 3
    assert direct == by_moto


def _answer(client: Client, operation: str, body: dict[str, Any]) -> tuple[int, str | None, Any]:
    response = client.post("/", data=json.dumps(body), headers={**HEADERS, "X-Amz-Target": f"AWSGlue.{operation}"})
    return response.status_code, response.headers.get("x-amzn-ErrorType"), json.loads(response.get_data())


def test_partition_batches_stored_straight_in_moto_answer_as_moto_does() -> None:
    """BatchCreatePartition stored in moto's backend without its HTTP dispatch: the same answers
    (new partitions, ones already there, a missing table or database) and the same partitions."""
    from gluecat.sandbox.strict import StrictGlue
    from gluecat.sandbox.tracking import Tracking

    moto = DomainDispatcherApplication(create_backend_app)
    direct_tracking = Tracking(moto)
    direct = Client(StrictGlue(direct_tracking, direct_writes=direct_tracking.writing))
    through_moto = Client(StrictGlue(Tracking(moto)))
    answers = {}
    for name, client in (("directdb", direct), ("motodb", through_moto)):
        _call(client, "CreateDatabase", {"DatabaseInput": {"Name": name}})
        table = {"Name": "t", "StorageDescriptor": STORAGE, "PartitionKeys": [{"Name": "n", "Type": "int"}]}
        _call(client, "CreateTable", {"DatabaseName": name, "TableInput": table})
        batches = [
            ("t", [{"Values": ["1"], "StorageDescriptor": STORAGE, "Parameters": {"p": "q"}}, {"Values": ["2"]}]),
            ("t", [{"Values": ["2"]}, {"Values": ["3"], "LastAccessTime": 1700000000}]),  # one already there
            ("missing", [{"Values": ["4"]}]),
        ]
        answers[name] = [
            _answer(client, "BatchCreatePartition", {"DatabaseName": name, "TableName": t, "PartitionInputList": p})
            for t, p in batches
        ]
        answers[name].append(
            _answer(
                client, "BatchCreatePartition", {"DatabaseName": "nodb", "TableName": "t", "PartitionInputList": []}
            )
        )
        stored = _call(client, "GetPartitions", {"DatabaseName": name, "TableName": "t"})["Partitions"]
        answers[name].append(
            [{k: v for k, v in p.items() if k not in ("DatabaseName", "CreationTime")} for p in stored]
        )

    assert answers["directdb"] == answers["motodb"]
    assert [status for status, _, _ in answers["directdb"][:4]] == [200, 200, 400, 400]
    assert answers["directdb"][1][2]["Errors"][0]["ErrorDetail"]["ErrorCode"] == "AlreadyExistsException"
    assert len(answers["directdb"][4]) == 3
    assert direct_tracking.writes >= 4  # each batch counted as a write: the sandbox saves after it
