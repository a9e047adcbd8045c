"""The HTML renderer: values by kind, escaping, self-containment, figures as well-formed SVG."""
from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest
from html_pages import EVIL, MODELS, SYSTEMS, sample_page
from hypothesis import given, settings
from hypothesis import strategies as st

from ts_eval.output.renderers import html, svg
from ts_eval.output.renderers.html import sort_key
from ts_eval.output.values import interval as format_interval
from ts_eval.output.values import value as format_value


class Cells(HTMLParser):
    """Collects each table's cells (text, attributes) and all text of the page."""

    def __init__(self) -> None:
        super().__init__()
        self.tables, self.texts, self._cell = {}, [], None
        self._table = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self._table = self.tables.setdefault(a.get("data-table"), [])
        elif tag == "tr" and self._table is not None:
            self._table.append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell = {"attrs": a, "text": ""}
            self._table[-1].append(self._cell)

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data):
        self.texts.append(data)
        if self._cell is not None:
            self._cell["text"] += data


@pytest.fixture(scope="module")
def page() -> str:
    return html.render(sample_page())


@pytest.fixture(scope="module")
def parsed(page) -> Cells:
    p = Cells()
    p.feed(page)
    return p


@pytest.mark.parametrize("value, kind, text", [
    (0.8876, "score", "88.76"), (0.005, "score", "0.50"), (-0.0123, "signed", "-1.23"), (0.02, "signed", "+2.00"),
    (12, "count", "12"), (12.5, "count", "12.5"), (3.0, "rank", "3"), (2.5, "rank", "2.5"),
    (0.8974, "corr", "0.897"), (0.0004, "p", "4.0e-04"), (0.25, "p", "0.250"), (float("nan"), "score", "n/a"),
    (None, "score", ""), (87.5, "percent", "87.50"), ("n/a because", "score", "n/a because"), ("<x>", "text", "<x>"),
    (123456.0, "number", "123456"),
])
def test_values_are_written_by_kind(value, kind, text):
    assert format_value(value, kind) == text


def test_intervals_and_sort_keys():
    assert format_interval(0.871, 0.883, "score") == "87.10–88.30"
    assert format_interval(None, 0.883, "score") == ""
    assert sort_key(0.8876) == "0.8876" and sort_key(float("nan")) == "" and sort_key("a") == "a"


def test_leaderboard_cells_show_value_interval_counts_and_style(parsed):
    rows = parsed.tables["leaderboard"]
    header, first = rows[1], rows[2]                  # rows[0]: the column group row
    assert [c["text"] for c in rows[0]] == ["", "scores", ""]
    assert rows[0][1]["attrs"]["colspan"] == "3"
    assert [c["text"].split(" ")[0] for c in header] == ["#", "system"] + MODELS + ["group"]
    assert len(rows) == 2 + len(SYSTEMS)
    cell = first[2]
    assert cell["text"] == "88.7688.16–89.26"         # value, then the interval in its own span
    assert cell["attrs"]["data-sort"] == "0.8876"
    assert cell["attrs"]["title"] == "tp 5000 · fp 300 · fn 420"
    assert "s-best" in cell["attrs"]["class"] and "k-score" in cell["attrs"]["class"]
    assert [r[1]["text"] for r in rows[2:]] == SYSTEMS  # names come back exactly, escaping undone by the parser


def test_everything_is_escaped(page, parsed):
    assert "<b>" not in page.replace("<b>&amp;", "")  # never raw
    assert "&lt;b&gt;&amp;&#34;x&#39;&lt;/b&gt;" in page
    assert any(EVIL in t for t in parsed.texts)       # the title, the summary, the command, the SVG labels


def test_the_page_is_self_contained(page):
    assert not re.search(r"<(link|img|iframe|object|embed)\b", page)
    assert not re.search(r"\b(src|href)=\"(?!#)", page)  # only in-page anchors
    assert "@import" not in page and not re.search(r"url\((?!#)", page)   # only in-page references
    assert set(re.findall(r"https?://[^\s\"'<>]+", page)) <= {"http://www.w3.org/2000/svg"}
    assert "@media print" in page and 'name="viewport"' in page


def test_meta_shows_the_command_line_and_settings(page, parsed):
    cmd = "ts-eval rank --gold gold.iob2 " + "'" + EVIL.replace("'", "'\"'\"'") + ".conll'"
    assert cmd in "".join(parsed.texts)
    assert '<details class="meta"' in page and "bootstrap" in page


def test_detail_sections_are_folded_unless_asked(page):
    assert '<details class="section detail"' in page and 'detail" id="section-3">' in page
    assert '<details class="section detail" id="section-3" open>' in html.render(sample_page(), open_details=True)


def _svgs(page):
    return {m.group(1): ET.fromstring(m.group(0))
            for m in re.finditer(r'<svg [^>]*id="fig-([^"]+)".*?</svg>', page, re.S)}


NS = "{http://www.w3.org/2000/svg}"


def test_figures_are_well_formed_svg_with_their_marks(page):
    figs = _svgs(page)
    assert set(figs) == {"bump", "spearman", "labels", "fair", "lb"}
    bump = figs["bump"]
    assert len(bump.findall(f".//{NS}polyline")) == len(SYSTEMS)
    assert len(bump.findall(f".//{NS}circle")) == len(SYSTEMS) * len(MODELS)
    names = [t.text for t in bump.iter(f"{NS}text")]
    assert f"3. {EVIL}" in names and "1. task2003-florian" in names
    cells = figs["spearman"].findall(f".//{NS}g[@class='cell']")
    assert len(cells) == 9
    texts = [[t.text for t in c.iter(f"{NS}text")] for c in cells]
    assert texts[1] == ["0.800", "0.700–0.850"] and texts[5] == ["-0.200", "-0.300–-0.150"]
    assert len(figs["fair"].findall(f".//{NS}g[@class='row']")) == len(SYSTEMS)
    assert [t.text for t in figs["fair"].iter(f"{NS}text") if t.get("class") == "value"] == ["35", "34", "40", "39"]
    groups = [t.text for t in figs["lb"].iter(f"{NS}text") if t.get("class") == "group"]
    assert groups == ["group 1", "group 2"]
    assert [t.text for t in figs["labels"].iter(f"{NS}text") if t.get("class") == "value"] == ["91.00", "95.00"]


def test_heatmap_colours_diverge_around_zero():
    assert svg.colour(0.0, -1, 1) == (247, 247, 247)
    assert svg.colour(1.0, -1, 1) == (33, 102, 172)
    assert svg.colour(-1.0, -1, 1) == (178, 24, 43)
    assert svg.colour(0.0, 0, 10) == (247, 251, 255)      # sequential from white


@pytest.mark.parametrize("lo, hi, ticks", [
    (0.0, 1.0, [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]),
    (0.845, 0.893, [0.85, 0.86, 0.87, 0.88, 0.89]),
    (0.0, 437.0, [0.0, 100.0, 200.0, 300.0, 400.0]),
])
def test_nice_ticks(lo, hi, ticks):
    got = svg.nice_ticks(lo, hi)
    assert len(got) == len(ticks) and all(math.isclose(a, b) for a, b in zip(got, ticks))


def test_the_one_entry_point_renders_html():
    from ts_eval.output.renderers import render

    assert render(sample_page(), "html") == html.render(sample_page())
    assert '<details class="section detail" id="section-3" open>' in render(sample_page(), "html", details=True)


def test_empty_tables_and_figures_render():
    from ts_eval.output.page import Cell, Column, Figure, Page, Section, Table

    nan = float("nan")
    blocks = [Table("empty", "Empty", [Column("a", "A")], []),
              Figure("b", "B", "bump", {"models": [], "systems": [], "ranks": []}),
              Figure("h", "H", "heatmap", {"rows": ["x"], "columns": ["y"], "values": [[nan]], "low": None,
                                           "high": None, "kind": "corr", "range": [-1, 1]}),
              Figure("i", "I", "intervals", {"labels": ["s"], "values": [nan], "low": [None], "high": [None],
                                             "kind": "score", "groups": None}),
              Figure("s", "S", "stacked_bars", {"labels": [], "parts": ["FP"], "values": []}),
              Figure("r", "R", "bars", {"labels": ["a"], "values": [None], "kind": "count"}),
              Table("one", "One", [Column("a", "A")], [[Cell(nan, "score")]])]
    page = html.render(Page("score", "empty", [Section("s", blocks)]))
    assert len(_svgs(page)) == 5
    assert "n/a" in page                                   # NaN is undefined, never a number


names = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12)


@settings(max_examples=40, deadline=None)
@given(st.lists(names, min_size=2, max_size=4, unique=True))
def test_any_system_name_comes_back_exactly(systems):
    from ts_eval.output.page import Cell, Column, Figure, Page, Section, Table

    t = Table("t", "T", [Column("s", "system"), Column("f", "F")], [[Cell(s), Cell(0.5, "score")] for s in systems])
    f = Figure("b", "B", "bump", {"models": ["m1", "m2"], "systems": systems, "ranks": [[k + 1, k + 1] for k in
                                                                                       range(len(systems))]})
    page = html.render(Page("rank", systems[0], [Section(systems[1], [t, f])]))
    p = Cells()
    p.feed(page)
    assert [row[0]["text"] for row in p.tables["t"][1:]] == systems
    svg_names = [t.text for t in _svgs(page)["b"].iter(f"{NS}text") if t.get("class") == "name"]
    assert svg_names == [f"{k + 1}. {s}" for k, s in enumerate(systems) for _ in range(2)]


def test_a_matrix_table_is_folded_under_its_heatmap():
    from ts_eval.output.page import Cell, Column, Figure, Page, Section, Table

    t = Table("m", "Spearman", [Column("r", ""), Column("a", "a")], [[Cell("a"), Cell(1.0, "corr")]], sortable=False)
    f = Figure("m-heatmap", "Spearman", "heatmap", {"rows": ["a"], "columns": ["a"], "values": [[1.0]], "low": None,
                                                    "high": None, "kind": "corr", "range": [-1, 1]})
    other = Table("n", "Other", [Column("r", "")], [[Cell("x")]])
    page = html.render(Page("rank", "x", [Section("s", [t, f, other])]))
    assert page.index('id="fig-m-heatmap"') < page.index('<details class="as-table">') < page.index('data-table="m"')
    assert page.index('data-table="m"') < page.index('data-table="n"')
    assert page.count('<details class="as-table">') == 1   # only a table whose heatmap follows it


def test_an_example_sentence_marks_its_spans_and_changed_tokens():
    data = {"role": "A", "tokens": ["Karl", "<Richter>", "in", "New", "York"],
            "spans": [["PER", 0, 2], ["LOC", 3, 5], ["GPE", 4, 5]], "focus": [1], "clipped_left": True,
            "clipped_right": False}
    assert str(html.sentence(data)) == (
        '<span class="clip">…</span> <mark class="span" data-label="PER">Karl <b class="focus">&lt;Richter&gt;</b>'
        '<sub class="label">PER</sub></mark> in <mark class="span" data-label="LOC">New '
        '<mark class="span" data-label="GPE">York<sub class="label">GPE</sub></mark>'
        '<sub class="label">LOC</sub></mark>')
    crossing = {"tokens": ["a", "b", "c"], "spans": [["X", 0, 2], ["Y", 1, 3]]}   # Y is cut at X's end
    assert str(html.sentence(crossing)).count("</mark>") == 2


def test_example_cells_are_drawn_as_sentences_side_by_side():
    """A table of example sentences is shown as records, as in the terminal: a line of the short cells,
    then the sentences side by side, under a legend of how the page marks them (not the note, which
    says how the cells' text reads)."""
    from ts_eval.output.page import Cell, Column, Page, Section, Table

    cells = [Cell("[Karl]PER", data={"role": role, "tokens": ["Karl"], "spans": [["PER", 0, 1]], "focus": [0]})
             for role in ("gold", "A")]
    t = Table("e", "Examples", [Column("n", "example"), Column("c", "class"), Column("g", "gold"), Column("a", "A")],
              [[Cell(1, "count"), Cell("Corrections"), *cells]], note="spans as [tokens]LABEL")
    page = html.render(Page("compare", "x", [Section("Examples", [t])]))
    assert '<p class="record-head">example 1 · Corrections</p>' in page
    assert '<div class="sides" style="--sides: 2">' in page
    assert page.index('class="side role-gold"') < page.index('class="side role-A"')
    karl = '<mark class="span" data-label="PER"><b class="focus">Karl</b><sub class="label">PER</sub></mark>'
    assert page.count(karl) == 2
    assert "<table" not in page and "[tokens]LABEL" not in page and "Spans are <mark" in page
    assert "<h3>" not in page                      # the section's heading names it


def test_titles_wrap_at_spaces_and_a_pair_of_names_may_wrap():
    """Column titles may wrap at their spaces, never inside a hyphenated word; a row named by two
    names (a pair) marks its table so its names may wrap; the legend of sentences drawn without
    roles, focus or cut windows says only what the page marks."""
    from ts_eval.output.page import Cell, Column, Page, Section, Table

    t = Table("p", "Pairs", [Column("a", "A"), Column("b", "B"), Column("k", "kappa multi-class"),
                             Column("s", "Seg-F1µ")], [[Cell("x"), Cell("y"), Cell(0.5, "corr"), Cell(0.5, "score")]],
              key_columns=2)
    one = Table("q", "One", [Column("a", "A"), Column("k", "kappa")], [[Cell("x"), Cell(0.5, "corr")]])
    page = html.render(Page("agree", "x", [Section("S", [t, one])]))
    assert '>kappa <span class="word">multi-class</span></th>' in page
    assert '><span class="word">Seg-F1µ</span></th>' in page
    assert '<table class="names" data-table="p">' in page and '<table data-table="q">' in page
    sides = [Cell("[a]X", data={"tokens": ["a", "b"], "spans": [["X", 0, 1]]}), Cell("-", data={"tokens": ["a", "b"],
                                                                                                 "spans": []})]
    rec = Table("d", "Disagreements", [Column("n", "sentence"), Column("u", "ann1"), Column("v", "ann2")],
                [[Cell(1, "count"), *sides]])
    page = html.render(Page("agree", "x", [Section("D", [rec])]))
    assert "with their label after them.</p>" in page
    assert "gold and each system" not in page and "bold and underlined" not in page and "window cuts" not in page
