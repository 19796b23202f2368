"""Defects the third trust round found, each driven as a user meets it: what they saw is gone and
stays gone (the issue's "Why" lists them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

REGISTRATION = """\
format: registration
reason: Glue holds the column 'a' without a type, which no table file can say
table_input:
  TableType: EXTERNAL_TABLE
  Description: as registered
  StorageDescriptor:
    Columns: [{Name: a}]
    Location: s3://lake/sales/reg/
"""


def _carried(raw_glue: Any) -> dict[str, Any]:
    table = raw_glue.get_table(DatabaseName="sales", Name="reg")["Table"]
    return {key: table.get(key) for key in ("Description", "StorageDescriptor", "Parameters")}


@pytest.mark.parametrize("saved", [False, True], ids=["rollback", "rollback --out, then apply"])
def test_rollback_of_a_registration_writes_the_version_back(
    tmp_path: Path, server: LocalGlue, raw_glue: Any, saved: bool
) -> None:
    files = {"sales/database.yaml": "location: s3://lake/sales/\n", "sales/tables/reg.yaml": REGISTRATION}
    root = write_project(tmp_path / "project", server.endpoint_url, files)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    version_1 = _carried(raw_glue)
    raw_glue.update_table(
        DatabaseName="sales",
        TableInput={
            "Name": "reg", "TableType": "EXTERNAL_TABLE", "Description": "changed by hand",
            "Parameters": {"added": "later"},
            "StorageDescriptor": {"Columns": [{"Name": "a"}, {"Name": "b"}], "Location": "s3://lake/sales/reg/"},
        },
    )  # fmt: skip

    if saved:
        plan = tmp_path / "rollback.json"
        result = gluecat("rollback", str(root), "sales.reg", "--to-version", "1", "--out", str(plan))
        assert result.exit_code == 0, result.output
        result = gluecat("apply", str(plan), "--auto-approve")
    else:
        result = gluecat("rollback", str(root), "sales.reg", "--to-version", "1", "--auto-approve")
    assert result.exit_code == 0, result.output
    assert "nothing to write" not in result.output
    assert "description: changed by hand -> as registered" in result.output
    assert _carried(raw_glue) == version_1
    assert gluecat("plan", str(root), "--detailed-exitcode").exit_code == 0

    again = gluecat("rollback", str(root), "sales.reg", "--to-version", "1", "--auto-approve")
    assert again.exit_code == 0 and "nothing to write" in again.output, again.output
