"""A Delta table whose YAML location moves to where no log is: the refusal says the location moved
(gluecat does not move a Delta table's files), not that the registered table has no log."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner, Result

from gluecat.cli import app
from gluecat.project.starter import write_starter

DELTA = "format: delta\nlocation: s3://my-lake/sales/{where}/\ncolumns:\n  - {{name: id, type: bigint}}\n"


def gluecat(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def test_a_moved_delta_location_is_named_as_a_move(tmp_path: Path) -> None:
    write_starter(tmp_path)
    table = tmp_path / "sales/tables/dl.yaml"
    table.write_text(DELTA.format(where="dl"))
    assert gluecat("apply", str(tmp_path), "--auto-approve").exit_code == 0
    table.write_text(DELTA.format(where="moved"))

    refused = gluecat("plan", str(tmp_path))

    assert refused.exit_code == 1
    assert (
        "sales.dl: its location moves from s3://my-lake/sales/dl/ to s3://my-lake/sales/moved/, where there is"
        " no Delta log" in refused.output
    )
    assert "registered in Glue, but there is no Delta log" not in refused.output
