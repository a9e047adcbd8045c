"""rank's page with systems of several runs (issue 33.5): the leaderboard ranks by the mean and shows the runs'
sd and number beside the two-level interval (never "paired bootstrap"), the group column is Almost Stochastic
Order's (none without it), the runs' sections (mean, sd, min, max, every run's score; ε_min and P(beats) per
model, marked below the threshold) in every format, the terminal at 80 and 120 columns cutting nothing, and the
interval chart's strip of runs.  ASO's fields are filled by hand (``pages.with_aso``): the numbers of the page
are the result's, which these tests check the page shows, not ASO's own."""
from __future__ import annotations

import dataclasses
import math
import re
from typing import Any, Dict, List

import numpy as np
import pytest
from pages import with_aso
from test_renderers_text import assert_fits, expected_strings, names_intact, synthetic_corpus
from test_runs import A_RUNS, B_RUNS, GOLD  # A: exact F1 1 and 0.8; B: 2/3, 0.5 and 1

import ts_eval
from ts_eval.output.builders import build
from ts_eval.output.page import Figure, Page, Table, Text
from ts_eval.output.renderers import render
from ts_eval.output.renderers.svg import figure_svg

B_MEAN, B_SD = 13 / 18, math.sqrt(sum((x - 13 / 18) ** 2 for x in (2 / 3, 0.5, 1.0)) / 2)
MODELS = ["exact-f1-micro", "ts-f1-micro"]


@pytest.fixture(scope="module")
def ranked():
    return ts_eval.rank(GOLD, runs={"A": A_RUNS, "B": B_RUNS}, models=MODELS, bootstrap=60, permutations=60,
                        aso_resamples=0)      # ASO's fields filled by hand where a test needs them


def hand_aso(r):
    """A over B: ε_min 0.1 under exact F1 (below the threshold 0.2), 0.3 under TS F1 (not); B over A: 0.9 and
    0.7; P(beats) 2/3 and 1/3 (A's runs 1 and 0.8 against B's 0.5, 2/3, 1: A wins 4 of 6 pairs)."""
    eps = np.full((2, 2, 2), np.nan)
    eps[0, 1], eps[1, 0] = [0.1, 0.3], [0.9, 0.7]
    beat = np.full((2, 2, 2), np.nan)
    beat[0, 1], beat[1, 0] = [4 / 6, 4 / 6], [2 / 6, 2 / 6]
    groups = np.array([[1, 1], [2, 1]])
    aso = {"confidence": 0.95, "resamples": 500, "threshold": 0.2, "seed": 3, "correction": "Bonferroni",
           "rule": "a new group starts below a system whose epsilon_min over it is < 0.2"}
    assert r.runs is not None
    return dataclasses.replace(r, runs=dataclasses.replace(r.runs, eps_min=eps, beat=beat, groups=groups, aso=aso))


def _rows(t: Table) -> List[List[Any]]:
    return [[c.value for c in row] for row in t.rows]


def test_leaderboard_ranks_by_the_mean_with_sd_runs_and_two_level_intervals(ranked) -> None:
    page = build(ranked)
    lb = page.table("lb-task-exact-f1-micro")
    assert [c.key for c in lb.columns] == ["rank", "system", "score", "score_sd", "runs", "rank_interval",
                                           "keep_rank"]      # no group column: no permutation test, no ASO here
    (a, b) = lb.rows
    assert [a[1].value, b[1].value] == ["A", "B"]
    assert a[2].value == pytest.approx(0.9) and b[2].value == pytest.approx(B_MEAN)
    assert a[3].value == pytest.approx(math.sqrt(0.02)) and b[3].value == pytest.approx(B_SD)
    assert [a[4].value, b[4].value] == [2, 3]
    assert ranked.bootstrap is not None
    assert (a[2].low, a[2].high) == (ranked.bootstrap.score_low[0, 0], ranked.bootstrap.score_high[0, 0])
    assert "two-level" in lb.note and ranked.runs is not None and ranked.runs.bootstrap in lb.note
    fig = next(f for f in page.figures() if f.id == "lb-fig-task-exact-f1-micro")
    assert fig.data["runs"] == [pytest.approx([0.8, 1.0]), pytest.approx([0.5, 2 / 3, 1.0])]
    assert fig.data["run_names"] == [["A/2", "A/1"], ["B/2", "B/1", "B/3"]]
    assert "dot: one run's score" in fig.note


@pytest.mark.parametrize("fmt", ["table", "markdown", "latex", "csv", "html"])
def test_no_format_says_paired_bootstrap_with_runs(ranked, fmt) -> None:
    text = render(build(with_groups := hand_aso(ranked)), fmt, width=120, details=True)
    assert with_groups.runs is not None
    assert "paired bootstrap" not in text
    assert fmt == "csv" or "two-level" in text             # (CSV has no notes)
    assert "Holm" not in text.split("rank shifts")[0]            # the leaderboard's groups are ASO's


def test_runs_sections_show_mean_sd_min_max_and_every_run(ranked) -> None:
    page = build(ranked)
    runs = page.table("runs-task")
    got = {(row[0].value, row[1].value): [c.value for c in row[2:]] for row in runs.rows}
    assert got[("Seg-F1µ", "A")] == pytest.approx([0.9, math.sqrt(0.02), 0.8, 1.0, 2])
    assert got[("Seg-F1µ", "B")] == pytest.approx([B_MEAN, B_SD, 0.5, 1.0, 3])
    assert runs.row_keys[:2] == ["exact-f1-micro/A", "exact-f1-micro/B"]
    every = page.table("run-scores-task")
    assert [(row[0].value, row[1].value) for row in every.rows] == [("A", "2"), ("A", "1"), ("B", "2"), ("B", "1"),
                                                                    ("B", "3")]
    assert [row[2].value for row in every.rows] == pytest.approx([0.8, 1.0, 0.5, 2 / 3, 1.0])
    assert every.row_keys == ["A/2", "A/1", "B/2", "B/1", "B/3"]          # SYSTEM/RUN as the run column shows it
    assert all(s.detail for s in page.sections if s.id == "runs-task")
    assert not any(s.id.startswith("aso") for s in page.sections)        # ASO not run: no section of it


def test_score_shows_the_runs_in_ranks_two_tables(ranked) -> None:
    """One builder of the runs' tables (output/builders/runs.py): score's page of the same runs has rank's two
    tables, cell for cell, with ids without a task; rank lists the systems in its leading model's order under
    every model, score as given."""
    from ts_eval.output.builders.score import runs_sections

    rank_page = build(ranked)
    score_page = Page("score", "score", runs_sections({"runs": ranked.runs.to_dict()}))
    for rank_id, score_id in (("runs-task", "runs"), ("run-scores-task", "run-scores")):
        r, s = rank_page.table(rank_id), score_page.table(score_id)
        assert [c.key for c in r.columns] == [c.key for c in s.columns]
        assert [c.title for c in r.columns] == [c.title for c in s.columns]
        assert _rows(r) == _rows(s) and r.row_keys == s.row_keys and r.note == s.note
    assert [c.key for c in score_page.table("runs").columns] == ["model", "system", "mean", "sd", "min", "max",
                                                                 "runs"]
    backwards = dataclasses.replace(ranked, order=ranked.order[:, ::-1])     # B leads under every model
    assert page_runs_keys(backwards) == ["exact-f1-micro/B", "exact-f1-micro/A", "ts-f1-micro/B", "ts-f1-micro/A"]
    mixed = dataclasses.replace(ranked, order=np.array([[1, 0], [0, 1]]))   # B leads exact F1, A leads TS F1
    assert page_runs_keys(mixed) == ["exact-f1-micro/B", "exact-f1-micro/A", "ts-f1-micro/B", "ts-f1-micro/A"]


def page_runs_keys(r) -> List[str]:
    return build(r).table("runs-task").row_keys


def test_aso_matrices_per_model_marked_below_the_threshold_and_groups_from_aso(ranked) -> None:
    page = build(hand_aso(ranked))
    lb = page.table("lb-task-exact-f1-micro")
    assert lb.columns[-1].key == "group" and [row[-1].value for row in lb.rows] == [1, 2]
    assert "Groups (Almost Stochastic Order): a new group starts below" in lb.note
    assert next(f for f in page.figures() if f.id == "lb-fig-task-exact-f1-micro").data["groups"] == [1, 2]
    eps = page.table("eps-min-task-exact-f1-micro")
    assert _rows(eps) == [["A", None, pytest.approx(0.1)], ["B", pytest.approx(0.9), None]]
    assert [[c.style for c in row[1:]] for row in eps.rows] == [[None, "significant"], [None, None]]
    beat = page.table("beat-task-exact-f1-micro")
    assert _rows(beat) == [["A", None, pytest.approx(4 / 6)], ["B", pytest.approx(2 / 6), None]]
    assert beat.rows[0][2].style == "significant"
    ts = page.table("eps-min-task-ts-f1-micro")       # 0.3: not below 0.2, not marked, in the details
    assert ts.rows[0][2].value == pytest.approx(0.3) and ts.rows[0][2].style is None
    summary = [s for s in page.sections if s.id == "aso-task"]
    assert len(summary) == 1 and not summary[0].detail
    words = [b.text for s in page.sections for b in s.blocks if isinstance(b, Text) and "dominant" in b.text]
    assert words == ["Seg-F1µ: almost stochastically dominant (ε_min < 0.2): A over B",
                     "TS-F1µ: almost stochastically dominant (ε_min < 0.2): no pair"]
    groups = page.table("aso-groups-task")
    assert _rows(groups) == [["A", 1, 1], ["B", 2, 1]]


def test_csv_has_every_runs_number_raw(ranked) -> None:
    text = render(build(hand_aso(ranked)), "csv")
    assert f"runs-task,exact-f1-micro/B,sd,{B_SD!r},,,score" in text
    assert "run-scores-task,B/1,exact-f1-micro,0.6666666666666666,,,score" in text
    assert "eps-min-task-exact-f1-micro,A,B,0.1,,,corr" in text
    assert "beat-task-ts-f1-micro,B,A,0.3333333333333333,,,score" in text


def test_markdown_and_latex_show_the_runs_tables(ranked) -> None:
    page = build(hand_aso(ranked))
    for fmt in ("markdown", "latex"):
        text = render(page, fmt)
        assert "72.22" in text and "25.46" in text          # B's mean and sd, in points
        assert "0.100" in text and "66.67" in text           # ε_min and P(beats) of A over B
        assert "every run's score" in text
    latex = render(page, "latex")
    assert r"$\varepsilon$\_min of row over column" in latex and "ε" not in latex
    assert "row over column & A & B" in latex


def test_one_run_each_has_no_runs_parts() -> None:
    r = ts_eval.rank(GOLD, runs={"A": [A_RUNS[1]], "B": [B_RUNS[0]]}, models=MODELS, bootstrap=20, permutations=20)
    page = build(r)
    assert "score_sd" not in [c.key for c in page.table("lb-task-exact-f1-micro").columns]
    assert not any(s.id.startswith(("runs", "aso")) for s in page.sections)
    assert "paired bootstrap" in render(page, "table", width=120)


# ---------------------------------------------------------------------------
# the terminal: nothing cut at 80 and 120 columns


@pytest.fixture(scope="module")
def seven_of_four():
    """28 synthetic systems (long names with a common prefix) as 7 systems of 4 runs each, every model."""
    corpus = synthetic_corpus()
    names = sorted(corpus.systems)
    runs = {f"{names[4 * s][:-2]}-method{s}": names[4 * s:4 * s + 4] for s in range(7)}
    r = ts_eval.rank(corpus, runs=runs, bootstrap=30, seed=2)
    return with_aso(r)


def runs_numbers(r, details: bool) -> List[Any]:
    rs = r.runs
    ref, out = r.reference_index, []
    ks = range(len(r.models)) if details else [ref]
    for k in ks:
        for i in range(len(r.systems)):
            out += [("score", rs.mean[i, k]), ("score", rs.sd[i, k]), ("count", len(rs.runs.runs[i])),
                    ("interval", "score", r.bootstrap.score_low[i, k], r.bootstrap.score_high[i, k]),
                    ("count", rs.groups[i, k])]
            if details:
                out += [("score", rs.low[i, k]), ("score", rs.high[i, k])]
                out += [("score", v) for v in rs.scores_of(i, k)]
            out += [("corr", rs.eps_min[i, j, k]) for j in range(len(r.systems)) if j != i]
            out += [("score", rs.beat[i, j, k]) for j in range(len(r.systems)) if j != i]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("details", [False, True])
def test_the_runs_ranking_shows_every_number_in_full(seven_of_four, width, details) -> None:
    r = seven_of_four
    text = render(build(r), "table", width=width, details=details)
    assert_fits(text, width)
    names_intact(text, r.systems)
    if details:
        runs = [n for each in r.runs.runs.runs for n in each]
        names_intact(text, runs)
    missing = sorted({s for s in expected_strings(runs_numbers(r, details)) if s not in text})
    assert not missing, f"not in the text at width {width}: {missing[:10]}"
    assert "Almost Stochastic Order under Seg-F1µ" in text
    assert ("every run's score" in text) == details


# ---------------------------------------------------------------------------
# the chart


def test_the_interval_chart_draws_a_dot_per_run_and_a_tick_at_the_mean() -> None:
    fig = Figure("f", "t", "intervals", {"labels": ["A", "B"], "values": [0.9, 0.5], "low": [0.8, 0.4],
                                         "high": [1.0, 0.6], "kind": "score", "groups": None,
                                         "runs": [[0.8, 1.0], [0.4, 0.5, 0.6]],
                                         "run_names": [["a1", "a2"], ["b1", "b2", "b3"]]})
    svg = str(figure_svg(fig))
    dots = [(t, c) for c, t in re.findall(r'<circle cx="([\d.]+)"[^>]*class="run"[^>]*><title>([^<]*)</title>',
                                           svg)]
    assert [t for t, _ in dots] == ["A, a1: 80.00", "A, a2: 100.00", "B, b1: 40.00", "B, b2: 50.00", "B, b3: 60.00"]
    x = [float(c) for _, c in dots]
    assert x[0] < x[1] and x[2] < x[3] < x[4] and x[3] == pytest.approx((x[2] + x[4]) / 2)
    assert x[2] < x[0]            # one axis for every mark: B's lowest run (0.4) left of A's (0.8)
    assert svg.count('class="run-mean"') == 2 and "A: mean of the runs 90.00" in svg
    plain = dict(fig.data)
    for key in ("runs", "run_names"):
        plain.pop(key)
    assert 'class="run' not in str(figure_svg(Figure("f", "t", "intervals", plain)))


def test_every_run_of_the_page_is_a_dot_with_its_name(ranked) -> None:
    html = render(build(ranked), "html")
    for name, score in (("A/2", "80.00"), ("A/1", "100.00"), ("B/2", "50.00"), ("B/1", "66.67"), ("B/3", "100.00")):
        assert f"{name[0]}, {name}: {score}</title>" in html


def test_multi_task_runs_keep_their_task_names() -> None:
    corpus_runs: Dict[str, Any] = {"A": A_RUNS, "B": B_RUNS}
    one = ts_eval.rank(GOLD, runs=corpus_runs, models=MODELS, bootstrap=0, permutations=0, task="t1")
    two = ts_eval.rank(GOLD, runs=corpus_runs, models=MODELS, bootstrap=0, permutations=0, task="t2")
    from ts_eval.ranking.study import combine

    page = build(combine({"t1": one, "t2": two}))
    assert {"runs-t1", "runs-t2"} <= {s.id for s in page.sections}
    assert "two-level" not in render(page, "table", width=100, details=True)      # no bootstrap, no intervals


def test_a_system_of_one_run_beside_runs_has_sd_na_and_one_dot() -> None:
    r = ts_eval.rank(GOLD, {"C": A_RUNS[1]}, runs={"B": B_RUNS}, models=MODELS, bootstrap=20, permutations=0)
    page = build(r)
    lb = page.table("lb-task-exact-f1-micro")
    assert [(row[1].value, row[4].value) for row in lb.rows] == [("C", 1), ("B", 3)]      # C: F1 0.8 > 13/18
    assert math.isnan(lb.rows[0][3].value)
    assert re.search(r"C\s+80\.00 \[[\d.–]+\]\s+n/a\s+1\s", render(page, "table", width=120))
    fig = next(f for f in page.figures() if f.id == "lb-fig-task-exact-f1-micro")
    assert fig.data["runs"][0] == pytest.approx([0.8]) and fig.data["run_names"][0] == ["C"]


def test_flips_of_runs_are_judged_by_the_runs_in_every_table() -> None:
    """With ASO (not filled by hand), the agreement table, the flip summary and each flip table count and show
    the flips the runs settle (epsilon_min under each model), not a permutation test that was not run."""
    r = ts_eval.rank(GOLD, {"C": A_RUNS[1]}, runs={"A": A_RUNS, "B": B_RUNS},
                     models=["exact-f1-micro", "ts-f1-micro", "exact-f1-macro"], bootstrap=40, aso_resamples=100)
    page = build(r)
    agreement = page.table("agreement-task")
    assert agreement.columns[-1].key == "settled" and "settled by the runs" in agreement.note.lower()
    for row, model in zip(agreement.rows, r.models[1:]):
        assert row[-1].value == r.flips(r.reference, model).settled_by_runs
    summary = page.table("flip-summary-task")
    assert [c.key for c in summary.columns][4] == "settled"
    for model in r.models[1:]:
        f = r.flips(r.reference, model)
        t = page.table(f"flips-task-{r.reference}-{model}")
        assert [c.key for c in t.columns] == ["better_a", "better_b", "eps_a", "eps_b", "settled"]
        assert [[c.value for c in row[2:4]] for row in t.rows] == [[p.eps_a, p.eps_b] for p in f.pairs]
    for fmt in ("table", "markdown", "latex", "csv", "html"):
        text = render(page, fmt, width=120, details=True)
        assert "significant under both" not in text and "permutation test" not in text.lower()
