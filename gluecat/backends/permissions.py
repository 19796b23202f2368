"""The IAM permissions each command needs: one declared table, beside the backends that make the calls.

Each row is one IAM action, the calls that need it, when a command makes them (always, or only for
projects that use a feature), and whether it is an optional read: a denied optional read is one
warning and the command goes on. Glue's, Lake Formation's and STS's actions are named as the
operations botocore sends; S3's are the ones behind pyiceberg's and deltalake's reads and writes
of Iceberg and Delta metadata. A test records the operations really sent while plan, apply and
import run, and checks this table covers them exactly.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urlparse

Command = Literal["plan", "apply", "import"]
COMMANDS: tuple[Command, ...] = ("plan", "apply", "import")
# What a project uses, which decides what its commands call (import writes files, so it may read anything).
Feature = Literal[
    "always",
    "partitions",  # a Hive table with partition keys
    "indexes",  # partition_indexes declared
    "optimizers",  # optimizers declared
    "lake_files",  # Iceberg or Delta tables: their metadata in S3
    "lf_admins",  # data_lake_admins declared
    "lf_tags",  # lf_tags keys declared in catalog.yaml
    "lf_assignments",  # lf_tags on a database, table or column
    "lf_grants",  # grants: or tag_grants: declared
]
Scope = Literal["glue", "any", "lake_bucket", "lake_objects"]


@dataclass(frozen=True)
class Need:
    action: str
    commands: tuple[Command, ...]
    when: Feature = "always"
    scope: Scope = "glue"
    optional: bool = False  # a denied read is one warning naming it, and the command goes on
    live: bool = False  # called only when the live catalog or an option asks for it (an update, --out, ...)
    why: str = ""


PLAN_APPLY: tuple[Command, ...] = ("plan", "apply")
ALL: tuple[Command, ...] = COMMANDS
NEEDS: tuple[Need, ...] = (
    Need("glue:GetDatabases", ALL, why="list the databases"),
    Need("glue:GetTables", ALL, why="list each database's tables"),
    Need("glue:GetPartitions", PLAN_APPLY, "partitions", why="read partitions"),
    Need("glue:GetPartitions", ("import",), live=True, why="read partitions (with --partitions)"),
    Need("glue:GetPartitionIndexes", ("import",), why="read partition indexes"),
    Need("glue:GetPartitionIndexes", PLAN_APPLY, "indexes", why="read the declared partition indexes"),
    Need("glue:BatchGetTableOptimizer", ("import",), optional=True, why="read Iceberg tables' optimizers"),
    Need("glue:BatchGetTableOptimizer", PLAN_APPLY, "optimizers", why="read the declared optimizers"),
    Need("sts:GetCallerIdentity", ("import",), why="the account whose optimizers are read"),
    Need("sts:GetCallerIdentity", PLAN_APPLY, "optimizers", scope="any", why="the account of the optimizers"),
    Need("sts:GetCallerIdentity", PLAN_APPLY, scope="any", live=True, why="the account a saved plan is bound to"),
    Need("glue:GetDatabase", ("apply",), why="re-check databases after the prompt; Iceberg namespaces"),
    Need("glue:GetTable", ("apply",), why="re-check tables after the prompt; Iceberg commits"),
    Need("glue:CreateDatabase", ("apply",), why="create databases"),
    Need("glue:UpdateDatabase", ("apply",), live=True, why="update databases"),
    Need("glue:CreateTable", ("apply",), why="create tables"),
    Need("glue:UpdateTable", ("apply",), live=True, why="update tables"),
    Need("glue:DeleteTable", ("apply",), live=True, why="delete and replace tables"),
    Need("glue:BatchCreatePartition", ("apply",), "partitions", why="create partitions"),
    Need("glue:BatchUpdatePartition", ("apply",), "partitions", live=True, why="move partitions"),
    Need("glue:BatchDeletePartition", ("apply",), "partitions", live=True, why="delete partitions"),
    Need("glue:BatchGetPartition", ("apply",), "partitions", live=True, why="re-check moved partitions"),
    Need("glue:CreatePartitionIndex", ("apply",), "indexes", why="create partition indexes"),
    Need("glue:DeletePartitionIndex", ("apply",), "indexes", live=True, why="delete partition indexes"),
    Need("glue:GetTableOptimizer", ("apply",), "optimizers", live=True, why="re-check optimizers"),
    Need("glue:CreateTableOptimizer", ("apply",), "optimizers", why="create optimizers"),
    Need("glue:UpdateTableOptimizer", ("apply",), "optimizers", live=True, why="update optimizers"),
    Need("glue:DeleteTableOptimizer", ("apply",), "optimizers", live=True, why="delete optimizers"),
    Need("s3:ListBucket", PLAN_APPLY, "lake_files", "lake_bucket", why="find Iceberg metadata and Delta logs"),
    Need("s3:GetObject", PLAN_APPLY, "lake_files", "lake_objects", why="read Iceberg metadata and Delta logs"),
    # Denied on import, a table whose metadata cannot be read is imported as a registration.
    Need("s3:ListBucket", ("import",), "lake_files", "lake_bucket", optional=True, why="find Delta logs"),
    Need(
        "s3:GetObject",
        ("import",),
        "lake_files",
        "lake_objects",
        optional=True,
        why="read Iceberg metadata and Delta logs",
    ),
    Need("s3:PutObject", ("apply",), "lake_files", "lake_objects", why="write Iceberg metadata and Delta logs"),
    # Lake Formation: what the YAML declares; import reads it all, and goes on without it.
    Need("lakeformation:GetDataLakeSettings", ("import",), scope="any", optional=True, why="administrators"),
    Need("lakeformation:ListLFTags", ("import",), scope="any", optional=True, why="LF-tag keys"),
    Need("lakeformation:ListPermissions", ("import",), scope="any", optional=True, why="grants"),
    Need("lakeformation:GetResourceLFTags", ("import",), scope="any", optional=True, live=True, why="tags"),
    Need(
        "lakeformation:ListPermissions",
        PLAN_APPLY,
        scope="any",
        optional=True,
        live=True,
        why="grants a replaced table would lose",
    ),
    Need(
        "lakeformation:GetDataLakeSettings",
        PLAN_APPLY,
        scope="any",
        optional=True,
        live=True,
        why="the grants a replaced table gets back",
    ),
    Need("lakeformation:GetDataLakeSettings", PLAN_APPLY, "lf_admins", "any", why="administrators"),
    Need("lakeformation:PutDataLakeSettings", ("apply",), "lf_admins", "any", why="set administrators"),
    Need("lakeformation:ListLFTags", PLAN_APPLY, "lf_tags", "any", why="LF-tag keys"),
    Need("lakeformation:CreateLFTag", ("apply",), "lf_tags", "any", why="create LF-tag keys"),
    Need("lakeformation:UpdateLFTag", ("apply",), "lf_tags", "any", live=True, why="change LF-tag values"),
    Need("lakeformation:DeleteLFTag", ("apply",), "lf_tags", "any", live=True, why="delete LF-tag keys"),
    Need("lakeformation:GetResourceLFTags", PLAN_APPLY, "lf_assignments", "any", why="assigned LF-tags"),
    Need("lakeformation:AddLFTagsToResource", ("apply",), "lf_assignments", "any", why="assign LF-tags"),
    Need(
        "lakeformation:RemoveLFTagsFromResource", ("apply",), "lf_assignments", "any", live=True, why="unassign LF-tags"
    ),
    Need("lakeformation:ListPermissions", PLAN_APPLY, "lf_grants", "any", why="grants"),
    Need("lakeformation:GetDataLakeSettings", PLAN_APPLY, "lf_grants", "any", why="a new object's default grants"),
    Need("lakeformation:BatchGrantPermissions", ("apply",), "lf_grants", "any", why="grant"),
    Need("lakeformation:BatchRevokePermissions", ("apply",), "lf_grants", "any", why="revoke"),
)
# The reads a command goes on without: (action, command) -> why it is optional.
OPTIONAL = {(n.action, c) for n in NEEDS if n.optional for c in n.commands}


@dataclass(frozen=True)
class ProjectScope:
    """What a project uses and where: the features its YAML declares and the ARNs it touches."""

    region: str
    account: str  # catalog_id, or `*`
    databases: tuple[str, ...] = ()
    tables: tuple[tuple[str, str], ...] = ()
    lake_locations: tuple[str, ...] = ()  # s3:// prefixes of Iceberg and Delta tables
    features: frozenset[str] = field(default_factory=frozenset)
    every_table: bool = False  # prune: true (or import): tables the YAML does not list too

    def glue_arns(self) -> list[str]:
        base = f"arn:aws:glue:{self.region}:{self.account}"
        arns = [f"{base}:catalog"]
        if not self.databases:  # import: whatever the catalog holds
            return [*arns, f"{base}:database/*", f"{base}:table/*/*"]
        arns += [f"{base}:database/{name}" for name in self.databases]
        if self.every_table:
            return arns + [f"{base}:table/{name}/*" for name in self.databases]
        return arns + [f"{base}:table/{database}/{table}" for database, table in self.tables]

    def lake_arns(self, objects: bool) -> list[str]:
        found = []
        locations = [loc.rstrip("/") + "/" for loc in self.lake_locations or ("s3://*",)]
        for location in [loc for loc in locations if not any(loc.startswith(o) and loc != o for o in locations)]:
            parsed = urlparse(location)
            prefix = parsed.path.strip("/")
            if objects:
                found.append(f"arn:aws:s3:::{parsed.netloc}/{prefix + '/' if prefix else ''}*")
            else:
                found.append(f"arn:aws:s3:::{parsed.netloc}")
        return sorted(set(found))


def needed(command: Command, features: Iterable[str]) -> list[Need]:
    """The rows a command needs for a project using `features` (each action once)."""
    have = {"always", *features}
    rows: dict[str, Need] = {}
    for need in NEEDS:
        if command in need.commands and need.when in have:
            kept = rows.get(need.action)
            rows[need.action] = need if kept is None or (kept.optional and not need.optional) else kept
    return sorted(rows.values(), key=lambda n: n.action)


def policy(scope: ProjectScope, commands: Iterable[Command]) -> dict[str, object]:
    """An IAM policy document: Glue actions on the project's catalog, databases and tables; Lake
    Formation and STS actions (they take no resource-level scope) on `*`; S3 on the lake prefixes."""
    by_resources: dict[str, set[str]] = {}
    for command in commands:
        features = scope.features if command != "import" else scope.features | {"lake_files"}
        for need in needed(command, features):
            by_resources.setdefault(_scope_of(need), set()).add(need.action)
    statements = []
    names = {"glue": "GlueCatalog", "any": "LakeFormationAndIdentity", "lake_bucket": "LakeBuckets",
             "lake_objects": "LakeObjects"}  # fmt: skip
    for kind in ("glue", "any", "lake_bucket", "lake_objects"):
        if kind not in by_resources:
            continue
        resources: list[str] = (
            scope.glue_arns() if kind == "glue" else ["*"] if kind == "any" else scope.lake_arns(kind == "lake_objects")
        )
        statements.append(
            {"Sid": names[kind], "Effect": "Allow", "Action": sorted(by_resources[kind]), "Resource": resources}
        )
    return {"Version": "2012-10-17", "Statement": statements}


def _scope_of(need: Need) -> str:
    if need.action.startswith(("lakeformation:", "sts:")):
        return "any"
    return need.scope


def policy_text(scope: ProjectScope, commands: Iterable[Command]) -> str:
    return json.dumps(policy(scope, commands), indent=2)
