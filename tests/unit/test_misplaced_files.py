"""Files beside catalog.yaml: a table file there is reported with where it goes, a `tables/` folder
is told the database's tables/, other YAML (mkdocs.yml) is left alone, and a missing catalog.yaml
or database.yaml is named without a line and column it does not have."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from typer.testing import CliRunner, Result

from gluecat.cli import app

TABLE = "storage: parquet\ncolumns: [{name: id, type: int}]\n"


def _validate(root: Path, files: dict[str, str], *args: str) -> Result:
    base = {"catalog.yaml": "region: eu-west-1\n", "sales/database.yaml": "location: s3://lake/sales/\n"}
    for relative, text in {**base, **files}.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(textwrap.dedent(text))
    return CliRunner().invoke(app, ["validate", str(root), *args])


def test_a_table_file_beside_catalog_yaml_is_reported_with_where_it_goes(tmp_path: Path) -> None:
    result = _validate(tmp_path, {"events.yaml": TABLE, "mkdocs.yml": "site_name: lake\nnav: []\n"})

    assert result.exit_code == 1
    assert (
        f"{tmp_path / 'events.yaml'}: this file is not read: move it to {tmp_path / 'sales/tables/events.yaml'}"
        in result.stdout
    )
    assert "mkdocs.yml" not in result.stdout
    assert "1 error," in result.stdout


def test_a_database_yaml_beside_catalog_yaml_is_told_it_belongs_in_its_folder(tmp_path: Path) -> None:
    result = _validate(tmp_path, {"database.yaml": "location: s3://lake/web/\n"})

    assert f"{tmp_path / 'database.yaml'}: this file is not read: a database's file is DATABASE/database.yaml" in (
        result.stdout
    )


def test_a_tables_folder_at_the_root_is_told_the_database_s_tables_folder(tmp_path: Path) -> None:
    result = _validate(tmp_path, {"tables/visits.yaml": TABLE, "web/database.yaml": "location: s3://l/w/\n"})

    assert result.exit_code == 1
    home = tmp_path / "DATABASE" / "tables" / "visits.yaml"  # two databases: the user picks
    assert f"{tmp_path / 'tables/visits.yaml'}: this file is not read: move it to {home}" in result.stdout
    assert "tables/tables" not in result.stdout and "needs a database.yaml" not in result.stdout


def test_a_missing_catalog_yaml_has_no_line_and_column(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["validate", str(tmp_path)])
    shown = CliRunner().invoke(app, ["validate", str(tmp_path), "--format", "json"])

    assert f"{tmp_path / 'catalog.yaml'}: not a catalog project: catalog.yaml is missing" in result.stdout
    assert ":1:1" not in result.stdout
    (finding,) = json.loads(shown.stdout)["findings"]
    assert finding["line"] is None and finding["column"] is None
