"""HTML pages opened in a real browser (headless Chromium through selenium): no console errors,
one leaderboard row per system, the SVG charts present, sorting by a header click, and no
sideways scrolling of the page itself on a phone (wide tables scroll inside their box).

Skipped, with the reason, when Chromium, chromedriver or selenium is missing; ``.ci/run``
installs them.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Dict

import pytest

import browser
import pages
from html_documents import SYSTEMS, document
from ts_eval.renderers import html

pytestmark = pytest.mark.skipif(bool(browser.missing()), reason=browser.missing() or "browser present")


@pytest.fixture(scope="module")
def drv():
    d = browser.driver()
    yield d
    d.quit()


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Dict[str, Path]:
    """Page kind -> (file, leaderboard table id, number of systems)."""
    folder = tmp_path_factory.mktemp("pages")
    out = {}
    made = {"handmade": (document, "leaderboard", len(SYSTEMS)), **pages.PAGES}
    for kind, (make, table, n) in made.items():
        path = folder / f"{kind}.html"
        path.write_text(html.render(make()), encoding="utf-8")
        out[kind] = (path, table, n)
    return out


def _load(drv, path: Path) -> None:
    """Open a page and wait (up to 30 s) until it has loaded: on a busy machine ``get`` has returned
    while the document was still 'loading' (seen once in a full run); a page that never loads fails."""
    drv.get(path.as_uri())
    deadline = time.monotonic() + 30
    while drv.execute_script("return document.readyState") != "complete" and time.monotonic() < deadline:
        time.sleep(0.05)


def _open(drv, path: Path, width: int = 1280):
    browser.set_width(drv, width)
    _load(drv, path)
    drv.get_log("browser")              # drop anything logged before this page


def _errors(drv):
    return [e for e in drv.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]


def _column(drv, table: str, col: int, totals: bool = False):
    """The raw values of column ``col`` top to bottom (rows marked total, which keep their place at
    the top or bottom, only if asked)."""
    return drv.execute_script(
        "return Array.from(document.querySelector('table[data-table=\"' + arguments[0] + '\"]').tBodies[0].rows)"
        ".filter(r => arguments[2] || !r.classList.contains('r-total'))"
        ".map(r => r.cells[arguments[1]].getAttribute('data-sort'))", table, col, totals)


def _totals(drv, table: str):
    return drv.execute_script(
        "return Array.from(document.querySelector('table[data-table=\"' + arguments[0] + '\"]').tBodies[0].rows)"
        ".map((r, k) => r.classList.contains('r-total') ? k : -1).filter(k => k >= 0)", table)


KINDS = ["handmade", *pages.PAGES]


@pytest.mark.parametrize("kind", KINDS)
def test_page_opens_without_console_errors_and_shows_its_parts(drv, files, kind):
    path, table, n = files[kind]
    _load(drv, path)
    assert drv.execute_script("return document.readyState") == "complete"
    assert drv.execute_script("return document.documentElement.classList.contains('js')")   # the script ran
    rows = drv.execute_script(
        "return document.querySelector('table[data-table=\"' + arguments[0] + '\"]').tBodies[0].rows.length", table)
    assert rows == n
    charts = drv.execute_script("return Array.from(document.querySelectorAll('svg.chart')).map(s => "
                                "[s.classList[1], s.getBoundingClientRect().width > 0])")
    assert charts and all(visible for _, visible in charts)
    assert _errors(drv) == []


CHARTS = {   # the charts each page must show
    "handmade": {"bump", "heatmap", "bars", "stacked_bars", "intervals"},
    "rank": {"bump", "heatmap", "stacked_bars", "intervals"},
    "score": {"heatmap", "bars"},
    "fair": {"heatmap", "bars"},
    "compare": {"heatmap", "bars"},
    "germeval": {"stacked_bars"},
}


@pytest.mark.parametrize("kind", KINDS)
def test_page_has_its_charts(drv, files, kind):
    path, _, _ = files[kind]
    _load(drv, path)
    kinds = drv.execute_script("return Array.from(document.querySelectorAll('svg.chart')).map(s => s.classList[1])")
    assert {k.replace("chart-", "") for k in kinds} >= CHARTS[kind]


@pytest.mark.parametrize("kind", KINDS)
def test_clicking_a_header_sorts_the_table(drv, files, kind):
    path, table, n = files[kind]
    _open(drv, path)
    heads = drv.find_elements("css selector", f'table[data-table="{table}"] thead tr:last-child th')
    col = next(j for j, h in enumerate(heads) if "num" in h.get_attribute("class") and j > 0)
    before, totals = _column(drv, table, col), _totals(drv, table)
    heads[col].click()
    up = _column(drv, table, col)
    assert up == sorted(before, key=float) and heads[col].get_attribute("aria-sort") == "ascending"
    heads[col].click()
    assert _column(drv, table, col) == sorted(before, key=float, reverse=True)
    assert heads[col].get_attribute("aria-sort") == "descending"
    assert _totals(drv, table) == totals                    # total rows keep their place
    text = next(j for j, h in enumerate(heads) if "txt" in h.get_attribute("class"))
    heads[text].click()                                     # a text column sorts as text
    names = _column(drv, table, text)
    assert names == sorted(names, key=str.lower)
    assert _errors(drv) == []


@pytest.mark.parametrize("kind", KINDS)
def test_a_phone_scrolls_wide_tables_inside_their_box(drv, files, kind):
    path, table, _ = files[kind]
    _open(drv, path, width=390)
    drv.execute_script("document.querySelectorAll('details').forEach(d => { d.open = true; })")   # folded parts too
    # the page itself never scrolls sideways (on a phone the layout viewport would grow to the
    # content, so compare with the device width, not window.innerWidth)
    assert drv.execute_script("return document.documentElement.scrollWidth") <= 390
    wraps = drv.execute_script("return Array.from(document.querySelectorAll('.table-wrap, .figure-wrap')).map(w => "
                               "[w.scrollWidth > w.clientWidth, getComputedStyle(w).overflowX])")
    assert any(wide for wide, _ in wraps) and all(ov == "auto" for _, ov in wraps)
    browser.set_width(drv, 1280)
