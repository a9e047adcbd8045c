"""Headless Chromium driven through selenium and Debian's chromedriver, for the browser tests
and scripts/screenshot.py.

selenium is the well-kept WebDriver client; it is given the chromedriver path itself, so its
driver manager never tries to download a browser or a driver (there is no network).
:func:`missing` says why no browser can be had (the tests skip with that reason).
"""
from __future__ import annotations

import os
import shutil
from typing import Optional

CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
DRIVER = ("chromedriver",)


def _which(names) -> Optional[str]:
    env = os.environ.get("TS_EVAL_CHROMIUM" if names is CHROMIUM else "TS_EVAL_CHROMEDRIVER")
    return env or next((p for p in map(shutil.which, names) if p), None)


def missing() -> str:
    """'' when a browser can be driven, else the reason (and how to get what is missing)."""
    try:
        import selenium  # noqa: F401
    except ImportError:  # pragma: no cover - depends on the machine
        return "selenium is not installed (pip install 'ts_eval[test]')"
    if not _which(CHROMIUM):
        return "chromium is not installed (apt-get install chromium chromium-driver)"
    if not _which(DRIVER):
        return "chromedriver is not installed (apt-get install chromium-driver)"
    return ""


def driver(width: int = 1280, height: int = 900):
    """A headless Chromium window of ``width`` x ``height`` CSS pixels, logging the console."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = _which(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--hide-scrollbars", f"--window-size={width},{height}", "--force-device-scale-factor=1"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=_which(DRIVER)), options=options)


def set_width(drv, width: int, height: int = 900) -> None:
    """Lay the page out as a device ``width`` CSS pixels wide (a phone: 390), below the
    window's own minimum width."""
    drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 700})


def full_page_png(drv, path: str, height: Optional[int] = None) -> None:
    """Screenshot of the whole page (not only the window; its top ``height`` pixels if given)
    as PNG, through the DevTools protocol."""
    import base64

    size = drv.execute_script("return [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    shot = drv.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": size[0], "height": min(size[1], height or size[1]), "scale": 1}})
    with open(path, "wb") as f:
        f.write(base64.b64decode(shot["data"]))
