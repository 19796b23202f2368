"""Least privilege, proven against the local Glue with IAM checked: a user holding exactly the policy
`gluecat iam-policy` prints for the example runs plan, apply and import; without any one of its
actions, the command that needs it fails in one line naming that action (exit 1), or, for an optional
read, warns in one line naming it and goes on (exit 0).

The local Glue checks IAM actions, not resources, as moto does (gluecat/sandbox/iam.py): the test
proves every action printed is needed and enough, not that its Resource scoping is right. S3 is
checked too, including the requests pyiceberg (through pyarrow) and deltalake (delta-rs) sign
themselves. `sts:GetCallerIdentity` cannot be denied, in AWS or here, so it is not removed.

Each action is removed in turn and every scenario whose command needs it runs: apply on an empty
catalog (creates), plan and import of the applied example, and apply of an edited example (updates,
a moved and deleted partitions, a replaced table). The example declares no Lake Formation keys and no
optimizers: their reads are optional there (import's LF reads, the optimizer read, the reads for a
replaced table's grants), and so are import's S3 reads (the table is imported as a registration).
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

from gluecat.backends.permissions import OPTIONAL, Command, needed, policy
from gluecat.cli.iam_policy import project_scope
from gluecat.project.load import load_project
from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import EXAMPLE, copy_example, gluecat

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

    def arrange(self, applied: bool, without: str | None = None, edited: bool = False, tagged: bool = False) -> None:
        """An empty (or applied, perhaps then edited or LF-tagged) catalog, and the user holding the
        policy less `without`."""
        self.server.check_iam(float("inf"))
        self.server.reset()
        shutil.rmtree(self.imported)
        self.imported.mkdir()
        (self.imported / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {self.server.endpoint_url}\n")
        self.client("s3").create_bucket(Bucket=BUCKET)
        self.edit(False)
        if applied:
            result = gluecat("apply", str(self.root), "--auto-approve")
            assert result.exit_code == 0, result.output
        self.edit(edited)
        if tagged:
            lakeformation = self.client("lakeformation")
            lakeformation.create_lf_tag(TagKey="domain", TagValues=["sales"])
            tag = {"TagKey": "domain", "TagValues": ["sales"]}
            lakeformation.add_lf_tags_to_resource(Resource={"Database": {"Name": "sales"}}, LFTags=[tag])
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
                return gluecat("apply", str(self.root), "--auto-approve", "--allow-destroy")
            return gluecat("plan", str(self.root))

    def edit(self, edited: bool) -> None:
        """The example as committed, or with EDITS made (each a change only apply's updates make)."""
        for relative, (before, after) in EDITS.items():
            path = self.root / relative
            text = path.read_text()
            path.write_text(text.replace(before, after) if edited else text.replace(after, before))


# file -> (text, replaced by): an updated database and table, a moved partition, fewer partitions,
# and a table replaced (its partition keys change).
EDITS = {
    "catalog.yaml": ("warehouse:", "prune: true\nwarehouse:"),
    "sales/database.yaml": ("from the web shop", "from the web shop and the app"),
    "sales/tables/customers.yaml": ("exported nightly", "exported hourly"),
    "sales/tables/orders.yaml": ("orders-archive/2023-12-31/", "orders-archive-2/2023-12-31/"),
    "sales/tables/refunds.yaml": ("to: 2024-06-01", "to: 2024-05-01"),
    "web/tables/sessions.yaml": ("storage: avro\n", "storage: avro\npartition_keys:\n  - {name: dt, type: string}\n"),
}
# Scenario -> (the catalog before: empty, applied or applied then edited; the command run).
SCENARIOS: dict[str, tuple[str, Command]] = {
    "create": ("empty", "apply"),
    "plan": ("applied", "plan"),
    "import": ("applied", "import"),
    "update": ("edited", "apply"),
    "import-tagged": ("tagged", "import"),
}
# Actions the table calls live (made only when the live catalog asks): the scenario that makes them.
LIVE = {
    "glue:UpdateDatabase": "update",
    "glue:UpdateTable": "update",
    "glue:DeleteTable": "update",
    "glue:BatchUpdatePartition": "update",
    "glue:BatchDeletePartition": "update",
    "glue:BatchGetPartition": "update",
    "lakeformation:ListPermissions": "update",
    "lakeformation:GetDataLakeSettings": "update",
    "lakeformation:GetResourceLFTags": "import-tagged",
}
# What apply reads only once the catalog holds something (an empty one has no tables to list).
READ_ONLY_WHEN_LIVE = {"glue:GetTables", "glue:GetPartitions"}
UNDENIABLE = {"sts:GetCallerIdentity": "AWS answers it whatever a policy says"}


def example_policy() -> dict[str, Any]:
    return policy(project_scope(load_project(EXAMPLE)), ("plan", "apply", "import"))


def scenarios_needing(action: str) -> list[str]:
    """The scenarios whose command calls `action` on the example, from the permissions table: apply's
    writes on the empty catalog, its reads of tables and partitions and its live calls on the edited one."""
    scope = project_scope(load_project(EXAMPLE))
    found = []
    for name, (_, command) in SCENARIOS.items():
        features = scope.features | ({"lake_files"} if command == "import" else set())
        rows = [row for row in needed(command, features) if row.action == action]
        if not rows:
            continue
        if rows[0].live:
            found += [name] if LIVE.get(action) == name else []
        elif command == "apply":
            found += [name] if (name == "update") == (action in READ_ONLY_WHEN_LIVE) else []
        elif name in ("plan", "import"):
            found.append(name)
    return found


ACTIONS = sorted({a for s in example_policy()["Statement"] for a in s["Action"]} - set(UNDENIABLE))


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
    for scenario, (before, command) in SCENARIOS.items():
        lab.arrange(applied=before != "empty", edited=before == "edited", tagged=before == "tagged")
        result = lab.run(command)
        assert result.exit_code == 0, (scenario, result.output)
        assert "warning" not in result.output, (scenario, result.output)
    with lab.as_user():  # the checks are on: what the policy does not list is refused
        glue = boto3.client("glue", endpoint_url=lab.server.endpoint_url, region_name="us-east-1", **user_keys(lab))
        with pytest.raises(glue.exceptions.AccessDeniedException, match="glue:DeleteDatabase"):
            glue.delete_database(Name="sales")


def user_keys(lab: Lab) -> dict[str, str]:
    return {"aws_access_key_id": lab.key["AccessKeyId"], "aws_secret_access_key": lab.key["SecretAccessKey"]}


def test_every_action_printed_is_needed_by_a_scenario_or_cannot_be_denied() -> None:
    printed = {a for s in example_policy()["Statement"] for a in s["Action"]}
    assert printed - set(UNDENIABLE) == set(ACTIONS)
    assert all(scenarios_needing(action) for action in ACTIONS), [a for a in ACTIONS if not scenarios_needing(a)]


@pytest.mark.parametrize("action", ACTIONS)
def test_without_one_action_the_command_needing_it_says_so_in_one_line(lab: Lab, action: str) -> None:
    for scenario in scenarios_needing(action):
        before, command = SCENARIOS[scenario]
        lab.arrange(applied=before != "empty", without=action, edited=before == "edited", tagged=before == "tagged")
        result = lab.run(command)
        naming = [line for line in result.output.splitlines() if action in line]
        assert len(naming) == 1, (scenario, result.output)
        if (action, command) in OPTIONAL:
            assert result.exit_code == 0, (scenario, result.output)
            assert naming[0].startswith(("warning", "note: warning")), (scenario, naming)
        else:
            assert result.exit_code == 1, (scenario, result.output)
            assert f"lack {action};" in naming[0], (scenario, naming)


def test_import_without_the_optimizer_read_warns_once_and_exits_0(lab: Lab) -> None:
    lab.arrange(applied=True, without="glue:BatchGetTableOptimizer")
    result = lab.run("import")
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if line.startswith("warning")]
    assert warnings == [
        "warning table optimizers were not imported (the files leave them unmanaged): permission denied: the"
        " credentials lack glue:BatchGetTableOptimizer; grant it (`gluecat iam-policy` prints what each command needs)"
    ]
    assert (lab.imported / "lake" / "tables" / "events.yaml").is_file()
