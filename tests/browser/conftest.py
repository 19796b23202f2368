"""A real headless Chromium (Debian's chromium and chromium-driver) driven by selenium, recording the
network requests and console messages of every page it opens."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

# Screenshots of the main pages, kept as the tests' artifacts.
ARTIFACTS = Path(os.environ.get("GLUECAT_ARTIFACTS", Path(__file__).resolve().parents[2] / ".artifacts")) / "docs-site"


@dataclass
class Browser:
    driver: Any

    def requests(self) -> list[str]:
        """Every URL the browser asked for since the last call (Chrome DevTools' performance log)."""
        urls = []
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message["method"] == "Network.requestWillBeSent":
                urls.append(message["params"]["request"]["url"])
        return urls

    def console(self) -> list[dict[str, Any]]:
        return list(self.driver.get_log("browser"))

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.driver.save_screenshot(str(path))
        return path


def chromium_paths() -> tuple[str, str] | None:
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    return (binary, driver) if binary and driver else None


def open_browser(width: int = 1280, height: int = 860) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    found = chromium_paths()
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("chromium and chromedriver are not installed (apt-get install chromium chromium-driver)")
        pytest.skip("chromium and chromedriver are not installed (apt-get install chromium chromium-driver)")
    binary, driver = found
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={width},{height}", "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync"):  # fmt: skip
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(service=Service(driver), options=options)


@pytest.fixture
def browser() -> Iterator[Browser]:
    driver = open_browser()
    try:
        yield Browser(driver)
    finally:
        driver.quit()
