"""`gluecat validate` on Lake Formation mistakes: each is an error at the file and line that says it."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gluecat.cli import app

ROLE = "arn:aws:iam::123456789012:role/analyst"
CATALOG = "region: eu-west-1\nlf_tags:\n  domain: [sales, web]\n  tier: [gold]\n"
DATABASE = "location: s3://lake/sales/\nlf_tags: {domain: sales}\n"
TABLE = f"""\
storage: parquet
lf_tags: {{tier: gold}}
columns:
  - {{name: id, type: bigint}}
  - {{name: email, type: string, lf_tags: {{tier: gold}}}}
grants:
  - {{principal: {ROLE}, permissions: [SELECT], columns: [id, email]}}
"""


def _validate(root: Path, files: dict[str, str]) -> tuple[int, str]:
    for relative, text in {"catalog.yaml": CATALOG, "sales/database.yaml": DATABASE,
                           "sales/tables/orders.yaml": TABLE, **files}.items():  # fmt: skip
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    result = CliRunner().invoke(app, ["validate", str(root)])
    return result.exit_code, result.output


def test_a_project_whose_tags_and_grants_hold_validates(tmp_path: Path) -> None:
    code, output = _validate(tmp_path, {})
    assert code == 0, output


@pytest.mark.parametrize(
    ("files", "where", "rule", "words"),
    [
        (
            {"sales/tables/orders.yaml": TABLE.replace("lf_tags: {tier: gold}}", "lf_tags: {tier: platinum}}")},
            "orders.yaml:5:",
            "lf-tag-value",
            "'platinum' is not an allowed value of LF-tag 'tier'",
        ),
        (
            {"sales/database.yaml": "lf_tags: {owner: finance}\n"},
            "database.yaml:1:",
            "lf-tag-value",
            "LF-tag key 'owner' is not defined",
        ),
        (
            {"sales/tables/orders.yaml": TABLE.replace("columns: [id, email]", "columns: [id, ssn]")},
            "orders.yaml:7:",
            "grant-column",
            "names column 'ssn', which sales.orders does not have",
        ),
        (
            {"sales/tables/orders.yaml": TABLE.replace(ROLE, "analyst-role")},
            "orders.yaml:7:",
            "grant-principal",
            "'analyst-role' is not a principal",
        ),
        (
            {
                "sales/tables/orders.yaml": TABLE.replace(
                    "permissions: [SELECT], columns: [id, email]", "permissions: [CREATE_TABLE]"
                )
            },
            "orders.yaml:7:",
            "grant-permission",
            "CREATE_TABLE is not granted on a table",
        ),
        (
            {
                "catalog.yaml": CATALOG
                + f"tag_grants:\n  - principal: {ROLE}\n    permissions: [SELECT]\n    resource: table\n"
                "    expression: {domain: [retail]}\n"
            },
            "catalog.yaml:9:",
            "lf-tag-value",
            "'retail' is not an allowed value of LF-tag 'domain'",
        ),
    ],
)
def test_each_mistake_is_an_error_at_its_line(
    tmp_path: Path, files: dict[str, str], where: str, rule: str, words: str
) -> None:
    code, output = _validate(tmp_path, files)
    assert code == 1, output
    line = next(line for line in output.splitlines() if f"[{rule}]" in line)
    assert where in line and words in line


def test_grant_options_beyond_the_permissions_are_refused_when_read(tmp_path: Path) -> None:
    table = TABLE.replace("permissions: [SELECT], columns: [id, email]", "permissions: [SELECT], grantable: [ALTER]")
    code, output = _validate(tmp_path, {"sales/tables/orders.yaml": table})
    assert code == 1
    assert "orders.yaml:7" in output and "grantable ALTER is not among the grant's permissions" in output
