"""history, rollback and prune-versions take the project from `.` (or the project above it) like every
other command: the table alone is enough, and one argument is the table, not the project."""

from __future__ import annotations

from pathlib import Path

import pytest

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, write_project

V1 = """\
storage: csv
columns:
  - {name: customer_id, type: bigint}
"""
V2 = V1 + "description: Customers\n"


@pytest.fixture
def project(tmp_path: Path, server: LocalGlue) -> Path:
    files = {"crm/database.yaml": "location: s3://lake/crm/\n", "crm/tables/customers.yaml": V1}
    root = write_project(tmp_path / "project", server.endpoint_url, files)
    for text in (V1, V2):
        (root / "crm/tables/customers.yaml").write_text(text)
        assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    return root


def test_history_of_a_table_in_the_project_here(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project / "crm" / "tables")  # the project is found above, as for plan

    shown = gluecat("history", "crm.customers")

    assert shown.exit_code == 0, shown.output
    assert "crm.customers: 2 Glue versions kept" in shown.stdout
    assert gluecat("history", str(project), "crm.customers").stdout == shown.stdout


def test_rollback_and_prune_versions_of_the_project_here(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)

    rolled = gluecat("rollback", "crm.customers", "--to-version", "1", "--auto-approve")
    assert rolled.exit_code == 0, rolled.output
    assert "Apply complete" in rolled.stdout

    pruned = gluecat("prune-versions", "--keep", "1", "--auto-approve")
    assert pruned.exit_code == 0, pruned.output
    assert "crm.customers" in pruned.stdout


def test_a_project_without_a_table_is_told_to_name_the_table(project: Path) -> None:
    refused = gluecat("history", str(project))

    assert refused.exit_code == 1
    assert refused.stderr.strip() == "error: name the table: gluecat history [PROJECT] DATABASE.TABLE"
