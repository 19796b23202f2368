"""The files of a new catalog project, as `gluecat init` writes them.

A sandbox catalog (no AWS account needed) with one database and one small partitioned parquet
table; the JSON Schemas each file names in its `# yaml-language-server: $schema=` comment, in
`.schemas/` (a dot-directory: the loader reads no database there); and the repository's CI
workflow, planning this catalog from the root of its own repository.
"""

from __future__ import annotations

from pathlib import Path

from gluecat.errors import GluecatError
from gluecat.project import schemas
from gluecat.project.load import CATALOG_FILE, DATABASE_FILE, TABLES_DIR

SCHEMA_DIR = ".schemas"
WORKFLOW_FILE = ".github/workflows/gluecat.yml"
DATABASE = "sales"
TABLE = "orders"


# Each file names its schema relative to itself, as the YAML language server reads it.
CATALOG = f"""\
# yaml-language-server: $schema={SCHEMA_DIR}/catalog.schema.json
# A gluecat catalog. `sandbox: true` runs every command against the embedded local Glue + S3
# (its state under .gluecat/), so no AWS account is needed. For your own account, remove it and
# set region (and profile or role_arn): the README's "catalog.yaml" lists every key.
region: us-east-1
sandbox: true
"""

DATABASE_YAML = f"""\
# yaml-language-server: $schema=../{SCHEMA_DIR}/database.schema.json
description: Orders from the web shop
location: s3://my-lake/sales/    # each table's data goes under it, in <location>/<table>
parameters:
  owner_team: commerce
"""

TABLE_YAML = f"""\
# yaml-language-server: $schema=../../{SCHEMA_DIR}/table.schema.json
description: One row per order line, partitioned by order date
storage: parquet
columns:
  - {{name: order_id, type: bigint, comment: Unique order id}}
  - {{name: customer_id, type: bigint}}
  - {{name: amount, type: "decimal(12,2)"}}
  - {{name: ordered_at, type: timestamp}}
partition_keys:
  - {{name: dt, type: string, comment: "Order date, YYYY-MM-DD"}}
partitions:                      # one per day: s3://my-lake/sales/orders/dt=2024-01-01/ ...
  - expand:
      dt: {{from: 2024-01-01, to: 2024-01-07}}
parameters:
  classification: parquet
"""

# The repository's workflow planned the catalogs under catalogs/; a new project is one catalog at
# the root of its repository.
_AT_ROOT = (
    ('paths: ["catalogs/**", ".github/workflows/gluecat.yml"]', 'paths: ["**.yaml", ".github/workflows/gluecat.yml"]'),
    ('paths: ["catalogs/**"]', 'paths: ["**.yaml"]'),
    ("  CATALOGS: catalogs\n", '  CATALOGS: "."  # this repository is one catalog (a directory of them works too)\n'),
)


def workflow() -> str:
    """The CI workflow for a project at the root of its repository."""
    text = WORKFLOW
    for old, new in _AT_ROOT:
        if text.count(old) != 1:
            raise AssertionError(f"the CI workflow no longer holds {old!r} once: update starter._AT_ROOT")
        text = text.replace(old, new)
    return text


def starter_files() -> dict[str, str]:
    """Path (relative to the project) -> text, for every file of a new project."""
    files = {
        CATALOG_FILE: CATALOG,
        f"{DATABASE}/{DATABASE_FILE}": DATABASE_YAML,
        f"{DATABASE}/{TABLES_DIR}/{TABLE}.yaml": TABLE_YAML,
    }
    files.update({f"{SCHEMA_DIR}/{name}": schemas.render(schema) for name, schema in schemas.schemas().items()})
    files[WORKFLOW_FILE] = workflow()
    return files


def write_starter(root: Path) -> list[Path]:
    """Write a new project into `root` (made when missing); refuse, writing nothing, when `root`
    already holds a catalog.yaml or any of the files."""
    if root.exists() and not root.is_dir():
        raise GluecatError(f"{root} is a file, not a directory: name a directory for the new catalog project")
    files = starter_files()
    taken = [relative for relative in files if (root / relative).exists() or (root / relative).is_symlink()]
    if taken:
        shown = ", ".join(taken[:3])
        more = f" and {len(taken) - 3} more" if len(taken) > 3 else ""
        raise GluecatError(
            f"{root} already holds {shown}{more}: gluecat init writes a new project and overwrites nothing"
        )
    written: list[Path] = []
    for relative, text in files.items():
        path = root / relative
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("x", encoding="utf-8", newline="\n") as file:  # "x": never over a file made meanwhile
                file.write(text)
        except OSError as exc:
            done = f" (written before it: {len(written)} of {len(files)} files)" if written else ""
            raise GluecatError(f"cannot write {path}: {exc.strerror or exc}{done}") from exc
        written.append(path)
    return written


# .github/workflows/gluecat.yml as the repository holds it (a test keeps the two equal): the wheel
# carries no file outside the package.
WORKFLOW = r"""# gluecat: plan every catalog and environment on a pull request (one sticky comment, failures
# included), apply the reviewed plans on merge to main one environment at a time, and destroy
# only through a deliberate manual run behind a protected environment.
#
# Repository settings it reads (README, "The CI workflow"):
#   variables  GLUECAT_ROLE_ARNS   JSON: environment -> role to assume through GitHub's OIDC
#                                  provider, e.g. {"dev": "arn:aws:iam::111111111111:role/gluecat",
#                                  "prod": "arn:aws:iam::222222222222:role/gluecat"}; "default" for
#                                  catalogs without environments; unset for sandbox-only catalogs
#   secrets    one per ${env.NAME} your catalogs use, mapped in the `env:` blocks marked below
#   environments  <env> (apply on merge; add reviewers or wait timers as you like) and
#                 gluecat-destroy (required reviewers: it runs apply --allow-destroy)
name: gluecat

on:
  pull_request:
    paths: ["catalogs/**", ".github/workflows/gluecat.yml"]
  push:
    branches: [main]
    paths: ["catalogs/**"]
  workflow_dispatch:
    inputs:
      catalog:
        description: Catalog directory, e.g. catalogs/example
        required: true
        type: string
      env:
        description: Environment of that catalog (empty when it declares none)
        required: false
        type: string
        default: ""

permissions: {}

concurrency:
  group: gluecat-${{ github.event_name }}-${{ github.event.pull_request.number || github.ref }}
  cancel-in-progress: ${{ github.event_name == 'pull_request' }}

env:
  PYTHON_VERSION: "3.11"
  # What `pip install` installs as gluecat: this repository at the checked-out commit. In a
  # repository of your own catalogs, pin a commit instead, e.g.
  #   gluecat @ git+https://github.com/OWNER/gluecat@<40-hex commit>
  # and copy that commit's requirements-ci.txt next to this workflow's checkout root.
  GLUECAT_PACKAGE: "."
  CATALOGS: catalogs

jobs:
  discover:
    runs-on: ubuntu-latest
    permissions:
      contents: read
    outputs:
      matrix: ${{ steps.list.outputs.matrix }}
      count: ${{ steps.list.outputs.count }}
    steps:
      - uses: actions/checkout@d23441a48e516b6c34aea4fa41551a30e30af803 # v6.1.0
        with:
          persist-credentials: false
      - uses: actions/setup-python@ece7cb06caefa5fff74198d8649806c4678c61a1 # v6.3.0
        with:
          python-version: ${{ env.PYTHON_VERSION }}
          cache: pip
          cache-dependency-path: requirements-ci.txt
      - name: Install gluecat (pinned, hash-checked dependencies)
        run: |
          python -m pip install --require-hashes --no-deps -r requirements-ci.txt
          python -m pip install --no-deps --no-build-isolation "$GLUECAT_PACKAGE"
      - id: list
        name: Every catalog and environment
        run: |
          matrix=$(gluecat environments "$CATALOGS" --json)
          echo "matrix=$matrix" >> "$GITHUB_OUTPUT"
          echo "count=$(jq '.include | length' <<< "$matrix")" >> "$GITHUB_OUTPUT"

  # A fork's pull request gets no secrets and no AWS role: it is validated offline only.
  validate-fork:
    needs: discover
    if: >-
      github.event_name == 'pull_request' && needs.discover.outputs.count != '0' &&
      github.event.pull_request.head.repo.full_name != github.repository
    runs-on: ubuntu-latest
    permissions:
      contents: read
    strategy:
      fail-fast: false
      matrix: ${{ fromJSON(needs.discover.outputs.matrix) }}
    steps:
      - uses: actions/checkout@d23441a48e516b6c34aea4fa41551a30e30af803 # v6.1.0
        with:
          persist-credentials: false
      - uses: actions/setup-python@ece7cb06caefa5fff74198d8649806c4678c61a1 # v6.3.0
        with:
          python-version: ${{ env.PYTHON_VERSION }}
          cache: pip
          cache-dependency-path: requirements-ci.txt
      - name: Install gluecat (pinned, hash-checked dependencies)
        run: |
          python -m pip install --require-hashes --no-deps -r requirements-ci.txt
          python -m pip install --no-deps --no-build-isolation "$GLUECAT_PACKAGE"
      - name: Validate (offline, without secrets)
        env:
          CATALOG: ${{ matrix.catalog }}
          GLUECAT_ENV: ${{ matrix.env }}
        run: gluecat validate "$CATALOG"

  plan:
    needs: discover
    if: >-
      github.event_name == 'pull_request' && needs.discover.outputs.count != '0' &&
      github.event.pull_request.head.repo.full_name == github.repository
    runs-on: ubuntu-latest
    permissions:
      contents: read
      id-token: write # OIDC credentials for AWS
    strategy:
      fail-fast: false
      matrix: ${{ fromJSON(needs.discover.outputs.matrix) }}
    steps:
      - uses: actions/checkout@d23441a48e516b6c34aea4fa41551a30e30af803 # v6.1.0
        with:
          persist-credentials: false
      - uses: actions/setup-python@ece7cb06caefa5fff74198d8649806c4678c61a1 # v6.3.0
        with:
          python-version: ${{ env.PYTHON_VERSION }}
          cache: pip
          cache-dependency-path: requirements-ci.txt
      - name: Install gluecat (pinned, hash-checked dependencies)
        run: |
          python -m pip install --require-hashes --no-deps -r requirements-ci.txt
          python -m pip install --no-deps --no-build-isolation "$GLUECAT_PACKAGE"
      - id: role
        name: Role for this environment
        env:
          ROLE: ${{ fromJSON(vars.GLUECAT_ROLE_ARNS || '{}')[matrix.env || 'default'] }}
        run: echo "arn=$ROLE" >> "$GITHUB_OUTPUT"
      - uses: aws-actions/configure-aws-credentials@e6de054238d6b7531b4efff3b6587d9aade6a06c # v6.2.3
        if: steps.role.outputs.arn != ''
        with:
          role-to-assume: ${{ steps.role.outputs.arn }}
          aws-region: ${{ matrix.region || 'us-east-1' }}
      - id: plan
        name: Plan (2 = changes, 1 = failure)
        env:
          CATALOG: ${{ matrix.catalog }}
          GLUECAT_ENV: ${{ matrix.env }}
          NAME: ${{ matrix.name }}
          # ${env.NAME} values your catalogs use, from secrets, e.g.:
          # DB_PASSWORD: ${{ secrets.DB_PASSWORD }}
        run: |
          set +e
          mkdir -p out
          gluecat validate "$CATALOG" > out/validate.txt 2>&1 \
            && gluecat plan "$CATALOG" --format markdown --detailed-exitcode --out out/plan.json \
                 > out/plan.md 2> out/stderr.txt
          code=$?
          echo "exitcode=$code" >> "$GITHUB_OUTPUT"
          if [ "$code" -eq 0 ] || [ "$code" -eq 2 ]; then exit 0; fi
          {
            echo "### :x: gluecat plan failed for \`$NAME\` (exit $code)"
            echo
            echo '```text'
            cat out/validate.txt out/stderr.txt 2>/dev/null | tail -n 60
            echo '```'
          } > out/plan.md
      - name: Keep the plan for the comment and for apply after merge
        if: always()
        uses: actions/upload-artifact@bbbca2ddaa5d8feaa63e36b76fdaad77386f024f # v7.0.0
        with:
          name: plan-${{ matrix.id }}
          path: out/
          if-no-files-found: error
          retention-days: 30
      - name: Fail on a plan error
        if: steps.plan.outputs.exitcode != '0' && steps.plan.outputs.exitcode != '2'
        env:
          CODE: ${{ steps.plan.outputs.exitcode }}
        run: |
          echo "::error::gluecat plan exited $CODE"
          exit 1

  comment:
    needs: plan
    if: always() && needs.plan.result != 'skipped'
    runs-on: ubuntu-latest
    permissions:
      pull-requests: write # the sticky plan comment
    steps:
      - uses: actions/download-artifact@3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c # v8.0.1
        with:
          pattern: plan-*
          path: plans
      - name: One comment with every plan
        run: |
          {
            echo "## gluecat plans"
            for plan in plans/*/plan.md; do echo; cat "$plan"; done
          } > comment.md
      - uses: marocchino/sticky-pull-request-comment@5770ad5eb8f42dd2c4f34da00c94c5381e49af88 # v3.0.5
        with:
          header: gluecat-plan
          path: comment.md

  # On merge: apply exactly the plan reviewed on the pull request's head commit, environment by
  # environment (in catalog.yaml's order), then check that main now plans clean. Deletions are
  # refused here (no --allow-destroy): run the manual workflow for them.
  apply:
    needs: discover
    if: github.event_name == 'push' && needs.discover.outputs.count != '0'
    runs-on: ubuntu-latest
    environment: ${{ matrix.env || 'default' }}
    permissions:
      contents: read
      id-token: write # OIDC credentials for AWS
      actions: read # the reviewed plan is an artifact of the pull request's run
      pull-requests: read # which pull request this merge came from
    concurrency: gluecat-apply-${{ matrix.id }}
    strategy:
      fail-fast: true
      max-parallel: 1
      matrix: ${{ fromJSON(needs.discover.outputs.matrix) }}
    steps:
      - uses: actions/checkout@d23441a48e516b6c34aea4fa41551a30e30af803 # v6.1.0
        with:
          persist-credentials: false
      - uses: actions/setup-python@ece7cb06caefa5fff74198d8649806c4678c61a1 # v6.3.0
        with:
          python-version: ${{ env.PYTHON_VERSION }}
          cache: pip
          cache-dependency-path: requirements-ci.txt
      - name: Install gluecat (pinned, hash-checked dependencies)
        run: |
          python -m pip install --require-hashes --no-deps -r requirements-ci.txt
          python -m pip install --no-deps --no-build-isolation "$GLUECAT_PACKAGE"
      - name: Fetch the reviewed plan
        env:
          GH_TOKEN: ${{ github.token }}
          REPO: ${{ github.repository }}
          SHA: ${{ github.sha }}
          ID: ${{ matrix.id }}
        run: |
          head=$(gh api "repos/$REPO/commits/$SHA/pulls" --jq '.[0].head.sha // empty')
          if [ -z "$head" ]; then
            echo "::error::$SHA came from no pull request: nothing was reviewed, nothing is applied"
            exit 1
          fi
          run=$(gh run list --repo "$REPO" --workflow gluecat.yml --event pull_request --commit "$head" \
                  --status success --limit 1 --json databaseId --jq '.[0].databaseId // empty')
          if [ -z "$run" ]; then
            echo "::error::no successful plan run for the pull request's head $head: plan it again"
            exit 1
          fi
          gh run download "$run" --repo "$REPO" --name "plan-$ID" --dir reviewed
      - id: role
        name: Role for this environment
        env:
          ROLE: ${{ fromJSON(vars.GLUECAT_ROLE_ARNS || '{}')[matrix.env || 'default'] }}
        run: echo "arn=$ROLE" >> "$GITHUB_OUTPUT"
      - uses: aws-actions/configure-aws-credentials@e6de054238d6b7531b4efff3b6587d9aade6a06c # v6.2.3
        if: steps.role.outputs.arn != ''
        with:
          role-to-assume: ${{ steps.role.outputs.arn }}
          aws-region: ${{ matrix.region || 'us-east-1' }}
      - name: Apply the reviewed plan, then check that main plans clean
        env:
          CATALOG: ${{ matrix.catalog }}
          GLUECAT_ENV: ${{ matrix.env }}
          # ${env.NAME} values your catalogs use, from secrets, e.g.:
          # DB_PASSWORD: ${{ secrets.DB_PASSWORD }}
        run: |
          # A saved plan refuses to run when anything it touches changed in Glue since it was made.
          gluecat apply reviewed/plan.json
          set +e
          gluecat plan "$CATALOG" --detailed-exitcode
          code=$?
          if [ "$code" -eq 2 ]; then
            echo "::error::main still differs from Glue after the reviewed plan (deletions, or changes merged"
            echo "::error::without their own plan): review them in a pull request or run the manual workflow"
          fi
          exit "$code"

  # Manual and deliberate: plan and apply one catalog and environment WITH --allow-destroy,
  # behind the protected `gluecat-destroy` environment (give it required reviewers).
  destroy:
    if: github.event_name == 'workflow_dispatch'
    runs-on: ubuntu-latest
    environment: gluecat-destroy
    permissions:
      contents: read
      id-token: write # OIDC credentials for AWS
    concurrency: gluecat-destroy
    steps:
      - uses: actions/checkout@d23441a48e516b6c34aea4fa41551a30e30af803 # v6.1.0
        with:
          persist-credentials: false
      - uses: actions/setup-python@ece7cb06caefa5fff74198d8649806c4678c61a1 # v6.3.0
        with:
          python-version: ${{ env.PYTHON_VERSION }}
          cache: pip
          cache-dependency-path: requirements-ci.txt
      - name: Install gluecat (pinned, hash-checked dependencies)
        run: |
          python -m pip install --require-hashes --no-deps -r requirements-ci.txt
          python -m pip install --no-deps --no-build-isolation "$GLUECAT_PACKAGE"
      - id: role
        name: Role for this environment
        env:
          ROLE: ${{ fromJSON(vars.GLUECAT_ROLE_ARNS || '{}')[inputs.env || 'default'] }}
        run: echo "arn=$ROLE" >> "$GITHUB_OUTPUT"
      - uses: aws-actions/configure-aws-credentials@e6de054238d6b7531b4efff3b6587d9aade6a06c # v6.2.3
        if: steps.role.outputs.arn != ''
        with:
          role-to-assume: ${{ steps.role.outputs.arn }}
          aws-region: ${{ vars.AWS_REGION || 'us-east-1' }}
      - name: Plan, then apply with --allow-destroy
        env:
          CATALOG: ${{ inputs.catalog }}
          GLUECAT_ENV: ${{ inputs.env }}
          # ${env.NAME} values your catalogs use, from secrets, e.g.:
          # DB_PASSWORD: ${{ secrets.DB_PASSWORD }}
        run: |
          gluecat plan "$CATALOG" --out destroy-plan.json
          gluecat apply destroy-plan.json --allow-destroy
"""
