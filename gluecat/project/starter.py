"""The files of a new catalog project, as `gluecat init` writes them.

A sandbox catalog (no AWS account needed) with one database and one small partitioned parquet
table; the JSON Schemas each file names in its `# yaml-language-server: $schema=` comment, in
`.schemas/` (a dot-directory: the loader reads no database there); and the repository's CI
workflow, planning this catalog from the root of its own repository.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from gluecat.errors import GluecatError
from gluecat.project import schemas
from gluecat.project.load import CATALOG_FILE, DATABASE_FILE, TABLES_DIR
from gluecat.secrets.files import confined

SCHEMA_DIR = ".schemas"
GITIGNORE_FILE = ".gitignore"
# The sandbox's state holds parameter values (passwords among them): never committed.
IGNORED = ".gluecat/"
WORKFLOW_FILE = ".github/workflows/gluecat.yml"
# .github/workflows/gluecat.yml as the repository holds it (a test keeps the two equal), shipped
# beside this module: the wheel carries no file outside the package.
WORKFLOW = (resources.files("gluecat.project") / "workflow.yml").read_text(encoding="utf-8")
DATABASE = "sales"
TABLE = "orders"


# Each file names its schema relative to itself, as the YAML language server reads it.
CATALOG = f"""\
# yaml-language-server: $schema={SCHEMA_DIR}/catalog.schema.json
# A gluecat catalog. `sandbox: true` runs every command against the embedded local Glue + S3
# (its state under .gluecat/), so no AWS account is needed. For your own account, remove it and
# set region (and profile or role_arn): docs/reference/yaml.md lists every key.
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
    already holds a catalog.yaml or any of the files. A `.gitignore` already there gains a line for
    the sandbox's state when it has none (and is listed); a new one is written holding it."""
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
    for relative in files:
        confined(root, root / relative)  # a directory there that links out of the project: refused, nothing written
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
    if _ignore_sandbox_state(root / GITIGNORE_FILE):
        written.append(root / GITIGNORE_FILE)
    return written


def _ignore_sandbox_state(path: Path) -> bool:
    """Make `path` (a .gitignore) ignore the sandbox's state; whether it was written."""
    confined(path.parent, path)
    try:
        existing = path.read_text(encoding="utf-8") if path.exists() else ""
        if any(line.strip().strip("/") == IGNORED.strip("/") for line in existing.splitlines()):
            return False
        separator = "" if not existing or existing.endswith("\n") else "\n"
        with path.open("a", encoding="utf-8", newline="\n") as file:
            file.write(f"{separator}# gluecat's sandbox state (it holds parameter values)\n{IGNORED}\n")
    except (OSError, UnicodeDecodeError) as exc:
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise GluecatError(f"cannot write {path}: {detail}") from exc
    return True
