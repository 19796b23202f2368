"""The permissions page, from the table `gluecat iam-policy` prints policies from
(`gluecat.backends.permissions.NEEDS`): written by `python docs/gen_reference.py` with the other
generated pages, and checked by the same test."""

from __future__ import annotations

from gluecat.backends.permissions import COMMANDS, NEEDS

FEATURES = {
    "always": "always",
    "partitions": "a Hive table has partition keys",
    "indexes": "`partition_indexes` declared",
    "optimizers": "`optimizers` declared",
    "lake_files": "Iceberg or Delta tables (their metadata in S3)",
    "lf_admins": "`data_lake_admins` declared",
    "lf_tags": "`lf_tags` keys declared in catalog.yaml",
    "lf_assignments": "`lf_tags` on a database, table or column",
    "lf_grants": "`grants` or `tag_grants` declared",
}
SCOPES = {
    "glue": "the catalog, its databases and tables",
    "any": "`*` (no resource-level scoping)",
    "lake_bucket": "the lake buckets",
    "lake_objects": "objects under the lake prefixes",
}


def scope_of(action: str, scope: str) -> str:
    return SCOPES["any"] if action.startswith(("lakeformation:", "sts:")) else SCOPES[scope]


def rows(command: str) -> list[str]:
    merged: dict[tuple[str, str], dict[str, object]] = {}
    for need in NEEDS:
        if command not in need.commands:
            continue
        key = (need.action, need.when)
        row = merged.setdefault(key, {"optional": need.optional, "live": need.live, "why": [], "scope": need.scope})
        row["optional"] = bool(row["optional"]) and need.optional
        row["live"] = bool(row["live"]) and need.live
        if need.why and need.why not in row["why"]:  # type: ignore[operator]
            row["why"].append(need.why)  # type: ignore[union-attr]
    lines = [
        "| Action | Needed when | Resource | Only if the live catalog asks | Optional | What for |",
        "|---|---|---|---|---|---|",
    ]
    order = list(FEATURES)
    for (action, when), row in sorted(merged.items(), key=lambda kv: (order.index(kv[0][1]), kv[0][0])):
        lines.append(
            f"| `{action}` | {FEATURES[when]} | {scope_of(action, str(row['scope']))} | "
            f"{'yes' if row['live'] else ''} | {'yes' if row['optional'] else ''} | {'; '.join(row['why'])} |"  # type: ignore[arg-type]
        )
    return lines


def permissions_page(generated: str) -> str:
    out: list[str] = [generated, ""]
    add = out.append
    add("# Permissions: what each gluecat command needs\n")
    add(
        "This page is generated from the table gluecat itself uses (`gluecat.backends.permissions.NEEDS`),\n"
        "the same table `gluecat iam-policy` prints policies from, so the two cannot disagree.\n"
    )
    add("## The short version: let gluecat print the policy\n")
    add(
        "```sh\n"
        "gluecat iam-policy path/to/project                    # plan, apply and import\n"
        "gluecat iam-policy path/to/project --command plan     # a read-only CI job\n"
        "gluecat iam-policy path/to/project --command plan --command apply\n"
        "gluecat iam-policy path/to/project --env prod         # the prod environment's region and catalog\n"
        "```\n"
    )
    add(
        "It prints an IAM policy document (JSON) holding only the actions the project's commands can call,\n"
        "given what its YAML declares:\n\n"
        "- **Glue** actions scoped to the project's catalog ARN, its databases and its tables\n"
        "  (`arn:aws:glue:REGION:ACCOUNT:catalog`, `...:database/NAME`, `...:table/DB/NAME`). With\n"
        "  `prune: true` every table of each database (`table/DB/*`), because prune deletes tables the YAML\n"
        "  does not list. For `import`, every database and table: it reads whatever the catalog holds.\n"
        "  The account is `catalog_id` from catalog.yaml; without it, `*`. Region: `region`, or `*`.\n"
        "- **Lake Formation** and **STS** actions on `*`: they take no resource-level scope in IAM.\n"
        "- **S3** actions for Iceberg metadata and Delta logs: `s3:ListBucket` on the buckets and\n"
        "  `s3:GetObject`/`s3:PutObject` on the tables' location prefixes (a table's `location`, else its\n"
        "  database's, else `warehouse`). Projects without Iceberg or Delta tables get no S3 statement\n"
        "  for plan and apply. gluecat never reads or writes data files: only table metadata.\n"
    )
    add(
        "Attach it to the role your CI assumes (or a user). Review it like code: it changes when the\n"
        "project gains a feature (partition indexes, optimizers, Lake Formation keys, Iceberg or Delta\n"
        "tables), so regenerate it in the same change. The printed policy includes the optional reads\n"
        "below; drop them if you want the command to go on without them.\n"
    )
    add("## When a permission is missing\n")
    add(
        "- **A required action** denied: the command stops with one line naming it and exits 1, e.g.\n\n"
        "  ```text\n"
        "  error: permission denied: the credentials lack glue:GetTables; grant it (`gluecat iam-policy`"
        " prints what each command needs)\n"
        "  ```\n\n"
        "  `apply` stops sending further calls at the first refusal (the rest would be refused too), prints\n"
        "  one such line per missing action, then what it had done (`Stopped: a permission is missing (3\n"
        "  databases created); grant it, then re-run apply.`). Re-running apply once the action is granted\n"
        "  converges: apply only ever makes the changes still missing. `import` lists the tables a missing\n"
        "  permission kept out on one line, writes the others, and exits 1.\n"
        "- **An optional read** denied: one warning naming the permission, and the command goes on (exit 0):\n"
        "  - `import` without `glue:BatchGetTableOptimizer`: table optimizers are not imported, the files\n"
        "    leave `optimizers` out, so gluecat leaves the optimizers alone.\n"
        "  - `import` without a Lake Formation read (`lakeformation:GetDataLakeSettings`, `ListLFTags`,\n"
        "    `ListPermissions`, `GetResourceLFTags`): Lake Formation is not imported; the files carry no\n"
        "    LF keys, so plan and apply leave Lake Formation alone.\n"
        "  - `import` without `s3:GetObject` or `s3:ListBucket` on the lake: the Iceberg and Delta tables it\n"
        "    cannot read are imported as registrations (one warning listing them).\n"
        "  - `plan`/`apply` of a project declaring no Lake Formation keys, when a table is replaced: gluecat\n"
        "    reads the grants the replaced table would lose; denied, it warns that they are not known and\n"
        "    plans on.\n"
        "  Once the YAML declares a Lake Formation key or `optimizers`, those reads are required for plan\n"
        "  and apply (gluecat must know the live state it manages).\n"
        "- Errors from the libraries gluecat drives (pyiceberg and pyarrow for Iceberg, deltalake for\n"
        "  Delta) name the IAM action too (`s3:GetObject` for a HEAD or GET, `s3:PutObject` for a PUT or\n"
        "  multipart upload, `s3:ListBucket` for a listing), not the library's own words.\n"
        "- `sts:GetCallerIdentity` needs no permission in AWS (it cannot be denied); it is listed so the\n"
        "  policy reads complete.\n"
    )
    add("## Lake Formation permissions\n")
    add(
        "IAM allows the Lake Formation API calls; Lake Formation decides what they may change:\n\n"
        "- `data_lake_admins` (PutDataLakeSettings) can only be set by a data lake administrator (or an\n"
        "  IAM principal allowed to call it when no administrator is set).\n"
        "- Creating, changing and deleting LF-tags (`lf_tags` keys) needs a data lake administrator or an\n"
        "  LF-tag creator; assigning tags needs `ASSOCIATE` on the tag and the right to alter the resource.\n"
        "- Granting and revoking (`grants`, `tag_grants`) needs the grantable permission being granted\n"
        "  (`PermissionsWithGrantOption`), or a data lake administrator.\n"
        "- Reading (plan, import) needs `DESCRIBE` on the resources, or a data lake administrator; a\n"
        "  principal sees only the grants it may see, so run plan as the principal that applies.\n"
        "- When a table is created in a database under Lake Formation, the creator also needs\n"
        "  `CREATE_TABLE` on the database; a database, `CREATE_DATABASE` on the catalog.\n\n"
        "The usual set-up: make the CI role that applies a data lake administrator (declare it in\n"
        "`data_lake_admins`, so a plan shows if it is ever removed) and give read-only jobs `DESCRIBE`.\n"
    )
    for command in COMMANDS:
        add(f"## `gluecat {command}`\n")
        add("\n".join(rows(command)) + "\n")
    add(
        "Columns: *Needed when* is what the project's YAML declares for the action to be called (`always`:\n"
        "every project). *Only if the live catalog asks*: called when the live catalog differs in a way that\n"
        "needs it (an update, a deletion, a replaced table, a saved plan's account check); `gluecat\n"
        "iam-policy` includes these, since the next change may need them. *Optional*: denied, the command\n"
        "warns once and goes on.\n"
    )
    add("## How this is tested\n")
    add(
        "gluecat's test suite runs plan, apply and import of its example project (and of the example with\n"
        "Lake Formation keys, a partition index and optimizers) as an IAM user holding\n"
        "exactly the printed policy, against a local Glue that checks IAM actions (not resources), then\n"
        "removes each action in turn and checks that the command needing it fails, or warns, in one line\n"
        "naming it. Resource scoping is not checked by that emulator: review the `Resource` lists.\n"
    )
    return "\n".join(out)
