"""HTML pages opened in a real browser (headless Chromium through selenium): no console errors,
one leaderboard row per system, the SVG charts present, sorting by a header click, and no
sideways scrolling of the page itself on a phone (wide tables scroll inside their box).

Skipped, with the reason, when Chromium, chromedriver or selenium is missing; ``.ci/run``
installs them.
"""
from __future__ import annotations

from pathlib import Path
from typing import Dict

import browser
import pages
import pytest
from html_pages import SYSTEMS, sample_page

from ts_eval.output.renderers import html

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(bool(browser.missing()), reason=browser.missing() or "browser present")]


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
    made = {"handmade": (sample_page, "leaderboard", len(SYSTEMS)), **pages.PAGES,
            "rank16": (pages.rank16, "lb-task-exact-f1-micro", 16), "agree3": (pages.agree_long_names, "pairs", 3)}
    for kind, (make, table, n) in made.items():
        path = folder / f"{kind}.html"
        path.write_text(html.render(make()), encoding="utf-8")
        out[kind] = (path, table, n)
    return out


def _load(drv, path: Path) -> None:
    browser.load(drv, path)


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
LAYOUT_KINDS = [*KINDS, "rank16", "agree3"]


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
    "rank_runs": {"bump", "heatmap", "intervals"},
    "score": {"heatmap", "bars"},
    "fair": {"heatmap", "bars"},
    "compare": {"heatmap", "bars"},
    "germeval": {"stacked_bars"},
    "analyze": {"grouped_bars"},
    "generated": {"heatmap", "bars"},
    "agree": {"heatmap"},
}


@pytest.mark.parametrize("kind", KINDS)
def test_page_has_its_charts(drv, files, kind):
    path, _, _ = files[kind]
    _load(drv, path)
    kinds = drv.execute_script("return Array.from(document.querySelectorAll('svg.chart')).map(s => s.classList[1])")
    assert {k.replace("chart-", "") for k in kinds} >= CHARTS[kind]


@pytest.mark.parametrize("kind", KINDS)
def test_clicking_a_header_sorts_the_table(drv, files, kind):
    path, table, _n = files[kind]
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
    path, _table, _ = files[kind]
    _open(drv, path, width=390)
    drv.execute_script("document.querySelectorAll('details').forEach(d => { d.open = true; })")   # folded parts too
    # the page itself never scrolls sideways (on a phone the layout viewport would grow to the
    # content, so compare with the device width, not window.innerWidth)
    assert drv.execute_script("return document.documentElement.scrollWidth") <= 390
    wraps = drv.execute_script("return Array.from(document.querySelectorAll('.table-wrap, .figure-wrap')).map(w => "
                               "[w.scrollWidth > w.clientWidth, getComputedStyle(w).overflowX])")
    assert any(wide for wide, _ in wraps) and all(ov == "auto" for _, ov in wraps)
    browser.set_width(drv, 1280)


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("kind", LAYOUT_KINDS)
def test_layout_rules_hold_at_desktop_and_phone_widths(drv, files, kind, width):
    """Each id once; no sideways scrolling of the page; a table fits its box, or its box takes the
    window's width and scrolled to its end still shows the first column (see browser.LAYOUT_RULES);
    every mark of an interval chart in view."""
    path, _, _ = files[kind]
    _open(drv, path, width)
    assert browser.layout_problems(drv, width) == []
    browser.set_width(drv, 1280)


def test_a_wide_table_takes_the_window_width_on_a_desktop(drv, files):
    """A table wider than the text column even with its column titles wrapped (score's fair error
    types) grows into the window's margins (centred on the column) instead of scrolling in the
    column's width; the summary, which fits once its titles wrap, stays in the column; a narrow table
    keeps to the left."""
    _open(drv, files["score"][0], 1280)
    main, wide, summary, narrow = drv.execute_script(
        "const r = s => document.querySelector(s).getBoundingClientRect();"
        "const m = getComputedStyle(document.querySelector('main'));"
        "const c = r('main'); "
        "const left = c.left + parseFloat(m.paddingLeft), right = c.right - parseFloat(m.paddingRight);"
        "const box = s => [r(s + ' .table-wrap').left, r(s + ' .table-wrap').right];"
        "return [[left, right], box('#table-fair-gen-ap_rich_dev'), box('#table-summary'),"
        "        box('#table-token-accuracy')]")
    assert wide[0] < main[0] - 40 and wide[1] > main[1] + 40 and wide[0] >= 16 - 0.5 and wide[1] <= 1280 - 16 + 0.5
    assert abs((wide[0] + wide[1]) / 2 - (main[0] + main[1]) / 2) < 1
    assert abs(summary[0] - main[0]) < 1 and summary[1] <= main[1] + 0.5
    assert abs(narrow[0] - main[0]) < 1 and narrow[1] < main[1]


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("kind", ["agree", "agree3"])
def test_every_table_of_the_agree_page_stays_in_the_text_column(drv, files, kind, width):
    """The agree page of five annotators (every disagreement listed) and of three with names as long as
    GermEval 2014's runs: each table's box and the disagreements (one record per disagreement, the
    annotators side by side) inside the text column at a desktop's and a phone's width; a wide table
    scrolls in its box on the phone."""
    path, _, _ = files[kind]
    _open(drv, path, width)
    assert drv.execute_script(browser.OUT_OF_COLUMN) == []
    assert drv.execute_script("return document.querySelectorAll('#table-disagreements .record').length") > 0
    browser.set_width(drv, 1280)


def test_every_mark_of_the_rank_interval_chart_is_in_view_on_a_phone(drv, files):
    path, _, n = files["rank16"]
    _open(drv, path, 390)
    points = drv.execute_script("return document.querySelectorAll('svg.chart-intervals circle.point').length")
    assert points >= n                         # the leaderboard's chart (and one per model in the details)
    assert drv.execute_script(browser.MARKS_OUT_OF_VIEW, 390) == []
    browser.set_width(drv, 1280)


def test_examples_show_gold_a_and_b_side_by_side_on_a_desktop_and_stacked_on_a_phone(drv, files):
    path, _, _ = files["compare"]
    for width in (1280, 390):
        _open(drv, path, width)
        boxes = drv.execute_script(
            "return Array.from(document.querySelector('#table-examples .record .sides').children)"
            ".map(s => { const b = s.getBoundingClientRect(); return [b.left, b.right, b.top, s.className]; })")
        assert [b[3] for b in boxes] == ["side role-gold", "side role-A", "side role-B"]
        assert all(b[0] >= 0 and b[1] <= width for b in boxes)
        if width == 1280:
            assert len({b[2] for b in boxes}) == 1 and boxes[0][1] <= boxes[1][0] and boxes[1][1] <= boxes[2][0]
        else:
            assert boxes[0][2] < boxes[1][2] < boxes[2][2]
    browser.set_width(drv, 1280)


@pytest.mark.parametrize("kind", KINDS)
def test_no_block_heading_repeats_its_section_heading(drv, files, kind):
    path, _, _ = files[kind]
    _load(drv, path)
    repeats = drv.execute_script(
        "const out = []; document.querySelectorAll('.section').forEach(s => {"
        "  const h = s.querySelector('h2').textContent.trim();"
        "  s.querySelectorAll('h3, figcaption').forEach(e => {"
        "    if (e.textContent.trim().startsWith(h)) { out.push(h + ' / ' + e.textContent.trim()); } }); });"
        "return out;")
    assert repeats == []


def test_the_rank_shift_legend_names_the_colours_its_cells_have(drv, files):
    path, _, _ = files["rank"]
    _open(drv, path)
    note, up, down = drv.execute_script(
        "const t = document.querySelector('#table-shifts-task');"
        "const rgb = c => c && getComputedStyle(c).color.match(/\\d+/g).map(Number);"
        "return [t.querySelector('.note').textContent, rgb(t.querySelector('td.s-up')), "
        "rgb(t.querySelector('td.s-down'))];")
    assert "green (up)" in note and "red (down)" in note
    assert up[1] > up[0] and up[1] > up[2]          # green
    assert down[0] > down[1] and down[0] > down[2]  # red


#: per interval chart with runs: its rows' label boxes, interval lines, points, run dots and mean ticks (screen px)
STRIPS = r"""
const box = e => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
return Array.from(document.querySelectorAll('svg.chart-intervals')).filter(s => s.querySelector('circle.run'))
  .map(svg => Array.from(svg.querySelectorAll('g.row')).map(g => ({
    label: box(g.querySelector('text.axis')), iv: Array.from(g.querySelectorAll('line.iv')).map(box),
    point: box(g.querySelector('circle.point')), runs: Array.from(g.querySelectorAll('circle.run')).map(box),
    mean: box(g.querySelector('line.run-mean'))})));
"""


@pytest.mark.parametrize("width", [1280, 390])
def test_each_run_is_a_readable_dot_under_its_systems_interval(drv, files, width):
    """The rank page of four systems of four runs each (pages.rank_runs): every leaderboard's chart has a
    dot per run and a tick at the mean, each row's strip lies under its interval and above the next row's,
    right of the system's name, every dot in view and at least 4 px across even on a phone."""
    path, _, n = files["rank_runs"]
    _open(drv, path, width)
    drv.execute_script("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    charts = drv.execute_script(STRIPS)
    assert len(charts) == 10                      # the leaderboard of every default model
    for rows in charts:
        assert len(rows) == n and all(len(r["runs"]) == 4 for r in rows)
        for k, r in enumerate(rows):
            line_bottom = max(b[3] for b in r["iv"] + [r["point"]])
            assert all(d[1] >= line_bottom - 2 for d in r["runs"])            # under the interval (touching at most)
            assert all(d[0] > r["label"][2] for d in r["runs"] + [r["mean"]])  # right of the name
            assert all(d[2] - d[0] >= 4 for d in r["runs"])                   # readable on a phone
            if k + 1 < len(rows):
                nxt = min(b[1] for b in rows[k + 1]["iv"] + [rows[k + 1]["point"]])
                assert all(d[3] <= nxt for d in r["runs"] + [r["mean"]])      # above the next row's interval
    assert drv.execute_script(browser.MARKS_OUT_OF_VIEW, width) == []
    assert _errors(drv) == []
    browser.set_width(drv, 1280)
