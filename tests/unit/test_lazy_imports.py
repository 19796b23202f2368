"""Commands for Hive-only catalogs do not pay for importing the Iceberg and Delta libraries."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import ORDERS, SALES_DB, write_project

PROBE = """
import sys
import gluecat.cli.app, gluecat.cli.planning, gluecat.cli.validate, gluecat.plan.live, gluecat.plan.diff, gluecat.apply.run
import gluecat.cli.importing, gluecat.adopt.catalog
print(",".join(sorted({name.split(".")[0] for name in sys.modules} & {"pyiceberg", "deltalake", "moto"})))
"""


def test_plan_validate_apply_and_import_modules_load_without_pyiceberg_deltalake_or_moto() -> None:
    loaded = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == ""


START_PROBE = """
import sys
import gluecat.cli.app, gluecat.cli.planning, gluecat.plan.live, gluecat.plan.diff, gluecat.apply.run
import gluecat.backends.connect, gluecat.plan.saved
print(",".join(sorted(name for name in sys.modules if name == "gluecat.plan.document" or name.startswith("gluecat.sandbox"))))
"""


def test_plan_and_apply_on_glue_load_neither_the_sandbox_nor_the_saved_plan_schema() -> None:
    """Each is ~15-20 ms of a command's start: the sandbox's modules load for a sandbox catalog,
    the saved plan's schema to read a plan file."""
    loaded = subprocess.run([sys.executable, "-c", START_PROBE], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == ""


THRIFT_PROBE = """
import sys
import gluecat.cli.app, gluecat.cli.planning, gluecat.plan.live, gluecat.plan.diff, gluecat.backends.connect
print(",".join(sorted({name.split(".")[0] for name in sys.modules} & {"hive_metastore", "thrift"})))
"""


def test_glue_commands_load_no_thrift_client() -> None:
    loaded = subprocess.run([sys.executable, "-c", THRIFT_PROBE], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == ""


RUN_PROBE = """
import sys
from typer.testing import CliRunner
from gluecat.cli import app
result = CliRunner().invoke(app, ["plan", sys.argv[1]])
assert result.exit_code == 0, result.output
print(",".join(sorted({name.split(".")[0] for name in sys.modules} & {"pyiceberg", "deltalake", "moto"})))
"""


def test_a_plan_of_hive_tables_imports_no_lake_library(tmp_path: Path, server: LocalGlue) -> None:
    """Running, not only importing: a plan whose tables are all Hive-format never touches the
    Iceberg or Delta access (it once did, to look for Iceberg tables that were not there)."""
    root = write_project(
        tmp_path, server.endpoint_url, {"sales/database.yaml": SALES_DB, "sales/tables/orders.yaml": ORDERS}
    )
    loaded = subprocess.run([sys.executable, "-c", RUN_PROBE, str(root)], capture_output=True, text=True)
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.strip() == ""
