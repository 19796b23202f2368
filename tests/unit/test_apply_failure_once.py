"""A failure during apply is said once: as it happens, and not again in the report after it."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from gluecat.cli import app
from gluecat.project.starter import write_starter


def test_one_failed_table_is_one_line(tmp_path: Path) -> None:
    write_starter(tmp_path)
    (tmp_path / "sales/tables/dl.yaml").write_text("format: delta\nlocation: s3://my-lake/sales/dl/\n")  # no columns

    applied = CliRunner().invoke(app, ["apply", str(tmp_path), "--auto-approve"], catch_exceptions=False)

    assert applied.exit_code == 1
    failed = [line for line in applied.stderr.splitlines() if line.startswith("failed sales.dl:")]
    assert len(failed) == 1, applied.stderr
    assert "Apply finished with 1 failure" in applied.stdout
