"""Output piped to files, as CI captures it: no ANSI escape codes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import ORDERS, gluecat, sales_project

ROOT = Path(__file__).parents[2]


def test_piped_plan_has_no_escape_codes(tmp_path: Path, server: LocalGlue) -> None:
    root = sales_project(tmp_path / "p", server.endpoint_url, catalog_extra="prune: true\n")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "sales/tables/orders.yaml").write_text(ORDERS.replace("2024-01-10", "2024-01-09"))
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    with out.open("w") as stdout, err.open("w") as stderr:
        env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
        code = subprocess.run(
            [sys.executable, "-m", "gluecat", "plan", str(root)], stdout=stdout, stderr=stderr, cwd=ROOT, env=env
        ).returncode
    assert code == 0
    assert "apply needs --allow-destroy" in out.read_text()
    assert "\x1b" not in out.read_text() + err.read_text()
