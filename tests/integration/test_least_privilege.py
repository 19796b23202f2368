"""Least privilege, proven against the local Glue with IAM checked: a user holding exactly the policy
`gluecat iam-policy` prints for the example runs plan, apply and import; without any one of its
actions, the command that needs it fails in one line naming that action (exit 1), or, for an optional
read, warns in one line naming it and goes on (exit 0).

The local Glue checks IAM actions, not resources, as moto does (gluecat/sandbox/iam.py): the test
proves every action printed is needed and enough, not that its Resource scoping is right. S3 is
checked too, including the requests pyiceberg (through pyarrow) and deltalake (delta-rs) sign
themselves. `sts:GetCallerIdentity` cannot be denied, in AWS or here, so it is not removed.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import boto3
import pytest

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import copy_example, gluecat

USER = "ci"
BUCKET = "example-lake"


@dataclass
class Lab:
    """The local Glue, the example project pointed at it, and an IAM user to run commands as."""

    server: LocalGlue
    root: Path
    imported: Path
    policy: dict[str, Any]
    key: dict[str, str] = field(default_factory=dict)

    def client(self, service: str) -> Any:
        return boto3.client(service, endpoint_url=self.server.endpoint_url, region_name="us-east-1")

    def arrange(self, applied: bool, without: str | None = None) -> None:
        """An empty (or applied) catalog, and the user holding the policy less `without`."""
        self.server.check_iam(float("inf"))
        self.server.reset()
        shutil.rmtree(self.imported)
        self.imported.mkdir()
        (self.imported / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {self.server.endpoint_url}\n")
        self.client("s3").create_bucket(Bucket=BUCKET)
        if applied:
            result = gluecat("apply", str(self.root), "--auto-approve")
            assert result.exit_code == 0, result.output
        iam = self.client("iam")
        iam.create_user(UserName=USER)
        iam.put_user_policy(UserName=USER, PolicyName="gluecat", PolicyDocument=json.dumps(less(self.policy, without)))
        self.key = iam.create_access_key(UserName=USER)["AccessKey"]

    @contextmanager
    def as_user(self) -> Iterator[None]:
        saved = {k: os.environ[k] for k in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")}
        os.environ["AWS_ACCESS_KEY_ID"] = self.key["AccessKeyId"]
        os.environ["AWS_SECRET_ACCESS_KEY"] = self.key["SecretAccessKey"]
        self.server.check_iam(0)
        try:
            yield
        finally:
            self.server.check_iam(float("inf"))
            os.environ.update(saved)

    def run(self, command: str) -> Any:
        with self.as_user():
            if command == "import":
                return gluecat("import", str(self.imported))
            if command == "apply":
                return gluecat("apply", str(self.root), "--auto-approve")
            return gluecat("plan", str(self.root))


def less(policy: dict[str, Any], action: str | None) -> dict[str, Any]:
    statements = [{**s, "Action": [a for a in s["Action"] if a != action]} for s in policy["Statement"]]
    return {**policy, "Statement": [s for s in statements if s["Action"]]}


@pytest.fixture(scope="module")
def lab(glue_server: LocalGlue, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    base = tmp_path_factory.mktemp("least-privilege")
    root = copy_example(base / "example")
    catalog = (root / "catalog.yaml").read_text().replace("sandbox: true", f"endpoint_url: {glue_server.endpoint_url}")
    (root / "catalog.yaml").write_text(catalog)
    imported = base / "imported"
    imported.mkdir()
    printed = gluecat("iam-policy", str(root))
    assert printed.exit_code == 0, printed.output
    yield Lab(glue_server, root, imported, json.loads(printed.stdout))
    glue_server.check_iam(float("inf"))
    glue_server.reset()


def test_the_printed_policy_is_enough_for_plan_apply_and_import(lab: Lab) -> None:
    lab.arrange(applied=False)
    for command in ("apply", "plan", "import"):
        result = lab.run(command)
        assert result.exit_code == 0, (command, result.output)
    with lab.as_user():  # the checks are on: what the policy does not list is refused
        glue = boto3.client("glue", endpoint_url=lab.server.endpoint_url, region_name="us-east-1", **user_keys(lab))
        with pytest.raises(glue.exceptions.AccessDeniedException, match="glue:DeleteDatabase"):
            glue.delete_database(Name="sales")


def user_keys(lab: Lab) -> dict[str, str]:
    return {"aws_access_key_id": lab.key["AccessKeyId"], "aws_secret_access_key": lab.key["SecretAccessKey"]}
