"""What apply says: --auto-approve asked for up front, no --allow-destroy notice once it was given, plurals."""

from __future__ import annotations

import socket
from pathlib import Path

from gluecat.sandbox.server import LocalGlue
from tests.integration.helpers import ORDERS, gluecat, sales_project

ALLOW_DESTROY_NOTICE = "apply needs --allow-destroy"


def test_no_terminal_asks_for_auto_approve_before_reading_glue(tmp_path: Path) -> None:
    with socket.socket() as sock:  # nothing listens here: reading Glue would fail with a connection error
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    root = sales_project(tmp_path, f"http://127.0.0.1:{port}")
    result = gluecat("apply", str(root))
    assert result.exit_code == 1
    assert result.stderr.strip() == "error: apply asks for confirmation, and there is no terminal: pass --auto-approve"


def test_the_allow_destroy_notice_only_when_it_was_not_given(tmp_path: Path, server: LocalGlue) -> None:
    root = sales_project(tmp_path, server.endpoint_url, catalog_extra="prune: true\n")
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    (root / "sales/tables/orders.yaml").write_text(ORDERS.replace("2024-01-10", "2024-01-09"))
    assert ALLOW_DESTROY_NOTICE in gluecat("plan", str(root)).stdout
    refused = gluecat("apply", str(root), "--auto-approve")
    assert refused.exit_code == 1
    assert ALLOW_DESTROY_NOTICE in refused.stdout
    allowed = gluecat("apply", str(root), "--auto-approve", "--allow-destroy")
    assert allowed.exit_code == 0, allowed.output
    assert ALLOW_DESTROY_NOTICE not in allowed.output
    assert "Apply complete: 1 partition deleted." in allowed.stdout


def test_apply_report_counts_in_words(tmp_path: Path, server: LocalGlue) -> None:
    root = sales_project(tmp_path, server.endpoint_url)
    applied = gluecat("apply", str(root), "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert "1 database created" in applied.stdout
    assert "2 tables created" in applied.stdout
    assert "10 partitions created" in applied.stdout


def test_import_summary_counts_in_words(tmp_path: Path, server: LocalGlue) -> None:
    source = sales_project(tmp_path / "source", server.endpoint_url)
    assert gluecat("apply", str(source), "--auto-approve").exit_code == 0
    target = tmp_path / "imported"
    target.mkdir()
    (target / "catalog.yaml").write_text(f"region: us-east-1\nendpoint_url: {server.endpoint_url}\n")
    imported = gluecat("import", str(target), "--table", "sales.orders")
    assert imported.exit_code == 0, imported.output
    assert imported.stdout.startswith("Imported 1 table: 2 files written,")
