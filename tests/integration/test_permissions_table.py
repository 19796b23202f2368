"""The declared table of IAM actions covers exactly the calls plan, apply and import really make:
every operation botocore sends while they run on the example is in the command's policy, and every
action the policy always needs for the example is sent."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import botocore.client
import pytest

from gluecat.backends.permissions import COMMANDS, needed
from gluecat.backends.policy import project_scope
from gluecat.project.load import load_project
from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import copy_example, gluecat

# S3 operations botocore sends, by the IAM action that allows them.
S3_ACTIONS = {"ListObjectsV2": "ListBucket", "ListObjects": "ListBucket", "HeadObject": "GetObject"}


class Sent:
    """Every operation botocore sends, as an IAM action, under the command that sent it."""

    def __init__(self) -> None:
        self.by_command: dict[str, set[str]] = defaultdict(set)
        self.running = "setup"

    def run(self, command: str, *args: str) -> None:
        self.running = command
        result = gluecat(command, *args)
        self.running = "setup"
        assert result.exit_code == 0, result.output


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[Sent]:
    recorder = Sent()
    send = botocore.client.BaseClient._make_api_call

    def recorded(client: Any, operation: str, params: Any) -> Any:
        service = client.meta.service_model.signing_name
        action = S3_ACTIONS.get(operation, operation) if service == "s3" else operation
        recorder.by_command[recorder.running].add(f"{service}:{action}")
        return send(client, operation, params)

    monkeypatch.setattr(botocore.client.BaseClient, "_make_api_call", recorded)
    yield recorder


def test_the_action_table_covers_exactly_what_plan_apply_and_import_send(
    tmp_path: Path, server: LocalGlue, sent: Sent
) -> None:
    root = copy_example(tmp_path / "example")
    catalog = (root / "catalog.yaml").read_text().replace("sandbox: true", f"endpoint_url: {server.endpoint_url}")
    (root / "catalog.yaml").write_text(catalog)
    boto3.client("s3", endpoint_url=server.endpoint_url, region_name="us-east-1").create_bucket(Bucket="example-lake")
    sent.run("plan", str(root))  # an empty catalog
    sent.run("apply", str(root), "--auto-approve")  # creates everything
    sent.run("apply", str(root), "--auto-approve")  # reads everything, writes nothing
    sent.run("plan", str(root))
    imported = tmp_path / "imported"
    imported.mkdir()
    (imported / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
    sent.run("import", str(imported))

    scope = project_scope(load_project(root))
    for command in COMMANDS:
        features = scope.features | ({"lake_files"} if command == "import" else set())
        rows = needed(command, features)
        allowed = {row.action for row in rows}
        assert sent.by_command[command] <= allowed, (command, sorted(sent.by_command[command] - allowed))
        always = {row.action for row in rows if not row.live and not row.action.startswith("s3:")}
        assert always <= sent.by_command[command], (command, sorted(always - sent.by_command[command]))


def test_iam_policy_prints_the_example_scoped_to_its_catalog(tmp_path: Path) -> None:
    root = copy_example(tmp_path / "example")
    (root / "catalog.yaml").write_text((root / "catalog.yaml").read_text() + "catalog_id: '123456789012'\n")
    printed = gluecat("iam-policy", str(root), "--command", "plan")
    assert printed.exit_code == 0, printed.output
    document = json.loads(printed.stdout)
    (glue,) = [s for s in document["Statement"] if s["Sid"] == "GlueCatalog"]
    assert glue["Action"] == ["glue:GetDatabases", "glue:GetPartitions", "glue:GetTables"]
    assert "arn:aws:glue:us-east-1:123456789012:catalog" in glue["Resource"]
    assert "arn:aws:glue:us-east-1:123456789012:table/sales/orders" in glue["Resource"]
    assert not any(r.endswith("*") for r in glue["Resource"])
    every = gluecat("iam-policy", str(root))
    actions = {a for s in json.loads(every.stdout)["Statement"] for a in s["Action"]}
    assert {"glue:CreateTable", "s3:PutObject", "glue:BatchGetTableOptimizer"} <= actions
