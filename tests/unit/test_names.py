"""Names Glue accepts: odd ones load and warn with their quoting; collisions Glue's folding makes are caught."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from gluecat.cli import app
from tests.unit.test_validate import make_project


def _findings(root: Path) -> tuple[int, list[dict[str, Any]]]:
    result = CliRunner().invoke(app, ["validate", str(root), "--format", "json"])
    return result.exit_code, json.loads(result.stdout)["findings"]


def test_hyphens_dots_and_spaces_are_names_with_a_quoting_warning(tmp_path: Path) -> None:
    root = make_project(tmp_path, {
        "web-logs.v2/database.yaml": "location: s3://lake/web-logs.v2/\n",
        "web-logs.v2/tables/access log.yaml": "storage: parquet\ncolumns:\n  - {name: user-agent, type: string}\n",
    })  # fmt: skip
    code, findings = _findings(root)
    assert code == 0, findings
    messages = {f["message"] for f in findings if f["rule"] == "name-quoting"}
    assert messages == {
        "database name 'web-logs.v2' holds characters outside a-z, 0-9 and '_': quote it in Athena as"
        ' "web-logs.v2" and in Spark as `web-logs.v2`',
        "table name 'access log' holds characters outside a-z, 0-9 and '_': quote it in Athena as"
        ' "access log" and in Spark as `access log`',
        "column name 'user-agent' holds characters outside a-z, 0-9 and '_': quote it in Athena as"
        ' "user-agent" and in Spark as `user-agent`',
    }
    assert all(f["severity"] == "warning" for f in findings)


def test_columns_differing_only_in_case_are_one_column_in_glue(tmp_path: Path) -> None:
    table = "storage: parquet\ncolumns:\n  - {name: eventId, type: string}\n  - {name: eventid, type: string}\n"
    code, findings = _findings(make_project(tmp_path, {"sales/tables/orders.yaml": table}))
    assert code == 1
    assert {f["rule"] for f in findings} == {"duplicate-column", "name-quoting"}
    assert any(f["message"] == "column name 'eventId': Glue stores it as 'eventid'" for f in findings)


def test_an_allowed_rule_is_silent_and_an_unknown_one_is_named(tmp_path: Path) -> None:
    table = "storage: parquet\ncolumns:\n  - {name: dt, type: string}\npartition_keys:\n  - {name: dt, type: string}\n"
    allowed = table + "lint:\n  allow: [partition-key-is-column]\n"
    code, findings = _findings(make_project(tmp_path / "a", {"sales/tables/orders.yaml": allowed}))
    assert (code, findings) == (0, [])
    typo = table + "lint:\n  allow: [partition-key-is-colum]\n"
    code, findings = _findings(make_project(tmp_path / "b", {"sales/tables/orders.yaml": typo}))
    assert code == 1
    assert [f["rule"] for f in findings] == ["partition-key-is-column", "lint-allow"]
    assert findings[1]["line"] == 7 and "did you mean 'partition-key-is-column'?" in findings[1]["message"]
