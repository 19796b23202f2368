"""`gluecat docs` of a large catalog: the build's CPU and memory, and how soon headless Chromium can use
the first page and a table's page, against the floors the site is held to.

    python bench/docs_site.py --tables 10000 --views 500

The catalog is bench/catalog_scale.py's (`--tables` table files in databases of 1,000) plus `--views`
views, each joining two of its tables. The build runs in a fresh process (its CPU is user + system,
its memory the peak RSS). The site is then opened from disk in Debian's headless Chromium, `--runs`
times in a fresh browser each: the time from asking for the page until its main panel shows its
content (the home page's list of databases; a table's columns; its database's first page of rows;
the first search result for a column name), medians printed beside each run. Floors: 30 s of CPU
for the build, 2 s to the first page.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from catalog_scale import FILES_PER_DATABASE, build, gluecat, measure

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' browser set-up

BUILD_FLOOR_CPU = 30.0
FIRST_PAGE_FLOOR = 2.0

VIEW = """\
format: view
dialect: athena
sql: |
  SELECT a.id, b.amount, a.created
  FROM db{db}.t{left:06d} a JOIN db{db}.t{right:06d} b ON a.id = b.id
columns:
  - {{name: id, type: bigint}}
  - {{name: amount, type: "decimal(12,2)"}}
  - {{name: created, type: timestamp}}
"""


def add_views(root: Path, tables: int, views: int) -> None:
    for index in range(views):
        left = (index * 2) % tables
        right = min(left + 1, tables - 1)
        db = left // FILES_PER_DATABASE
        if right // FILES_PER_DATABASE != db:
            right = left
        path = root / f"db{db}" / "tables" / f"v{index:05d}.yaml"
        path.write_text(VIEW.format(db=db, left=left, right=right))


def _until(driver: Any, check: str, seconds: float = 60) -> float:
    """Seconds until the script `check` returns true, polled every 10 ms."""
    started = time.perf_counter()
    while not driver.execute_script(check):
        if time.perf_counter() - started > seconds:
            raise SystemExit(f"the page did not get ready in {seconds:.0f} s ({check})")
        time.sleep(0.01)
    return time.perf_counter() - started


def _main_holds(text: str) -> str:
    return f"const m = document.getElementById('main'); return !!m && m.innerText.includes({text!r});"


def browse(site: Path, table: str, column: str) -> dict[str, float]:
    from selenium.webdriver.common.by import By

    from tests.browser.conftest import open_browser

    driver = open_browser()
    try:
        figures: dict[str, float] = {}
        started = time.perf_counter()
        driver.get((site / "index.html").as_uri())  # returns once the document and its scripts have loaded
        figures["first page"] = time.perf_counter() - started + _until(driver, _main_holds("tables and views"))
        driver.execute_script(f"location.hash = {f'#/t/{table}'!r}")
        figures["table page"] = _until(driver, _main_holds("Columns"))
        database = table.split(".")[0]
        driver.execute_script(f"location.hash = {f'#/db/{database}'!r}")
        figures["database page"] = _until(driver, _main_holds("(page 1 of"))
        driver.execute_script("location.hash = ''")
        _until(driver, _main_holds("tables and views"))
        started = time.perf_counter()
        driver.find_element(By.ID, "search").send_keys(column)
        hit = "document.querySelector('#results a') !== null"
        figures["search"] = time.perf_counter() - started + _until(driver, f"return {hit};")
        return figures
    finally:
        driver.quit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10000)
    parser.add_argument("--views", type=int, default=500)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--small", action="store_true", help="a quick run at a small size (CI)")
    options = parser.parse_args()
    if options.small:
        options.tables, options.views, options.runs = 300, 20, 1
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "catalog"
        root.mkdir()
        build(root, options.tables, 0, None)
        add_views(root, options.tables, options.views)
        site = Path(tmp) / "site"
        cpu, rss, wall, _ = measure(gluecat("docs", str(root), "--out", str(site)))
        verdict = "under" if cpu < BUILD_FLOOR_CPU else "OVER"
        print(
            f"build: {options.tables:,} tables + {options.views:,} views: {cpu:.1f} s CPU ({verdict} the"
            f" {BUILD_FLOOR_CPU:.0f} s floor), {wall:.1f} s wall, {rss:.0f} MB peak;"
            f" {sum(1 for _ in site.rglob('*')):,} files written"
        )
        from tests.browser.conftest import chromium_paths

        if chromium_paths() is None:
            print("browser: chromium and chromedriver are not installed (apt-get install chromium chromium-driver)")
            return
        table = f"db{(options.tables - 1) // FILES_PER_DATABASE}.t{options.tables - 1:06d}"
        runs = [browse(site, table, "amount") for _ in range(options.runs)]
        for name in runs[0]:
            each = [run[name] for run in runs]
            median = statistics.median(each)
            floor = f" ({'under' if median < FIRST_PAGE_FLOOR else 'OVER'} the {FIRST_PAGE_FLOOR:.0f} s floor)"
            print(
                f"browser: {name}: median {median:.2f} s{floor if name == 'first page' else ''};"
                f" runs {', '.join(f'{f:.2f}' for f in each)}"
            )


if __name__ == "__main__":
    main()
