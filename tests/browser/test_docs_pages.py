"""The documentation site (mkdocs.yml, docs/) built as CI builds it and opened from disk in a real headless
Chromium: the first page of every nav section renders its title, asks nothing of the network (no web
font, no CDN script), logs no error, and is kept as a screenshot in the test artifacts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.conftest import ARTIFACTS, Browser

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ARTIFACTS.parent / "documentation"


def _first_page(entry: Any) -> str:
    """The page a nav entry opens first: a page, or a section's first page (its index)."""
    if isinstance(entry, str):
        return entry
    (value,) = entry.values() if isinstance(entry, dict) else (entry,)
    return _first_page(value[0]) if isinstance(value, list) else _first_page(value)


def sections() -> list[tuple[str, str]]:
    """(title, page) of each top-level nav entry of mkdocs.yml."""
    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]
    return [(next(iter(entry)), _first_page(entry)) for entry in nav]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("docs-site")
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(out)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    return out


def _open(browser: Browser, site: Path, page: str) -> str:
    html = site / (page.removesuffix(".md") + ".html")
    browser.driver.get(html.as_uri())
    WebDriverWait(browser.driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "article h1"))
    return str(browser.driver.find_element(By.CSS_SELECTOR, "article h1").text)


def _outside(browser: Browser, site: Path) -> list[str]:
    return [url for url in browser.requests() if not url.startswith((site.as_uri() + "/", "data:", "blob:"))]


def test_the_nav_has_the_sections_of_the_docs() -> None:
    titles = [title for title, _ in sections()]
    assert titles == ["Home", "Tutorial", "How-to guides", "Explanation", "Reference", "Compared with"]


@pytest.mark.parametrize(("title", "page"), sections(), ids=[title for title, _ in sections()])
def test_each_section_renders_offline(browser: Browser, site: Path, title: str, page: str) -> None:
    source = (ROOT / "docs" / page).read_text(encoding="utf-8")
    heading = next(line[2:].strip() for line in source.splitlines() if line.startswith("# "))
    shown = _open(browser, site, page)
    assert shown.startswith(heading), f"{page}: the page shows {shown!r}, not its title {heading!r}"
    assert browser.driver.title.endswith("gluecat"), browser.driver.title
    tabs = browser.driver.find_elements(By.CSS_SELECTOR, "nav.md-nav--primary a")
    assert len(tabs) >= len(sections()), "the navigation is drawn"
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.driver.save_screenshot(str(SHOTS / f"{page.removesuffix('.md').replace('/', '-')}.png"))
    assert _outside(browser, site) == [], "the page asked the network for something"
    errors = [entry for entry in browser.console() if entry.get("level") == "SEVERE"]
    assert errors == []


def test_search_works_from_disk(browser: Browser, site: Path) -> None:
    _open(browser, site, "index.md")
    browser.driver.find_element(By.TAG_NAME, "body").send_keys("/")  # the theme's search shortcut
    box = browser.driver.find_element(By.CSS_SELECTOR, "input.md-search__input")
    WebDriverWait(browser.driver, 10).until(lambda d: box.is_displayed())
    box.send_keys("projection")
    WebDriverWait(browser.driver, 15).until(lambda d: d.find_elements(By.CSS_SELECTOR, "li.md-search-result__item"))
    results = browser.driver.find_elements(By.CSS_SELECTOR, "li.md-search-result__item a")
    assert any("partitions.html" in (a.get_attribute("href") or "") for a in results)
    assert _outside(browser, site) == []
