"""history of a view shows what its text means, as a plan does: `sql: old -> new` and the other fields
of an Athena view's JSON, never the base64 it is stored as."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gluecat.convert import presto_view
from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

ATHENA = """\
format: view
dialect: athena
sql: SELECT id FROM crm.customers WHERE tier > 1
columns:
  - {name: id, type: bigint}
"""
SPARK = ATHENA.replace("dialect: athena", "dialect: spark")


def _two_versions(tmp_path: Path, server: LocalGlue, text: str, change: tuple[str, str]) -> Path:
    files = {"crm/database.yaml": "location: s3://lake/crm/\n", "crm/tables/top.yaml": text}
    root = write_project(tmp_path / "project", server.endpoint_url, files)
    for written in (text, text.replace(*change)):
        (root / "crm/tables/top.yaml").write_text(written)
        applied = gluecat("apply", str(root), "--auto-approve")
        assert applied.exit_code == 0, applied.output
    return root


@pytest.mark.parametrize("text", [ATHENA, SPARK], ids=["athena", "spark"])
def test_a_view_s_new_sql_is_shown_as_sql(tmp_path: Path, server: LocalGlue, text: str) -> None:
    root = _two_versions(tmp_path, server, text, ("tier > 1", "tier > 2"))

    shown = gluecat("history", str(root), "crm.top")

    assert shown.exit_code == 0, shown.output
    sql = "SELECT id FROM crm.customers WHERE tier"
    assert f"~ sql: {sql} > 1 -> {sql} > 2" in shown.stdout
    assert presto_view.PREFIX.strip() not in shown.stdout and "view_original_text" not in shown.stdout


def test_an_athena_view_s_columns_are_shown_by_name_and_type(tmp_path: Path, server: LocalGlue) -> None:
    root = _two_versions(tmp_path, server, ATHENA, ("{name: id, type: bigint}", "{name: id, type: string}"))

    found = json.loads(gluecat("history", str(root), "crm.top", "--format", "json").stdout)

    changed = {d["path"]: (d["before"], d["after"]) for d in found["versions"][0]["changes"]}
    assert changed["view.columns"] == ("id bigint", "id varchar")
    assert not any(path.startswith("view_") for path in changed)
