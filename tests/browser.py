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


def load(drv, path, timeout: float = 30.0) -> None:
    """Open the file ``path`` and wait (up to ``timeout`` s) until the document has loaded: on a busy
    machine ``get`` has returned while the document was still 'loading' (seen in full CI runs); the
    callers then assert readyState, so a page that never loads still fails."""
    import time
    from pathlib import Path

    drv.get(Path(path).as_uri())
    deadline = time.monotonic() + timeout
    while drv.execute_script("return document.readyState") != "complete" and time.monotonic() < deadline:
        time.sleep(0.05)


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


#: the layout rules every page keeps at any width (one script, run in the page): each id once; the
#: page itself never scrolls sideways; a table either fits its box or its box is as wide as the
#: window allows and, scrolled to its far end, still shows each row's first cell (sticky) uncovered
LAYOUT_RULES = r"""
const width = arguments[0], out = [];
const seen = {};
document.querySelectorAll('[id]').forEach(e => { seen[e.id] = (seen[e.id] || 0) + 1; });
Object.entries(seen).filter(([k, n]) => n > 1).forEach(([k, n]) => out.push('id ' + k + ' ' + n + ' times'));
if (document.documentElement.scrollWidth > width) {
  out.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' px wide at ' + width);
}
document.querySelectorAll('.table-wrap').forEach(w => {
  const t = w.querySelector('table'), name = t.getAttribute('data-table');
  if (!w.offsetParent || t.scrollWidth <= w.clientWidth) { return; }
  const box = w.getBoundingClientRect();
  if (box.left < -0.5 || box.right > width + 0.5) { out.push(name + ': its box leaves the window'); }
  if (box.width < Math.min(t.scrollWidth, width - 32) - 1) {
    out.push(name + ': scrolls in a box of ' + Math.round(box.width) + ' px though the window has room');
  }
  w.scrollLeft = w.scrollWidth;
  const rows = [t.tHead && t.tHead.rows[t.tHead.rows.length - 1], t.tBodies[0].rows[0]].filter(r => r);
  rows.forEach(r => {
    const c = r.cells[0];
    window.scrollTo(0, c.getBoundingClientRect().top + window.scrollY - innerHeight / 2);   // the page only
    const b = c.getBoundingClientRect(), inner = w.getBoundingClientRect();
    const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    if (b.left < inner.left - 0.5 || b.right > inner.right + 0.5 || !(hit === c || c.contains(hit))) {
      out.push(name + ': the first column is out of view when the table is scrolled');
    }
  });
  w.scrollLeft = 0;
});
return out;
"""

#: the marks (points, interval bars, the dots of runs and their means) of the interval charts that lie
#: outside the window or are cut by their figure's box
MARKS_OUT_OF_VIEW = r"""
const width = arguments[0], out = [];
document.querySelectorAll('svg.chart-intervals').forEach(svg => {
  const box = svg.closest('.figure-wrap').getBoundingClientRect();
  svg.querySelectorAll('circle.point, line.iv, circle.run, line.run-mean').forEach(m => {
    const b = m.getBoundingClientRect();
    if (b.left < Math.max(0, box.left) - 0.5 || b.right > Math.min(width, box.right) + 0.5) {
      out.push((m.querySelector('title') || m.parentNode.querySelector('title')).textContent);
    }
  });
});
return out;
"""


#: the tables (their boxes) and records that reach out of the text column (main's content box),
#: every folded part opened: "name: left..right outside column left..right"
OUT_OF_COLUMN = r"""
document.querySelectorAll('details').forEach(d => { d.open = true; });
const m = document.querySelector('main'), cs = getComputedStyle(m), r = m.getBoundingClientRect();
const left = r.left + parseFloat(cs.paddingLeft), right = r.right - parseFloat(cs.paddingRight), out = [];
document.querySelectorAll('.table-wrap, .records-block').forEach(w => {
  if (!w.offsetParent) { return; }
  const b = w.getBoundingClientRect(), t = w.querySelector('table');
  const name = t ? t.getAttribute('data-table') : w.getAttribute('data-table');
  if (b.left < left - 0.5 || b.right > right + 0.5) {
    out.push(name + ': ' + Math.round(b.left) + '..' + Math.round(b.right) + ' outside column ' + Math.round(left)
             + '..' + Math.round(right));
  }
});
return out;
"""


def layout_problems(drv, width: int) -> list:
    """What breaks :data:`LAYOUT_RULES` on the open page (every folded part opened), one line each."""
    drv.execute_script("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    problems = drv.execute_script(LAYOUT_RULES, width) + [
        f"interval chart mark out of view: {m}" for m in drv.execute_script(MARKS_OUT_OF_VIEW, width)]
    drv.execute_script("window.scrollTo(0, 0)")
    return problems
