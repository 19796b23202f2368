"""Did-you-mean everywhere a word or value comes from a closed set: every candidate as close as the
closest one (never one picked by alphabet), on the command line as in the files."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from gluecat.cli import app

GLUECAT = Path(__file__).parents[2] / "gluecat"


def gluecat(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def _project(root: Path, files: dict[str, str]) -> Path:
    base = {"catalog.yaml": "region: us-east-1\nsandbox: true\n", "sales/database.yaml": "location: s3://l/s/\n"}
    for relative, text in {**base, **files}.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(textwrap.dedent(text))
    return root


def test_no_suggestion_is_made_by_difflib_alone() -> None:
    """difflib.get_close_matches(n=1) names one of two equally close words; suggest.closest names both."""
    offenders = [
        f"{path.relative_to(GLUECAT.parent)}:{number}"
        for path in sorted(GLUECAT.rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if "get_close_matches" in line
    ]
    assert offenders == []


def test_a_region_one_letter_from_two_names_both(tmp_path: Path) -> None:
    root = _project(tmp_path, {"catalog.yaml": "region: us-est-1\nsandbox: true\n"})

    result = gluecat("validate", str(root))

    assert "unknown region 'us-est-1' — did you mean 'us-east-1' or 'us-west-1'?" in result.stdout


def test_a_misspelt_sandbox_subcommand_is_named_not_served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(_project(tmp_path, {}))

    result = gluecat("sandbox", "stauts")

    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "error: No such command 'stauts'. Did you mean 'status'? (see `gluecat sandbox --help`)"
    )
    assert not (tmp_path / ".gluecat").exists()


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["apply", "--yes"], "No such option: --yes — did you mean --auto-approve?"),
        (["apply", "-y"], "No such option: -y — did you mean --auto-approve?"),
        (["apply", "--auto-aprove"], "No such option: --auto-aprove — did you mean --auto-approve?"),
        (["sandbox", "reset", "-y"], "No such option: -y — did you mean --yes?"),
        (["rollback", "--to"], "No such option: --to — did you mean --to-version or --to-snapshot?"),
        (["plan", "--detailed"], "No such option: --detailed — did you mean --detailed-exitcode?"),
        (
            ["plan", "--fail-on", "braking"],
            "Invalid value for '--fail-on': 'braking' is not one of 'breaking' or 'destructive'"
            " — did you mean 'breaking'?",
        ),
    ],
)
def test_the_command_line_suggests_options_and_values(args: list[str], line: str) -> None:
    result = gluecat(*args)

    assert result.exit_code == 1
    (shown,) = result.stderr.strip().splitlines()
    assert shown.startswith(f"error: {line} (see `gluecat "), shown
    assert "Possible options" not in shown and "Value error" not in shown


def test_lake_formation_tags_and_grant_columns_suggest(tmp_path: Path) -> None:
    catalog = "region: us-east-1\nsandbox: true\nlf_tags:\n  domain: [sales, web]\n  tier: [gold, silver]\n"
    table = """\
    storage: parquet
    lf_tags: {tier: gld, domian: sales}
    columns:
      - {name: customer_id, type: bigint}
    grants:
      - {principal: "arn:aws:iam::123456789012:role/a", permissions: [SELECT], columns: [customr_id]}
    """
    root = _project(tmp_path, {"catalog.yaml": catalog, "sales/tables/customers.yaml": table})

    shown = gluecat("validate", str(root)).stdout

    assert "'gld' is not an allowed value of LF-tag 'tier' (did you mean 'gold'?" in shown
    assert "LF-tag key 'domian' is not defined in catalog.yaml's lf_tags (did you mean 'domain'?" in shown
    assert re.search(r"column 'customr_id', which sales.customers does not have — did you mean 'customer_id'\?", shown)
