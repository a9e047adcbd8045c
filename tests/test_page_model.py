"""The neutral page model (Page): cells, tables and figures validate what renderers rely on."""
import pytest

from ts_eval.output.page import Cell, Column, Figure, Page, Section, Table, common_prefix


def test_cell_kinds_and_styles_are_checked():
    assert Cell(0.5, "score", low=0.4, high=0.6).has_interval
    assert not Cell("a").has_interval
    with pytest.raises(ValueError, match="cell kind 'pct'"):
        Cell(1, "pct")
    with pytest.raises(ValueError, match="cell style 'red'"):
        Cell(1, "count", style="red")


def test_table_rows_must_fit_the_columns():
    cols = [Column("system", "system"), Column("f", "F")]
    t = Table("t", "T", cols, [[Cell("a"), Cell(0.5, "score")]])
    doc = Page("score", "x", [Section("s", [t, Figure("f", "F", "bars", {"labels": ["a"], "values": [0.5]})])])
    assert doc.table("t") is t and len(doc.figures()) == 1
    with pytest.raises(KeyError):
        doc.table("nope")
    with pytest.raises(ValueError, match="row 0 has 1 cells for 2 columns"):
        Table("u", "U", cols, [[Cell("a")]])
    with pytest.raises(ValueError, match="figure kind"):
        Figure("g", "G", "pie", {})


@pytest.mark.parametrize("names, prefix", [
    (["task2003-carrerasa", "task2003-carrerasb", "task2003-chieu"], "task2003-"),
    (["abc1", "abc2"], ""),                 # no separator: no part of a word is dropped
    (["x-a", "x-"], ""),                    # a name would become empty
    (["only-one"], ""),
    (["a/b/c", "a/b/d"], "a/b/"),
])
def test_common_prefix_stops_at_a_separator(names, prefix):
    assert common_prefix(names) == prefix
