"""Nothing gluecat writes lands outside the project, whatever links the project holds: import (with
--force or not) refuses a file or database directory that links out, the sandbox refuses a state
directory that links out, and the sandbox state is the owner's alone (0600 files, 0700 directories)."""

from __future__ import annotations

import shutil
import stat
from pathlib import Path
from typing import Any

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import gluecat
from tests.integration.import_shapes import HIVE_SHAPES

SHAPE = HIVE_SHAPES[3]


def _outside(tmp_path: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted((tmp_path / "elsewhere").rglob("*")) if p.is_file()}


def _live(tmp_path: Path, server: LocalGlue, raw_glue: Any) -> Path:
    raw_glue.create_database(DatabaseInput={"Name": "raw", "LocationUri": "s3://lake/raw/"})
    raw_glue.create_table(DatabaseName="raw", TableInput=SHAPE)
    root = tmp_path / "project"
    root.mkdir()
    (root / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "credentials").write_text("[default]\naws_secret_access_key = kept\n")
    return root


def test_import_with_force_refuses_a_table_file_that_links_out_of_the_project(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    root = _live(tmp_path, server, raw_glue)
    (root / "raw" / "tables").mkdir(parents=True)
    planted = root / "raw" / "tables" / f"{SHAPE['Name']}.yaml"
    planted.symlink_to(tmp_path / "elsewhere" / "credentials")
    before = _outside(tmp_path)

    for args in ((), ("--force",), ("--dry-run",), ("--force", "--dry-run")):
        result = gluecat("import", str(root), *args)
        assert result.exit_code == 1, result.output
        assert "Traceback" not in result.output and "unexpected error" not in result.output
        (line,) = [line for line in result.stderr.splitlines() if "not imported" in line]
        assert "refusing to write" in line and "outside" in line
        assert "aws_secret_access_key" not in result.output and "kept" not in result.output
        assert _outside(tmp_path) == before
    assert (root / "raw" / "database.yaml").is_file(), "the other files are written"


def test_import_refuses_a_database_directory_that_links_out_of_the_project(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    root = _live(tmp_path, server, raw_glue)
    (root / "raw").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    before = _outside(tmp_path)

    result = gluecat("import", str(root), "--force")
    assert result.exit_code == 1
    refused = [line for line in result.stderr.splitlines() if "not imported" in line]
    assert len(refused) == 2 and all("refusing to write" in line for line in refused), result.stderr
    assert _outside(tmp_path) == before, "nothing made or changed outside the project"
    assert "Imported 1 table: 0 files written" in result.stdout


def test_import_refuses_a_catalog_yaml_that_links_out_of_the_project_before_reading_anything(
    tmp_path: Path, server: LocalGlue, raw_glue: Any
) -> None:
    root = _live(tmp_path, server, raw_glue)
    (root / "catalog.yaml").unlink()
    (root / "catalog.yaml").symlink_to(tmp_path / "elsewhere" / "catalog.yaml")  # dangling: would be made there

    result = gluecat("import", str(root))
    assert result.exit_code == 1
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: refusing to write") and "outside" in line
    assert not (tmp_path / "elsewhere" / "catalog.yaml").exists()
    assert not (root / "raw").exists(), "refused before any file is written"


SANDBOX_TABLE = "storage: parquet\ncolumns: [{name: id, type: bigint}]\n"


def _sandbox_project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "sales" / "tables").mkdir(parents=True)
    (project / "catalog.yaml").write_text("region: us-east-1\nsandbox: true\n")
    (project / "sales" / "database.yaml").write_text(
        "location: s3://sandbox-lake/sales/\nparameters:\n  jdbc.password: hunter2-literal\n"
    )
    (project / "sales" / "tables" / "orders.yaml").write_text(SANDBOX_TABLE)
    return project


def test_the_sandbox_refuses_a_state_directory_that_links_out_of_the_project(tmp_path: Path) -> None:
    project = _sandbox_project(tmp_path)
    (tmp_path / "elsewhere").mkdir()
    (project / ".gluecat").mkdir()
    (project / ".gluecat" / "sandbox").symlink_to(tmp_path / "elsewhere", target_is_directory=True)

    result = gluecat("apply", str(project), "--auto-approve")
    assert result.exit_code == 1
    assert "Traceback" not in result.output and "unexpected error" not in result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: refusing to write") and "outside" in line
    assert list((tmp_path / "elsewhere").iterdir()) == []

    shutil.rmtree(project / ".gluecat")  # the lock file, and the link
    (project / ".gluecat").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (tmp_path / "elsewhere" / "sandbox").mkdir()
    (tmp_path / "elsewhere" / "sandbox" / "state.json").write_text(
        '{"format": 2, "glue": [], "buckets": []}'
    )  # reset deletes nothing
    for args in (("apply", str(project), "--auto-approve"), ("sandbox", "reset", str(project), "--yes")):
        result = gluecat(*args)
        assert result.exit_code == 1, result.output
        assert "refusing to write" in result.stderr and "Traceback" not in result.output
    assert [p.name for p in (tmp_path / "elsewhere").rglob("*")] == ["sandbox", "state.json"], "no lock file"


def test_the_sandbox_state_is_the_owners_alone(tmp_path: Path) -> None:
    project = _sandbox_project(tmp_path)
    applied = gluecat("apply", str(project), "--auto-approve")
    assert applied.exit_code == 0, applied.output

    state = project / ".gluecat" / "sandbox"
    assert "hunter2-literal" in (state / "state.json").read_text(), "the state holds parameter values"
    for path in [project / ".gluecat", *state.rglob("*"), state]:
        mode = stat.S_IMODE(path.stat().st_mode)
        expected = 0o700 if path.is_dir() else 0o600
        assert mode == expected, f"{path.relative_to(project)} is {oct(mode)}"
