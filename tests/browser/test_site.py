"""The documentation site in a real headless Chromium, opened from disk: it draws, finds, links, and
asks nothing of the network."""

from __future__ import annotations

from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.conftest import Browser
from tests.docs_project import example_with_views
from tests.integration.helpers import gluecat

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("docs")
    project = example_with_views(root / "example")
    result = gluecat("docs", str(project), "--out", str(root / "site"))
    assert result.exit_code == 0, result.output
    return root / "site"


def _open(browser: Browser, site: Path, route: str, ready: str) -> str:
    browser.driver.get((site / "index.html").as_uri() + route)
    WebDriverWait(browser.driver, 10).until(lambda d: ready in d.find_element(By.ID, "main").text)
    return str(browser.driver.find_element(By.ID, "main").text)


def _only_local(urls: list[str], site: Path) -> None:
    assert urls, "the performance log recorded no request at all"
    outside = [url for url in urls if not url.startswith(site.as_uri() + "/")]
    assert outside == []


def test_every_page_opens_from_disk_without_network_or_console_errors(browser: Browser, site: Path) -> None:
    text = _open(browser, site, "", "tables and views")
    assert "sales" in text and "lake" in text and "web" in text
    browser.screenshot("home")
    catalog = browser.driver.execute_script("return document.querySelectorAll('nav a').length")
    assert catalog == 3
    tables = sorted(f"{p.parents[1].name}.{p.stem}" for p in (site.parent / "example").glob("*/tables/*.yaml"))
    for address in tables:
        _open(browser, site, f"#/t/{address}", "Columns")
        assert browser.driver.find_element(By.TAG_NAME, "h1").text.startswith(address)
    _open(browser, site, "#/db/sales", "Tables and views")
    browser.screenshot("database")
    _open(browser, site, "#/t/sales.orders", "Partitions")
    browser.screenshot("table")
    _only_local(browser.requests(), site)
    assert browser.console() == []


def test_search_finds_the_tables_holding_a_column(browser: Browser, site: Path) -> None:
    _open(browser, site, "", "tables and views")
    box = browser.driver.find_element(By.ID, "search")
    box.send_keys("customer_id")
    WebDriverWait(browser.driver, 10).until(lambda d: d.find_elements(By.ID, "results"))
    hits = [a.text for a in browser.driver.find_elements(By.CSS_SELECTOR, "#results a")]
    assert "sales.orders.customer_id" in hits and "sales.customers.customer_id" in hits
    assert all("customer_id" in hit for hit in hits)
    browser.screenshot("search")
    browser.driver.find_element(By.LINK_TEXT, "sales.customers.customer_id").click()
    WebDriverWait(browser.driver, 10).until(
        lambda d: d.find_element(By.TAG_NAME, "h1").text.startswith("sales.customers")
    )
    _only_local(browser.requests(), site)
    assert browser.console() == []


def test_a_views_lineage_shows_its_upstream_tables_and_column_sources(browser: Browser, site: Path) -> None:
    _open(browser, site, "#/t/sales.order_facts", "Lineage")
    upstream = [a.text for a in browser.driver.find_elements(By.CSS_SELECTOR, "#upstream a")]
    assert upstream == ["sales.customers", "sales.orders"]
    downstream = [a.text for a in browser.driver.find_elements(By.CSS_SELECTOR, "#downstream a")]
    assert downstream == ["sales.country_revenue"]
    rows = {
        row.find_elements(By.TAG_NAME, "td")[0].text: row.find_elements(By.TAG_NAME, "td")[3].text
        for row in browser.driver.find_elements(By.CSS_SELECTOR, "table.columns tr")[1:]
    }
    assert rows["country"] == "sales.customers.country"
    assert rows["amount"] == "sales.orders.amount"
    boxes = browser.driver.find_elements(By.CSS_SELECTOR, "svg.lineage text")
    assert {b.text for b in boxes} >= {"sales.customers", "sales.orders", "sales.order_facts"}
    browser.screenshot("view-lineage")
    _open(browser, site, "#/t/sales.customers", "Lineage")
    assert [a.text for a in browser.driver.find_elements(By.CSS_SELECTOR, "#downstream a")] == ["sales.order_facts"]
    _only_local(browser.requests(), site)
    assert browser.console() == []


def test_a_tables_page_says_who_can_read_what(browser: Browser, tmp_path: Path) -> None:
    from tests.integration.test_lakeformation import ANALYST, ETL, _project

    class _Nowhere:
        endpoint_url = "http://127.0.0.1:9"  # the files alone: the site is built without a catalog

    root = _project(tmp_path / "cat", _Nowhere())  # type: ignore[arg-type]
    site = tmp_path / "site"
    assert gluecat("docs", str(root), "--out", str(site)).exit_code == 0
    _open(browser, site, "#/t/sales.customers", "Access")
    rows = [
        [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
        for row in browser.driver.find_elements(By.CSS_SELECTOR, "#access tr")[1:]
    ]
    assert [ETL, "reads all columns", "ALL (may grant ALL)", "grant", "declared"] in rows
    assert [ANALYST, "reads columns customer_id", "SELECT", "grant", "declared"] in rows
    tagged = next(row for row in rows if row[3].startswith("LF-tags"))
    assert tagged[:2] == [ANALYST, "reads columns customer_id"] and "tier=gold" in tagged[3]
    browser.screenshot("access")
    _open(browser, site, "#/db/sales", "Access to the database")
    rows = [
        [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
        for row in browser.driver.find_elements(By.CSS_SELECTOR, "#database-access tr")[1:]
    ]
    assert rows == [[ETL, "CREATE_TABLE, DESCRIBE (may grant DESCRIBE)", "grant", "declared"]]
    _only_local(browser.requests(), site)
    assert browser.console() == []
