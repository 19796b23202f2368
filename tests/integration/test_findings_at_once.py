"""validate and plan report every finding of a file in one run, whatever the first one is; an error
in one file blocks only the plans that target what it declares."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gluecat.model.storage import STORAGE_FORMATS
from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat, sales_project, write_project

FIVE_WRONG = """\
storage: parqet
location: s3://lake/sales/broken
colums: []
columns:
  - {name: order_id, type: bigit}
  - {name: amount, type: "decimal(40,2)"}
  - {name: id, type: int}
  - {name: id, type: int}
"""
FIVE_FINDINGS = [
    "broken.yaml:1:10: unknown storage 'parqet': did you mean 'parquet'?",
    "broken.yaml:3:1: unknown key 'colums'",
    "broken.yaml:5:28: unknown type 'bigit'",
    "broken.yaml:6:26: invalid type 'decimal(40,2)'",
    "broken.yaml:7:12: column 'id' is declared 2 times",
]


def test_validate_lists_all_five_in_one_run(tmp_path: Path, server: LocalGlue) -> None:
    root = sales_project(tmp_path / "p", server.endpoint_url, broken=FIVE_WRONG)
    result = gluecat("validate", str(root))
    assert result.exit_code == 1
    for finding in FIVE_FINDINGS:
        assert finding in result.stdout, result.stdout


def test_plan_lists_all_five_in_one_run(tmp_path: Path, server: LocalGlue) -> None:
    root = sales_project(tmp_path / "p", server.endpoint_url, broken=FIVE_WRONG)
    result = gluecat("plan", str(root))
    assert result.exit_code == 1
    for finding in FIVE_FINDINGS:
        assert finding in result.stderr, result.stderr


def test_a_yaml_error_elsewhere_blocks_only_its_own_plans(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> None:
    root = sales_project(tmp_path / "p", server.endpoint_url)
    (root / "other" / "tables").mkdir(parents=True)
    (root / "other" / "database.yaml").write_text("location: s3://lake/other/\n")
    (root / "other" / "tables" / "t.yaml").write_text("storage: csv\ncolumns:\n  - {name: a, type: int}\n")
    (root / "sales" / "tables" / "broken.yaml").write_text("columns: [\n")
    (root / "sales" / "tables" / "typed.yaml").write_text("storage: csv\ncolumns:\n  - {name: a, type: nosuch}\n")
    targeted = gluecat("plan", str(root), "--target", "other")
    assert targeted.exit_code == 0, targeted.output
    assert "other.t" in targeted.stdout
    assert "broken.yaml:2:1: warning: invalid YAML" in targeted.stderr
    assert "(not targeted by this plan)" in targeted.stderr
    assert gluecat("apply", str(root), "--target", "other", "--auto-approve").exit_code == 0
    assert raw_glue.get_table(DatabaseName="other", Name="t")["Table"]["Name"] == "t"
    whole = gluecat("plan", str(root))
    assert whole.exit_code == 1
    assert "broken.yaml:2:1: invalid YAML" in whole.stderr
    assert "typed.yaml:3:21: unknown type 'nosuch'" in whole.stderr
    assert gluecat("plan", str(root), "--target", "sales.orders").exit_code == 0


def test_a_misspelt_permission_does_not_hide_the_grants_column_error(tmp_path: Path) -> None:
    grants = """\
grants:
  - principal: arn:aws:iam::123456789012:role/analyst
    permissions: [SELCT]
    columns: [nope]
"""
    root = sales_project(
        tmp_path / "p", "http://127.0.0.1:1", orders_lf="storage: csv\ncolumns:\n  - {name: a, type: int}\n" + grants
    )
    result = gluecat("validate", str(root))
    assert "orders_lf.yaml:6:19: item 1 of `permissions` should be" in result.stdout
    assert "did you mean 'SELECT'?" in result.stdout
    assert "orders_lf.yaml:7:15: the grant names column 'nope'" in result.stdout


def test_an_empty_sql_does_not_hide_the_missing_columns(tmp_path: Path) -> None:
    root = sales_project(tmp_path / "p", "http://127.0.0.1:1", v='format: view\ndialect: athena\nsql: ""\n')
    result = gluecat("validate", str(root))
    assert "an athena view needs `sql` (the SELECT it stands for) and `columns`" in result.stdout
    root = sales_project(tmp_path / "q", "http://127.0.0.1:1", v="format: view\ndialect: spark\nsql: SELECT 1\n")
    assert "a spark view needs `columns`" in gluecat("validate", str(root)).stdout


def test_closed_sets_in_catalog_yaml_suggest_their_values(tmp_path: Path) -> None:
    extra = "readers: [sprak, trino]\npolicy: {fail_on: braking}\n"
    root = write_project(tmp_path / "p", "http://127.0.0.1:1", {}, extra)
    result = gluecat("validate", str(root))
    assert (
        "item 1 of `readers` should be 'athena', 'trino' or 'spark', not the text 'sprak' — did you mean 'spark'?"
        in result.stdout
    )
    assert "not the text 'braking' — did you mean 'breaking'?" in result.stdout


def _misspelt(name: str) -> st.SearchStrategy[str]:
    """One letter of `name` dropped, doubled or swapped with the next."""
    positions = st.integers(0, len(name) - 1)
    dropped = positions.map(lambda i: name[:i] + name[i + 1 :])
    doubled = positions.map(lambda i: name[: i + 1] + name[i:])
    swapped = st.integers(0, len(name) - 2).map(lambda i: name[:i] + name[i + 1] + name[i] + name[i + 2 :])
    return st.one_of(dropped, doubled, swapped).filter(lambda typo: typo not in STORAGE_FORMATS)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(typo=st.sampled_from(sorted(STORAGE_FORMATS)).flatmap(_misspelt))
def test_any_misspelt_storage_leaves_the_rest_of_the_file_checked(tmp_path: Path, typo: str) -> None:
    text = FIVE_WRONG.replace("parqet", typo)
    root = write_project(
        tmp_path / "p",
        "http://127.0.0.1:1",
        {"s/database.yaml": "location: s3://lake/s/\n", "s/tables/broken.yaml": text},
    )
    result = gluecat("validate", str(root))
    assert f"unknown storage '{typo}'" in result.stdout
    for finding in FIVE_FINDINGS[1:]:
        assert finding in result.stdout, result.stdout
