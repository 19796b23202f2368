"""Least privilege, proven against the local Glue with IAM checked: a user holding exactly the policy
`gluecat iam-policy` prints for the example runs plan, apply and import; without any one of its
actions, the command that needs it fails in one line naming that action (exit 1), or, for an optional
read, warns in one line naming it and goes on (exit 0).

The local Glue checks IAM actions, not resources, as moto does (gluecat/sandbox/iam.py): the test
proves every action printed is needed and enough, not that its Resource scoping is right. S3 is
checked too, including the requests pyiceberg (through pyarrow) and deltalake (delta-rs) sign
themselves. `sts:GetCallerIdentity` cannot be denied, in AWS or here, so it is not removed.

Two projects: the repository's example (Hive, Iceberg and Delta tables; no Lake Formation keys, no
optimizers, no partition indexes) and the example governed (Lake Formation administrators, LF-tags,
tag assignments and grants, a partition index, Iceberg optimizers). Each printed action is removed in
turn and every scenario whose command needs it (per the permissions table) runs: apply on an empty
catalog (creates), plan and import of the applied project, import of an LF-tagged catalog, and apply
of an edited project (updates, a moved and deleted partitions, a replaced table, an LF-tag value
added, a key, an assignment and a grant removed, optimizers changed and deleted, an index renamed).
Optional reads: import's optimizer, Lake Formation and S3 reads (a table whose metadata cannot be
read is imported as a registration), and, where the YAML declares no Lake Formation key, the reads
for a replaced table's grants.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import boto3
import pytest

from gluecat.backends.permissions import Command, ProjectScope, needed, policy
from gluecat.backends.policy import project_scope
from gluecat.project.load import load_project
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
    governed: bool = False
    key: dict[str, str] = field(default_factory=dict)
    written: dict[str, str] = field(default_factory=dict)  # the edited files as the project has them

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
        if tagged and not self.governed:  # the governed project tags its own
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
                return gluecat("apply", str(self.root), "--auto-approve", "--allow-destroy", "--allow-revoke")
            return gluecat("plan", str(self.root))

    def edit(self, edited: bool) -> None:
        """The project as written, or with EDITS made (each a change only apply's updates make)."""
        edits = [*EDITS.items(), *(GOVERNED_EDITS.items() if self.governed else ())]
        if not self.written:
            self.written = {relative: (self.root / relative).read_text() for relative, _ in edits}
        texts = dict(self.written)
        for relative, (before, after) in edits if edited else ():
            assert before in texts[relative], (relative, before)
            texts[relative] = texts[relative].replace(before, after)
        for relative, text in texts.items():
            (self.root / relative).write_text(text)


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
ETL = "arn:aws:iam::123456789012:role/etl"
ANALYST = "arn:aws:iam::123456789012:role/analyst"
OPTIMIZER_ROLE = "arn:aws:iam::123456789012:role/glue-optimizer"
# The example with Lake Formation keys, a partition index and optimizers: file -> text appended.
GOVERNED = {
    "catalog.yaml": f"""\
data_lake_admins: [arn:aws:iam::123456789012:user/{USER}]
lf_tags:
  domain: [sales, web]
  tier: [gold, restricted]
  stage: [dev]
tag_grants:
  - {{principal: {ANALYST}, permissions: [SELECT, DESCRIBE], resource: table, expression: {{tier: [gold]}}}}
""",
    "sales/database.yaml": f"""\
lf_tags: {{domain: sales}}
grants:
  - {{principal: {ETL}, permissions: [CREATE_TABLE, DESCRIBE]}}
""",
    "sales/tables/customers.yaml": f"""\
lf_tags: {{tier: gold}}
grants:
  - {{principal: {ETL}, permissions: [ALL]}}
  - {{principal: {ANALYST}, permissions: [SELECT], columns: [customer_id]}}
""",
    "sales/tables/orders.yaml": "partition_indexes:\n  - {name: by_dt, keys: [dt]}\n",
    "lake/tables/events.yaml": f"""\
optimizers:
  role_arn: {OPTIMIZER_ROLE}
  compaction: {{strategy: sort, min_input_files: 50}}
  retention: {{snapshot_retention_days: 7, snapshots_to_retain: 3}}
  orphan_file_deletion: {{retention_days: 5}}
""",
}
# Edits only the governed project's updates make: a tag value added, a tag key and an assignment
# removed, a grant revoked, an optimizer changed and one deleted, the partition index renamed.
GOVERNED_EDITS = {
    "catalog.yaml": (
        "domain: [sales, web]\n  tier: [gold, restricted]\n  stage: [dev]\n",
        "domain: [sales, web, app]\n  tier: [gold, restricted]\n",
    ),
    "sales/database.yaml": ("lf_tags: {domain: sales}\n", "lf_tags: {}\n"),
    "sales/tables/customers.yaml": (
        f"  - {{principal: {ANALYST}, permissions: [SELECT], columns: [customer_id]}}\n",
        "",
    ),
    "sales/tables/orders.yaml": ("{name: by_dt, keys: [dt]}", "{name: by_day, keys: [dt]}"),
    "lake/tables/events.yaml": (
        "min_input_files: 50}\n  retention: {snapshot_retention_days: 7, snapshots_to_retain: 3}\n"
        "  orphan_file_deletion: {retention_days: 5}\n",
        "min_input_files: 60}\n  retention: {snapshot_retention_days: 7, snapshots_to_retain: 3}\n",
    ),
}


def governed_example(root: Path) -> Path:
    copy_example(root)
    for relative, text in GOVERNED.items():
        path = root / relative
        path.write_text(path.read_text() + text)
    return root


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
    "lakeformation:UpdateLFTag": "update",
    "lakeformation:DeleteLFTag": "update",
    "lakeformation:RemoveLFTagsFromResource": "update",
    "glue:DeletePartitionIndex": "update",
    "glue:GetTableOptimizer": "update",
    "glue:UpdateTableOptimizer": "update",
    "glue:DeleteTableOptimizer": "update",
}
# What apply calls only once the catalog holds something (an empty one has no tables to list).
ONLY_ON_A_LIVE_CATALOG = {
    "glue:GetTables",
    "glue:GetPartitions",
    "glue:GetPartitionIndexes",
    "glue:CreatePartitionIndex",  # a new table's indexes come with its CreateTable
    "glue:BatchGetTableOptimizer",
    "lakeformation:BatchRevokePermissions",
}
UNDENIABLE = {"sts:GetCallerIdentity": "AWS answers it whatever a policy says"}


PROJECTS = {"example": copy_example, "governed": governed_example}


@functools.cache
def scope_of(project: str) -> ProjectScope:
    with tempfile.TemporaryDirectory() as folder:
        return project_scope(load_project(PROJECTS[project](Path(folder) / project)))


def printed_actions(project: str) -> set[str]:
    document = policy(scope_of(project), ("plan", "apply", "import"))
    return {a for s in document["Statement"] for a in s["Action"]}  # type: ignore[union-attr]


def scenarios_needing(project: str, action: str) -> list[str]:
    """The scenarios whose command calls `action` on the project, from the permissions table: apply's
    writes on the empty catalog, its reads of what is there and its live calls on the edited one."""
    found = []
    for name, (_, command) in SCENARIOS.items():
        features = scope_of(project).features | ({"lake_files"} if command == "import" else set())
        rows = [row for row in needed(command, features) if row.action == action]
        if not rows:
            continue
        if rows[0].live:
            found += [name] if LIVE.get(action) == name else []
        elif command == "apply":
            found += [name] if (name == "update") == (action in ONLY_ON_A_LIVE_CATALOG) else []
        elif name in ("plan", "import"):
            found.append(name)
    return found


def optional(project: str, command: Command, action: str) -> bool:
    features = scope_of(project).features | ({"lake_files"} if command == "import" else set())
    return any(row.optional for row in needed(command, features) if row.action == action)


CASES = [(p, a) for p in PROJECTS for a in sorted(printed_actions(p) - set(UNDENIABLE))]


def less(policy: dict[str, Any], action: str | None) -> dict[str, Any]:
    statements = [{**s, "Action": [a for a in s["Action"] if a != action]} for s in policy["Statement"]]
    return {**policy, "Statement": [s for s in statements if s["Action"]]}


@pytest.fixture(scope="module")
def labs(glue_server: LocalGlue, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str], Lab]]:
    """Each project's lab, made when a test first asks for it; they share the local Glue."""
    made: dict[str, Lab] = {}

    def lab_of(project: str) -> Lab:
        if project not in made:
            base = tmp_path_factory.mktemp(project)
            root = PROJECTS[project](base / "project")
            catalog = (root / "catalog.yaml").read_text()
            (root / "catalog.yaml").write_text(
                catalog.replace("sandbox: true", f"endpoint_url: {glue_server.endpoint_url}")
            )
            (base / "imported").mkdir()
            printed = gluecat("iam-policy", str(root))
            assert printed.exit_code == 0, printed.output
            made[project] = Lab(glue_server, root, base / "imported", json.loads(printed.stdout), project == "governed")
        return made[project]

    yield lab_of
    glue_server.check_iam(float("inf"))
    glue_server.reset()


@pytest.fixture
def lab(labs: Callable[[str], Lab]) -> Lab:
    return labs("example")


@pytest.mark.parametrize("project", PROJECTS)
def test_the_printed_policy_is_enough_for_plan_apply_and_import(labs: Callable[[str], Lab], project: str) -> None:
    lab = labs(project)
    assert {a for s in lab.policy["Statement"] for a in s["Action"]} == printed_actions(project)
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
    unexercised = [(project, action) for project, action in CASES if not scenarios_needing(project, action)]
    assert unexercised == []


@pytest.mark.parametrize(("project", "action"), CASES)
def test_without_one_action_the_command_needing_it_says_so_in_one_line(
    labs: Callable[[str], Lab], project: str, action: str
) -> None:
    lab = labs(project)
    for scenario in scenarios_needing(project, action):
        before, command = SCENARIOS[scenario]
        lab.arrange(applied=before != "empty", without=action, edited=before == "edited", tagged=before == "tagged")
        result = lab.run(command)
        naming = [line for line in result.output.splitlines() if action in line]
        assert len(naming) == 1, (scenario, result.output)
        if optional(project, command, action):
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


def test_a_local_glue_started_with_initial_no_auth_action_count_checks_after_that_many_calls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("INITIAL_NO_AUTH_ACTION_COUNT", "4")
    with LocalGlue() as server:
        iam = boto3.client("iam", endpoint_url=server.endpoint_url, region_name="us-east-1")
        iam.create_user(UserName=USER)
        document = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "glue:Get*", "Resource": "*"}]}
        iam.put_user_policy(UserName=USER, PolicyName="reads", PolicyDocument=json.dumps(document))
        key = iam.create_access_key(UserName=USER)["AccessKey"]
        setup = boto3.client("glue", endpoint_url=server.endpoint_url, region_name="us-east-1")
        setup.create_database(DatabaseInput={"Name": "sales"})  # the fourth call: still free
        keys = {"aws_access_key_id": key["AccessKeyId"], "aws_secret_access_key": key["SecretAccessKey"]}
        glue = boto3.client("glue", endpoint_url=server.endpoint_url, region_name="us-east-1", **keys)
        assert [d["Name"] for d in glue.get_databases()["DatabaseList"]] == ["sales"]
        with pytest.raises(glue.exceptions.AccessDeniedException, match="glue:DeleteDatabase"):
            glue.delete_database(Name="sales")
        with pytest.raises(setup.exceptions.ClientError, match="UnrecognizedClientException"):
            setup.get_databases()  # a key the local IAM does not know
        server.check_iam(float("inf"))
        setup.delete_database(Name="sales")
