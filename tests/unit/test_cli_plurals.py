"""Counts read as English: `1 table`, `2 tables`, `1,200 partitions`."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from gluecat.cli import app
from gluecat.text.plain import counted, counted_phrase


@pytest.mark.parametrize(
    ("count", "expected"), [(0, "0 tables"), (1, "1 table"), (2, "2 tables"), (1200, "1,200 tables")]
)
def test_counted(count: int, expected: str) -> None:
    assert counted(count, "table") == expected


def test_counted_phrase() -> None:
    assert counted_phrase(1, "partitions deleted") == "1 partition deleted"
    assert counted_phrase(1200, "partitions deleted") == "1,200 partitions deleted"
    assert counted_phrase(1, "databases") == "1 database"


def test_validate_counts_one_of_each(tmp_path: Path) -> None:
    (tmp_path / "catalog.yaml").write_text("region: eu-west-1\n")
    (tmp_path / "sales" / "tables").mkdir(parents=True)
    (tmp_path / "sales" / "database.yaml").write_text("location: s3://lake/sales/\n")
    (tmp_path / "sales" / "tables" / "orders.yaml").write_text("storage: parquet\ncolumns: [{name: id, type: int}]\n")
    result = CliRunner().invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert f"{tmp_path}: 1 database, 1 table, ok" in result.stdout


def test_validate_counts_one_error(tmp_path: Path) -> None:
    (tmp_path / "catalog.yaml").write_text("region: eu-west-1\n")
    (tmp_path / "sales" / "tables").mkdir(parents=True)
    (tmp_path / "sales" / "database.yaml").write_text("location: s3://lake/sales/\n")
    (tmp_path / "sales" / "tables" / "orders.yaml").write_text("storage: parquet\ncolumns: [{name: id, type: intt}]\n")
    result = CliRunner().invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 1
    assert "1 error," in result.output
    assert "1 errors" not in result.output
