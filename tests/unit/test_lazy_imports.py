"""Commands for Hive-only catalogs do not pay for importing the Iceberg and Delta libraries."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
import gluecat.cli.app, gluecat.cli.planning, gluecat.cli.validate, gluecat.plan.live, gluecat.plan.diff, gluecat.apply.run
print(",".join(sorted({name.split(".")[0] for name in sys.modules} & {"pyiceberg", "deltalake"})))
"""


def test_plan_validate_and_apply_modules_load_without_pyiceberg_or_deltalake() -> None:
    loaded = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == ""


THRIFT_PROBE = """
import sys
import gluecat.cli.app, gluecat.cli.planning, gluecat.plan.live, gluecat.plan.diff, gluecat.backends.connect
print(",".join(sorted({name.split(".")[0] for name in sys.modules} & {"hive_metastore", "thrift"})))
"""


def test_glue_commands_load_no_thrift_client() -> None:
    loaded = subprocess.run([sys.executable, "-c", THRIFT_PROBE], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == ""
