"""The terminal table without colours is written without rich, line for line as rich writes it (issue 22.3).

rich is the reference: every page of every result kind (tests/pages.py), the ranking of 28 systems
of test_renderers_text, hand-made tables for each layout step and generated tables are rendered both
ways at several widths and must be identical; pages the plain writer cannot draw as rich does (example
sentences, wide characters, a column rich would squeeze) must go through rich, so they are identical
too.  And ``ts-eval score FILE > out`` does not import rich at all.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pages import PAGES
from rich.cells import cell_len as rich_cell_len
from test_renderers_text import synthetic_corpus

import ts_eval
from ts_eval.output.builders import build
from ts_eval.output.page import Cell, Column, Page, Section, Table, Text
from ts_eval.output.renderers.text import NARROW, _NotPlain, _PlainLines, cell_len, narrow, print_page, render

WIDTHS = (40, 80, 120, 200)


def both(page: Page, width: int, details: bool = False) -> None:
    plain = render(page, width=width, details=details)
    assert plain == render(page, width=width, details=details, plain=False)


def plain_draws(page: Page, width: int, details: bool = False) -> bool:
    try:
        print_page(page, _PlainLines(width), details)
    except _NotPlain:
        return False
    return True


def test_every_narrow_code_point_is_one_cell_for_rich():
    for a, b in NARROW:
        wide = [hex(o) for o in range(a, b) if rich_cell_len(chr(o)) != 1]
        assert not wide, f"{hex(a)}-{hex(b)}: {wide[:10]}"


@pytest.mark.parametrize("s", ["", "abc", "TS µP", "κ 0.906", "87.84 [86.90–88.70]", "B-ORG → B-LOC · x", "名前",
                               "tab\there", "e\u0301", "a\u200bb", "😀"])
def test_cell_len_is_rich_s(s):
    assert cell_len(s) == rich_cell_len(s)
    if narrow(s):
        assert cell_len(s) == len(s)


@pytest.mark.parametrize("kind", sorted(PAGES))
@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_kind_is_written_as_rich_writes_it(kind, width):
    page = PAGES[kind][0]()
    for details in (False, True):
        both(page, width, details)


def test_the_score_page_is_drawn_without_rich():
    page = PAGES["score"][0]()
    for width in (80, 120, 200):
        assert plain_draws(page, width, details=True)


def test_a_ranking_of_28_systems_in_blocks_and_transposed():
    corpus = synthetic_corpus()
    page = build(ts_eval.rank(corpus, models=["ts-f1-micro", "exact-f1-micro"], bootstrap=20,
                                     permutations=20, seed=1))
    for width in WIDTHS:
        both(page, width, details=True)


def table(columns, rows, key_columns=1, note="", row_styles=()):
    return Table("t", "A table", [Column(f"c{j}", t) for j, t in enumerate(columns)], rows,
                 key_columns=key_columns, note=note, row_styles=list(row_styles))


def page_of(*blocks) -> Page:
    return Page("kind", "Title", [Section("Section", list(blocks))])


HAND = {
    "intervals inline or stacked": table(
        ["system", "F1", "long column title that wraps"],
        [[Cell("a"), Cell(0.8784, "score", low=0.869, high=0.887), Cell(12, "count")],
         [Cell("b"), Cell(0.5, "score", low=0.4, high=0.6), Cell(3, "count")]], row_styles=["total", None]),
    "common prefix": table(
        ["system"] + [f"model number {k}" for k in range(6)],
        [[Cell(f"task2003-participant-{k:02d}")] + [Cell(0.5 + k / 100, "score", low=0.4, high=0.7)
                                                    for _ in range(6)] for k in range(5)]),
    "transposed": table(
        ["system"] + [f"m{k}" for k in range(14)],
        [[Cell("only")] + [Cell(0.1 * (k % 9), "score") for k in range(14)]]),
    "blocks": table(
        ["system"] + [f"a long model name {k}" for k in range(12)],
        [[Cell(f"s{r}")] + [Cell(r * k, "count") for k in range(12)] for r in range(6)]),
    "wrapping text": table(
        ["label", "note"],
        [[Cell("PER"), Cell("a long explanation that wraps at spaces " * 4)], [Cell("LOC"), Cell("short")]]),
    "text that fits": table(["label", "note", "n"], [[Cell("PER"), Cell("short note"), Cell(3, "count")],
                                                     [Cell("LOC"), Cell("longer note here"), Cell(12, "count")]]),
    "empty": table(["system", "F1"], []),
    "wide characters": table(["system", "F1"], [[Cell("名前"), Cell(0.5, "score")]]),
    "spaces at the ends": table(["system", "F1"], [[Cell(" padded "), Cell(0.5, "score")]]),
    "empty cells": table(["system", "note"], [[Cell("a"), Cell("")], [Cell(""), Cell("x")]]),
    "two key columns": table(["system", "label", "F1"],
                             [[Cell("a"), Cell("PER"), Cell(0.5, "score")],
                              [Cell("b"), Cell("LOC"), Cell(1.0, "score")]], key_columns=2,
                             note="a note under the table, long enough to be wrapped at forty columns"),
}


@pytest.mark.parametrize("name", sorted(HAND))
@pytest.mark.parametrize("width", WIDTHS)
def test_hand_made_tables(name, width):
    both(page_of(Text("A paragraph of prose above the table, wrapped at spaces: /a/very/long/path/that/is/never/"
                      "cut/inside/a/word.conll:12"), HAND[name], Text("warning", "warning")), width)


def test_tables_rich_would_squeeze_or_that_hold_wide_characters_go_through_rich():
    assert not plain_draws(page_of(HAND["wrapping text"]), 40)
    assert not plain_draws(page_of(HAND["wide characters"]), 80)
    assert not plain_draws(page_of(HAND["spaces at the ends"]), 80)
    assert plain_draws(page_of(HAND["text that fits"]), 80)


texts = st.text(st.characters(min_codepoint=32, max_codepoint=0x2200, blacklist_categories=("Cs",)), max_size=12)
cells = st.one_of(texts.map(Cell), st.integers(0, 10**6).map(lambda n: Cell(n, "count")),
                  st.floats(0, 1).map(lambda x: Cell(x, "score")),
                  st.tuples(st.floats(0, 1), st.floats(0, 1)).map(lambda p: Cell(p[0], "score", low=min(p),
                                                                                   high=max(p))))


@st.composite
def tables(draw):
    ncol = draw(st.integers(1, 7))
    titles = draw(st.lists(texts.filter(lambda s: s.strip() == s), min_size=ncol, max_size=ncol))
    rows = draw(st.lists(st.lists(cells, min_size=ncol, max_size=ncol), max_size=5))
    return table(titles, rows, key_columns=draw(st.integers(0, min(2, ncol))), note=draw(texts))


@settings(max_examples=150, deadline=None)
@given(tables(), st.sampled_from(WIDTHS))
def test_generated_tables(t, width):
    both(page_of(t), width)


def test_score_to_a_pipe_or_a_file_does_not_import_rich(tmp_path: Path):
    data = tmp_path / "x.conll"
    data.write_text("EU B-ORG B-ORG\nrejects O O\nGerman B-MISC B-PER\n\nPeter B-PER B-PER\n", encoding="utf-8")
    code = ("import sys; from ts_eval.cli.app import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "assert 'rich' not in sys.modules, 'rich was imported'\n")
    # the C environment of a pytest process holds COLUMNS (readline sets it), which os.environ does not show
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    for extra in ([], ["--output", str(tmp_path / "out.txt")]):
        done = subprocess.run([sys.executable, "-c", code, "score", str(data), *extra], capture_output=True, text=True,
                              env=env)
        assert done.returncode == 0, done.stderr
    assert "micro" in (tmp_path / "out.txt").read_text(encoding="utf-8")
