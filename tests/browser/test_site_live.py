"""The site built with --live, in a real headless Chromium: a table's versions and an Iceberg table's
snapshots read as sentences and tables, not raw settings."""

from __future__ import annotations

from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from gluecat.sandbox.server import LocalGlue
from tests.browser.conftest import Browser
from tests.browser.test_site import _only_local, _open
from tests.integration.helpers import gluecat, sales_project
from tests.integration.test_rollback_iceberg import _events

pytestmark = pytest.mark.browser


def test_live_pages_show_versions_and_snapshots(
    browser: Browser, tmp_path: Path, server: LocalGlue, lake_bucket: str
) -> None:
    _, snapshots = _events(server, tmp_path)
    root = sales_project(tmp_path / "cat", server.endpoint_url)
    assert gluecat("apply", str(root), "--auto-approve").exit_code == 0
    site = tmp_path / "site"
    assert gluecat("docs", str(root), "--live", "--out", str(site)).exit_code == 0
    _open(browser, site, "#/t/sales.orders", "Versions")
    assert browser.driver.find_element(By.ID, "versions").text == "1 version kept:"
    assert browser.driver.find_elements(By.CSS_SELECTOR, "#versions-latest td")[0].text == "1"
    _open(browser, site, "#/t/lake.events", "Snapshots")
    shown = browser.driver.find_element(By.ID, "snapshots").text
    assert f"Current snapshot\n{snapshots[-1]}" in shown and "Operation\nappend" in shown
    assert "Records in total\n5" in shown
    browser.screenshot("snapshots")
    _only_local(browser.requests(), site)
    assert browser.console() == []
