"""The terminal renderer never cuts a number or a name (issue #11.1).

A ranking of 28 systems under every model is rendered through rich at 80 and 120 columns;
every number of its JSON (``to_dict()``) must appear in full, written as the renderer writes
its kind (scores as percentages with two decimals, ranks as integers or .5, correlations and
p-values with three decimals, intervals as ``low–high``), no line may be wider than the
console, no ``…`` may appear, and every system name must stand intact or without the
common prefix the output announces.
"""
from __future__ import annotations

import math
import re

import numpy as np
import pytest
from support import fit_check

import ts_eval
from ts_eval.core.sequences import from_sequences
from ts_eval.output.builders import build
from ts_eval.output.page import Cell, Column, Page, Section, Table
from ts_eval.output.renderers import render
from ts_eval.output.renderers.text import layout
from ts_eval.output.values import interval, value
from ts_eval.ranking import sufficient

WIDTHS = (80, 120)


def synthetic_corpus(n_systems: int = 28, sentences: int = 50, seed: int = 3):
    """Gold with a span or two per sentence; system k flips tags with a rate growing with k."""
    rng = np.random.default_rng(seed)
    gold = []
    for _ in range(sentences):
        n = int(rng.integers(5, 12))
        tags = ["O"] * n
        for _ in range(int(rng.integers(1, 3))):
            i = int(rng.integers(0, n - 1))
            lab = str(rng.choice(["PER", "LOC", "ORG", "MISC"]))
            tags[i], tags[i + 1] = "B-" + lab, "I-" + lab
        gold.append(tags)
    systems = {}
    for k in range(n_systems):
        out = []
        for tags in gold:
            t = list(tags)
            for j in range(len(t)):
                if rng.random() < 0.02 + 0.01 * k:
                    t[j] = str(rng.choice(["O", "B-PER", "I-PER", "B-LOC", "I-ORG"]))
            out.append(t)
        systems[f"task2003-participant{k:02d}"] = out
    return from_sequences(gold, systems, scheme="IOB2", policy="conlleval")


ALL_MODELS = [m for m, model in sufficient.REGISTRY.items() if not model.needs]   # span corpora


@pytest.fixture(scope="module")
def ranking():
    corpus = synthetic_corpus()
    return ts_eval.rank(corpus, models=ALL_MODELS, bootstrap=40, permutations=40, seed=1,
                               flips=[("exact-f1-micro", "ts-f1-macro")])


@pytest.fixture(scope="module")
def rendered(ranking):
    doc = build(ranking)
    return {(w, d): render(doc, "table", width=w, details=d) for w in WIDTHS for d in (False, True)}


def names_intact(text: str, names) -> None:
    """Every name in full, or without the prefix the text announces."""
    announced = re.findall(r"common prefix '([^']*)'", text)
    for n in names:
        if n in text:
            continue
        assert any(n.startswith(p) and re.search(r"(?<![\w-])" + re.escape(n[len(p):]) + r"(?![\w-])", text)
                   for p in announced), f"{n!r} is neither intact nor shown without an announced prefix"


def assert_fits(text: str, width: int) -> None:
    w, line = fit_check(text, width)
    assert w <= width, f"line of {w} columns at width {width}: {line!r}"
    assert "…" not in text


def rank_numbers(d: dict, details: bool):
    """(kind, value) or ('interval', kind, low, high) of the ranking JSON the text must show."""
    out = []
    ref = d["reference"]
    for s in d["systems"]:
        for m, v in s["models"].items():
            if not details and m != ref:
                continue
            out.append(("score", v["score"]))
            out.append(("rank", v["rank"]))
            out.append(("interval", "score", v["score_low"], v["score_high"]))
            out.append(("interval", "rank", v["rank_low"], v["rank_high"]))
            out.append(("score", v["keep_rank"]))
            out.append(("count", v["group"]))
            if details:
                out.append(("score", v["score_se"]))
                out.append(("p", v["p_next"]))
                out.append(("p", v["p_next_holm"]))
    ci = d["correlation_intervals"]
    for key in ("spearman", "kendall_tau_b"):
        for i, row in enumerate(d[key]):
            for j, x in enumerate(row):
                out.append(("corr", x))
                out.append(("interval", "corr", ci[key + "_low"][i][j], ci[key + "_high"][i][j]))
    for layout_ranks in d["rank_table"].values():
        out += [("rank", x) for x in layout_ranks]
    for f in d["flips"]["pairs"]:
        shown = (f["model_a"], f["model_b"]) == ("exact-f1-micro", "ts-f1-macro") or \
            (details and f["model_a"] == ref)
        if f["model_a"] == ref:
            out += [("count", f["changed"]), ("count", f["pairs_compared"]), ("count", f["significant_under_both"])]
        if shown:
            for p in f["pairs"]:
                out += [("p", p["p_a"]), ("p", p["p_b"])]
        if details:
            out.append(("count", f["tied_under_one"]))
    return out


def expected_strings(numbers):
    for item in numbers:
        if item[0] == "interval":
            _, kind, lo, hi = item
            yield interval(math.nan if lo is None else lo, math.nan if hi is None else hi, kind)
        else:
            kind, x = item
            yield value(math.nan if x is None else x, kind)


@pytest.mark.slow
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("details", (False, True))
def test_rank_of_28_systems_shows_every_number_in_full(ranking, rendered, width, details):
    text = rendered[(width, details)]
    assert_fits(text, width)
    names_intact(text, ranking.systems)
    d = ranking.to_dict()
    missing = sorted({s for s in expected_strings(rank_numbers(d, details)) if s not in text})
    assert not missing, f"not in the text at width {width}: {missing[:10]}"


@pytest.mark.slow
def test_rank_summary_is_the_readable_part(rendered, ranking):
    short, full = rendered[(120, False)], rendered[(120, True)]
    assert len(short) < len(full) / 2
    assert "leaderboard under Seg-F1µ" in short and "rank shifts" in short and "Spearman" in short
    assert "details=True" in short and "p-value against the next system" not in short
    assert "p-value against the next system" in full
    # the flips asked for are in the summary, with the one-line summary of the flip analysis
    assert ranking.flips("exact-f1-micro", "ts-f1-macro").summary in " ".join(short.split())


def test_the_names_lose_only_an_announced_common_prefix(rendered):
    text = rendered[(80, True)]
    assert "common prefix 'task2003-'" in text
    assert "participant07" in text


# ---------------------------------------------------------------------------
# the layout steps, one by one


def _table(n_rows: int, n_cols: int, names=None, interval_cells: bool = True) -> Table:
    names = names or [f"system-{k}" for k in range(n_rows)]
    cols = [Column("system", "system")] + [Column(f"m{j}", f"model {j}") for j in range(n_cols)]
    rows = [[Cell(n)] + [Cell(0.5 + 0.001 * j, "score", *((0.4, 0.6) if interval_cells else (None, None)))
                         for j in range(n_cols)] for n in names]
    return Table("t", "T", cols, rows)


def _text(t: Table, width: int) -> str:
    return render(Page("score", "x", [Section("s", [t])]), "table", width=width)


def test_a_table_that_fits_keeps_intervals_inline():
    t = _table(3, 2)
    lay = layout(t, 80)
    assert not lay.stacked and len(lay.blocks) == 1 and lay.prefix == ""
    assert "50.00 [40.00–60.00]" in _text(t, 80)


def test_intervals_stack_under_their_values_before_anything_else():
    t = _table(5, 4)                       # 4 x 19 + 8 + gaps > 80, stacked 4 x 11 fits
    lay = layout(t, 80)
    assert lay.stacked and lay.prefix == "" and len(lay.blocks) == 1
    text = _text(t, 80)
    assert "40.00–60.00" in text and "[40.00–60.00]" not in text


def test_a_common_prefix_goes_before_the_table_is_split():
    names = [f"a-very-long-shared-task-prefix-{k}" for k in range(4)]
    t = _table(4, 4, names)
    lay = layout(t, 80)
    assert lay.prefix == "a-very-long-shared-task-prefix-" and len(lay.blocks) == 1
    text = _text(t, 80)
    assert "common prefix 'a-very-long-shared-task-prefix-'" in text
    assert_fits(text, 80)


def test_a_short_wide_table_is_transposed():
    t = _table(1, 12, ["only"], interval_cells=False)
    lay = layout(t, 80)
    assert lay.table is not t and [c.title for c in lay.table.columns] == ["system", "only"]
    text = _text(t, 80)
    assert "transposed" in text and "model 11" in text
    assert_fits(text, 80)


def test_a_wide_table_is_split_into_blocks_repeating_the_key_column():
    t = _table(6, 20, [f"name{k}" for k in range(6)])       # no common prefix to drop
    lay = layout(t, 80)
    assert len(lay.blocks) > 1 and all(b[0] == 0 for b in lay.blocks)
    assert sorted({j for b in lay.blocks for j in b}) == list(range(21))
    text = _text(t, 80)
    assert_fits(text, 80)
    assert text.count("name5") == len(lay.blocks)
    assert f"in {len(lay.blocks)} blocks of columns" in text


def test_long_texts_wrap_at_spaces_and_numbers_never():
    sentence = " ".join(f"word{k}" for k in range(60))
    cols = [Column("n", "#"), Column("x", "sentence"), Column("v", "value")]
    t = Table("t", "T", cols, [[Cell(1, "count"), Cell(sentence), Cell(0.123456, "score")]])
    text = _text(t, 60)
    assert_fits(text, 60)
    assert all(f"word{k}" in text for k in range(60)) and "12.35" in text
