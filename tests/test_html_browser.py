"""HTML pages opened in a real browser (headless Chromium through selenium): no console errors,
one leaderboard row per system, the SVG charts present, sorting by a header click, and no
sideways scrolling of the page itself on a phone (wide tables scroll inside their box).

Skipped, with the reason, when Chromium, chromedriver or selenium is missing; ``.ci/run``
installs them.
"""
from __future__ import annotations

from pathlib import Path
from typing import Dict

import pytest

import browser
from html_documents import SYSTEMS, document
from ts_eval.renderers import html

pytestmark = pytest.mark.skipif(bool(browser.missing()), reason=browser.missing() or "browser present")


@pytest.fixture(scope="module")
def drv():
    d = browser.driver()
    yield d
    d.quit()


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> Dict[str, Path]:
    """Page kind -> (file, leaderboard table id, number of systems)."""
    folder = tmp_path_factory.mktemp("pages")
    out = {}
    for kind, (doc, table, n) in {"handmade": (document(), "leaderboard", len(SYSTEMS))}.items():
        path = folder / f"{kind}.html"
        path.write_text(html.render(doc), encoding="utf-8")
        out[kind] = (path, table, n)
    return out


def _open(drv, path: Path, width: int = 1280):
    browser.set_width(drv, width)
    drv.get(path.as_uri())
    drv.get_log("browser")              # drop anything logged before this page


def _errors(drv):
    return [e for e in drv.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]


def _column(drv, table: str, col: int):
    return drv.execute_script(
        "return Array.from(document.querySelector('table[data-table=\"' + arguments[0] + '\"]').tBodies[0].rows)"
        ".map(r => r.cells[arguments[1]].getAttribute('data-sort'))", table, col)


KINDS = ["handmade"]


@pytest.mark.parametrize("kind", KINDS)
def test_page_opens_without_console_errors_and_shows_its_parts(drv, pages, kind):
    path, table, n = pages[kind]
    drv.get(path.as_uri())
    assert drv.execute_script("return document.readyState") == "complete"
    assert drv.execute_script("return document.documentElement.classList.contains('js')")   # the script ran
    rows = drv.execute_script(
        "return document.querySelector('table[data-table=\"' + arguments[0] + '\"]').tBodies[0].rows.length", table)
    assert rows == n
    charts = drv.execute_script("return Array.from(document.querySelectorAll('svg.chart')).map(s => "
                                "[s.classList[1], s.getBoundingClientRect().width > 0])")
    assert charts and all(visible for _, visible in charts)
    assert _errors(drv) == []


def test_rank_page_has_every_chart(drv, pages):
    path, _, _ = pages["handmade"]
    drv.get(path.as_uri())
    kinds = set(drv.execute_script("return Array.from(document.querySelectorAll('svg.chart')).map(s => s.classList[1])"))
    assert kinds == {"chart-bump", "chart-heatmap", "chart-bars", "chart-stacked_bars", "chart-intervals"}


@pytest.mark.parametrize("kind", KINDS)
def test_clicking_a_header_sorts_the_table(drv, pages, kind):
    path, table, n = pages[kind]
    _open(drv, path)
    heads = drv.find_elements("css selector", f'table[data-table="{table}"] thead tr:last-child th')
    col = next(j for j, h in enumerate(heads) if "num" in h.get_attribute("class") and j > 0)
    before = _column(drv, table, col)
    heads[col].click()
    up = _column(drv, table, col)
    assert up == sorted(before, key=float) and heads[col].get_attribute("aria-sort") == "ascending"
    heads[col].click()
    assert _column(drv, table, col) == sorted(before, key=float, reverse=True)
    assert heads[col].get_attribute("aria-sort") == "descending"
    heads[1].click()                                        # a text column sorts as text
    names = _column(drv, table, 1)
    assert names == sorted(names, key=str.lower)
    assert _errors(drv) == []


@pytest.mark.parametrize("kind", KINDS)
def test_a_phone_scrolls_wide_tables_inside_their_box(drv, pages, kind):
    path, table, _ = pages[kind]
    _open(drv, path, width=390)
    width = drv.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1]                             # the page itself never scrolls sideways
    wraps = drv.execute_script("return Array.from(document.querySelectorAll('.table-wrap, .figure-wrap')).map(w => "
                               "[w.scrollWidth > w.clientWidth, getComputedStyle(w).overflowX])")
    assert any(wide for wide, _ in wraps) and all(ov == "auto" for _, ov in wraps)
    browser.set_width(drv, 1280)
