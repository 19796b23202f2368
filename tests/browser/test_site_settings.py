"""Owners, optimizers and a database of many tables in a real headless Chromium: read as words, and
the database's rows drawn a page at a time."""

from __future__ import annotations

from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.conftest import Browser
from tests.browser.test_site import _only_local, _open
from tests.docs_settings import ROLE, WIDE_TABLES, settings_project
from tests.integration.helpers import gluecat

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("settings")
    result = gluecat("docs", str(settings_project(root / "cat")), "--out", str(root / "site"))
    assert result.exit_code == 0, result.output
    return root / "site"


def _cells(browser: Browser, selector: str) -> list[list[str]]:
    rows = browser.driver.find_elements(By.CSS_SELECTOR, f"{selector} tr")[1:]
    return [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")] for row in rows]


def test_owners_and_optimizers_read_as_words(browser: Browser, site: Path) -> None:
    text = _open(browser, site, "#/t/lake.events", "Optimizers")
    assert "Owner\nanalytics-team" in text
    assert _cells(browser, "#optimizers") == [
        ["compaction", "yes", "strategy: sort; min input files: 50", ROLE],
        ["retention", "no (kept, not run)", "snapshot retention days: 7", ROLE],
        ["orphan file deletion", "yes", "Glue's defaults", ROLE],
    ]
    browser.screenshot("optimizers")
    assert "Owner\nsales-engineering" in _open(browser, site, "#/t/lake.orders", "Columns")
    assert "Owner\nplatform" in _open(browser, site, "#/db/lake", "Tables and views")
    _only_local(browser.requests(), site)
    assert browser.console() == []


def test_a_large_database_is_drawn_a_page_of_rows_at_a_time(browser: Browser, site: Path) -> None:
    text = _open(browser, site, "#/db/wide", "Tables and views")
    assert f"Rows 1\u2013100 of {WIDE_TABLES} (page 1 of 3)" in text
    names = [row[0] for row in _cells(browser, "#tables")]
    assert len(names) == 100 and names[0].startswith("t000") and names[-1].startswith("t099")
    browser.driver.find_elements(By.PARTIAL_LINK_TEXT, "Next")[0].click()
    WebDriverWait(browser.driver, 10).until(lambda d: "page 2 of 3" in d.find_element(By.ID, "main").text)
    assert _cells(browser, "#tables")[0][0].startswith("t100")
    text = _open(browser, site, "#/db/wide/3", "page 3 of 3")
    assert len(_cells(browser, "#tables")) == WIDE_TABLES - 200
    _only_local(browser.requests(), site)
    assert browser.console() == []
