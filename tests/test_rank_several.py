"""The systems ranked under several references (issue 34, points 3 to 6 with two or more references):
ts_eval.ranking.references.rank_several and ``rank --gold NAME=PATH`` given two or more times.

The hand-worked example extends test_rank_references's (two sentences) with a third reference C:

    s0  John lives in New York City    A: PER John, LOC New York     B, C: PER John, LOC New York City
    s1  Mary met Tom                   A, B: PER Mary, PER Tom        C: PER Mary (C drops Tom)
    system X: PER John, LOC New York, PER Mary
    system Y: PER John, LOC New York City, PER Mary, PER Tom

Exact-match F1 = 2 TP / (reference spans + system spans):
X: A 2*3/(4+3) = 6/7, B 2*2/(4+3) = 4/7, C 2*2/(3+3) = 2/3;  Y: A 6/8, B 8/8 = 1, C 2*3/(3+4) = 6/7.
From one reference to the next: A -> B: X -2/7, Y +1/4 (the pair flips: rho -1); B -> C: X +2/21, Y -1/7
(Y stays first: rho +1).  A -> C (``pairs="all"``): X -4/21, Y +3/28, the sum of the two steps.
Changes: A -> B one re-bounded LOC (s0), B -> C one removed PER (s1).

Annotators A, B, C (the human ceiling, exact F1): A against B 6/8, against C 2*2/(4+3) = 4/7 (John, Mary);
B against A 6/8, against C 6/7; C against A 4/7, against B 6/7.  Means: A (6/8 + 4/7)/2 = 37/56,
B (6/8 + 6/7)/2 = 45/56, C (4/7 + 6/7)/2 = 40/56; ceiling 122/168 = 61/84.  Systems: X (6/7 + 4/7 + 2/3)/3 =
44/63, Y (6/8 + 1 + 6/7)/3 = 73/84.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import ts_eval
from ts_eval.errors import OptionError
from ts_eval.output.builders import build
from ts_eval.output.renderers import render
from ts_eval.output.renderers.svg import figure_svg
from ts_eval.ranking.references import rank_references, rank_several

sys.path.insert(0, str(Path(__file__).parent))
from test_rank_references import SENTENCES, A, B, X, Y
from test_references import write

C = [[("PER", 0, 1), ("LOC", 3, 6)], [("PER", 0, 1)]]
EXACT = "exact-f1-micro"
MODELS = [EXACT, "ts-f1-micro"]


def _paths(tmp_path):
    return {k: write(tmp_path / f"{k}.conll", v, SENTENCES)
            for k, v in (("a", A), ("b", B), ("c", C), ("x", X), ("y", Y), ("a2", A))}


def _corpus(tmp_path, **extra):
    p = _paths(tmp_path)
    corpus = ts_eval.read(p["a"], {"B": p["b"], "C": p["c"], **{k: p[v] for k, v in extra.items()},
                                   "X": p["x"], "Y": p["y"]})
    corpus.gold_info.name = "A"
    return corpus


@pytest.fixture
def three(tmp_path):
    return _corpus(tmp_path)


def test_the_hand_worked_three_references(three):
    r = rank_several(three, ["A", "B", "C"], models=[EXACT], bootstrap=100, permutations=0, seed=2)
    assert r.references == ["A", "B", "C"] and r.systems == ["X", "Y"]
    assert [(s.reference_a, s.reference_b) for s in r.steps] == [("A", "B"), ("B", "C")]
    assert r.rankings["A"].scores[:, 0] == pytest.approx([6 / 7, 6 / 8])
    assert r.rankings["B"].scores[:, 0] == pytest.approx([4 / 7, 1.0])
    assert r.rankings["C"].scores[:, 0] == pytest.approx([2 / 3, 6 / 7])
    ab, bc = r.steps
    assert ab.difference[:, 0] == pytest.approx([-2 / 7, 1 / 4])
    assert bc.difference[:, 0] == pytest.approx([2 / 21, -1 / 7])
    assert (ab.spearman[0], bc.spearman[0]) == (-1.0, 1.0)
    assert [(p.better_under_a, p.better_under_b) for p in ab.flips[EXACT].pairs] == [("X", "Y")]
    assert bc.flips[EXACT].changed == 0
    assert [(c.kind, c.sentence, c.before, c.after) for c in r.changes[0].changes] == [
        ("rebounded", 0, ("LOC", 3, 4), ("LOC", 3, 5))]
    assert [(c.kind, c.sentence, c.before, c.after) for c in r.changes[1].changes] == [
        ("removed", 1, ("PER", 2, 2), None)]
    for step in r.steps:        # every difference lies in its paired interval
        assert step.difference_low is not None and step.difference_high is not None
        assert np.all(step.difference_low <= step.difference + 1e-12)
        assert np.all(step.difference + 1e-12 >= step.difference_low)


def test_every_pair_and_the_steps_add_up(three):
    r = rank_several(three, ["A", "B", "C"], models=MODELS, pairs="all", bootstrap=50, permutations=0)
    assert [(s.reference_a, s.reference_b) for s in r.steps] == [("A", "B"), ("A", "C"), ("B", "C")]
    ac = r.step("A", "C")
    assert ac.difference[:, 0] == pytest.approx([-4 / 21, 3 / 28])
    assert ac.difference == pytest.approx(r.step("A", "B").difference + r.step("B", "C").difference)


def test_the_human_ceiling_beside_the_systems(three):
    r = rank_several(three, ["A", "B", "C"], models=[EXACT], annotators=True, bootstrap=0, permutations=0)
    assert r.ceiling is not None
    c = r.ceiling.models[EXACT]
    assert c.ceiling == pytest.approx(61 / 84)
    assert [(row.name, row.role) for row in c.rows] == [("Y", "system"), ("B", "annotator"), ("C", "annotator"),
                                                         ("X", "system"), ("A", "annotator")]
    assert [row.mean for row in c.rows] == pytest.approx([73 / 84, 45 / 56, 40 / 56, 44 / 63, 37 / 56])
    d = json.loads(json.dumps(r.to_dict()))
    assert d["ceiling"]["models"][EXACT]["ceiling"] == pytest.approx(61 / 84)


def test_a_reference_against_itself_changes_nothing(tmp_path):
    corpus = _corpus(tmp_path, A2="a2")
    r = rank_several(corpus, ["A", "A2"], models=MODELS, bootstrap=60, permutations=0)
    (step,) = r.steps
    assert np.all(step.difference == 0)
    assert np.all(step.difference_low == 0) and np.all(step.difference_high == 0)
    assert r.changes[0].changes == [] and sum(r.changes[0].counts.values()) == 0
    assert all(s.verdict == "untouched" for s in r.suspects[0].suspects) and r.suspects[0].recall is None
    assert all(f.changed == 0 for f in step.flips.values())


def test_swapping_the_references_negates_every_difference(three):
    fwd = rank_several(three, ["A", "B", "C"], models=MODELS, bootstrap=80, permutations=0, seed=5)
    back = rank_several(three, ["C", "B", "A"], models=MODELS, bootstrap=80, permutations=0, seed=5)
    for (a, b) in (("A", "B"), ("B", "C")):
        f, s = fwd.step(a, b), back.step(b, a)
        assert s.difference == pytest.approx(-f.difference)
        assert s.difference_low == pytest.approx(-f.difference_high)
        assert s.difference_high == pytest.approx(-f.difference_low)


def test_two_references_give_rank_references_result_unchanged(three):
    """With two references the several-reference result holds rank_references's, key for key, and its page holds
    every table of rank_references's page, cell for cell."""
    options = dict(models=MODELS, bootstrap=40, permutations=30, seed=3)
    old = rank_references(three, "B", systems=["X", "Y"], **options)
    new = rank_several(three, ["A", "B"], systems=["X", "Y"], **options)
    d_old, d_new = _no_timings(old.to_dict()), _no_timings(new.to_dict())
    assert {k: d_new[k] for k in d_old if k != "settings"} == {k: v for k, v in d_old.items() if k != "settings"}
    assert {k: d_new["settings"][k] for k in d_old["settings"]} == d_old["settings"]
    page_old, page_new = build(old), build(new)
    for t in page_old.tables():
        n = page_new.table(t.id)
        assert (n.title, [c.key for c in n.columns], n.note) == (t.title, [c.key for c in t.columns], t.note)
        assert [[(c.value, c.low, c.high) for c in row] for row in n.rows] == \
               [[(c.value, c.low, c.high) for c in row] for row in t.rows]
    assert [s.id for s in page_new.sections if s.id in {s.id for s in page_old.sections}] == \
           [s.id for s in page_old.sections]


def _no_timings(d):
    if isinstance(d, dict):
        return {k: _no_timings(v) for k, v in d.items() if k != "timings"}
    if isinstance(d, list):
        return [_no_timings(v) for v in d]
    return d


def test_the_page_carries_the_same_numbers_in_every_format(three):
    r = rank_several(three, ["A", "B", "C"], models=[EXACT], annotators=True, bootstrap=30, permutations=0)
    page = build(r)
    fig = next(f for f in page.figures() if f.id == f"slope-{EXACT}")
    assert fig.kind == "slope" and fig.data["references"] == ["A", "B", "C"]
    assert fig.data["systems"] == ["X", "Y"]              # A's order
    assert fig.data["values"][0] == pytest.approx([6 / 7, 4 / 7, 2 / 3])
    assert fig.data["values"][1] == pytest.approx([6 / 8, 1.0, 6 / 7])
    lb = page.table(f"leaderboard-{EXACT}")
    assert [c.key for c in lb.columns] == ["system", "score_A", "rank_A", "score_B", "rank_B", "score_C", "rank_C"]
    ids = {t.id for t in page.tables()}
    assert {"differences-1", "differences-2", "sensitivity-1", "sensitivity-2", "change-labels-1", "changes-2",
            f"ceiling-{EXACT}", "suspects-at-1"} <= ids
    labels = page.table("change-labels-2")
    assert [[c.value for c in row] for row in labels.rows] == [["PER", 0, 1, 0, 0, 1], ["all", 0, 1, 0, 0, 1]]
    changes = page.table("changes-1")
    assert [[c.value for c in row] for row in changes.rows] == [
        [0, "rebounded", "LOC [New York]", "LOC [New York City]", "John lives in New York City"]]
    # the same numbers in every format: the ceiling 72.62, B -> C's -14.29 for Y, the three scores of X
    for fmt in ("table", "markdown", "latex", "csv", "html"):
        text = render(page, fmt, width=120, details=True)
        if fmt == "csv":
            assert "0.7261904761" in text and "-0.1428571428" in text and "np." not in text
        else:
            assert "72.62" in text and "-14.29" in text and "85.71" in text and "57.14" in text
        assert "New York City" in text


def test_csv_writes_numpy_numbers_as_numbers():
    """The two-reference CSV wrote its leaderboard's numpy scores as ``np.float64(0.93...)`` (numpy 2's repr)."""
    from ts_eval.output.renderers.csv import raw

    assert (raw(np.float64(0.25)), raw(np.int64(3)), raw(np.bool_(True)), raw(np.float64("nan"))) == \
        ("0.25", "3", "true", "")


def test_the_slope_chart_marks_every_score_and_keeps_names_apart(three):
    r = rank_several(three, ["A", "B", "C"], models=[EXACT], bootstrap=0, permutations=0)
    svg = str(figure_svg(next(f for f in build(r).figures() if f.kind == "slope")))
    tips = re.findall(r'<circle[^>]*><title>([^<]*)</title>', svg)
    assert tips == ["X: 85.71 under A, rank 1", "X: 57.14 under B, rank 2", "X: 66.67 under C, rank 2",
                    "Y: 75.00 under A, rank 2", "Y: 100.00 under B, rank 1", "Y: 85.71 under C, rank 1"]
    names = re.findall(r'<text x="[^"]*" y="([^"]*)"[^>]*class="name">([^<]*)</text>', svg)
    assert [n for _, n in names] == ["2. X", "1. Y"]
    assert abs(float(names[0][0]) - float(names[1][0])) >= 12


def test_the_labels_spread_apart():
    from ts_eval.output.renderers.svg import _spread

    assert _spread([10, 11, 12], 5, 0, 100) == [10, 15, 20]
    assert _spread([95, 96, 99], 5, 0, 100) == [90, 95, 100]      # pushed back up from the bottom


def test_the_gold_suspects_are_the_error_analysis_list(tmp_path):
    from test_suspects_checked import NAMES as SNAMES
    from test_suspects_checked import files as suspects_files

    from ts_eval.analysis.errors import WINDOW as ANALYSIS_WINDOW
    from ts_eval.analysis.errors import error_analysis
    from ts_eval.analysis.gold_suspects import WINDOW, gold_suspects
    from ts_eval.comparison.references import read_references

    files = suspects_files.__wrapped__(tmp_path)
    corpus = read_references(files["a"], files["b"], {n: files[n] for n in SNAMES})
    assert WINDOW == ANALYSIS_WINDOW
    full = error_analysis(corpus, systems=SNAMES, top=None, min_agree=3).suspects
    alone = gold_suspects(corpus, SNAMES, min_agree=3)
    assert (alone.total, alone.min_agree) == (full.total, full.min_agree) == (5, 3)
    assert alone.suspects == full.suspects


def test_the_options_are_checked(three):
    with pytest.raises(OptionError, match="two or more"):
        rank_several(three, ["A"], bootstrap=0, permutations=0)
    with pytest.raises(OptionError, match="given twice"):
        rank_several(three, ["A", "B", "A"], bootstrap=0, permutations=0)
    with pytest.raises(OptionError, match="no side called 'D'"):
        rank_several(three, ["A", "D"], bootstrap=0, permutations=0)
    with pytest.raises(OptionError, match="is a reference"):
        rank_several(three, ["A", "B"], systems=["X", "C", "B"], bootstrap=0, permutations=0)
    with pytest.raises(OptionError, match="pairs"):
        rank_several(three, ["A", "B"], pairs="some", bootstrap=0, permutations=0)


# ---------------------------------------------------------------------------
# the command line: ts-eval rank --gold NAME=PATH (two or more times) [--annotators] [--pairs all] SYSTEM...


def _argv(tmp_path, *refs):
    p = _paths(tmp_path)
    golds = [a for r in refs for a in ("--gold", f"{r}={p[r.lower()]}")]
    return ["rank", *golds, p["x"], p["y"], "--no-progress", "--models", EXACT, "--bootstrap", "40",
            "--permutations", "0"]


def test_the_command_line_ranks_under_three_references(tmp_path, capsys):
    from support import run_cli

    code, out, err = run_cli([*_argv(tmp_path, "A", "B", "C"), "--annotators", "--format", "json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert d["references"] == ["A", "B", "C"] and [(s["reference_a"], s["reference_b"]) for s in d["steps"]] == [
        ("A", "B"), ("B", "C")]
    bc = {s["name"]: s["models"][EXACT] for s in d["steps"][1]["systems"]}
    assert bc["x"]["difference"] == pytest.approx(2 / 21) and bc["y"]["difference"] == pytest.approx(-1 / 7)
    assert d["steps"][1]["changes"]["removed"] == 1 and d["steps"][0]["changes"]["rebounded"] == 1
    assert d["ceiling"]["models"][EXACT]["ceiling"] == pytest.approx(61 / 84)
    assert "suspects_checked" in d["steps"][0] and d["settings"]["annotators"] is True
    code, out, err = run_cli([*_argv(tmp_path, "A", "B", "C"), "--pairs", "all", "--format", "json"], capsys)
    assert code == 0, err
    assert [(s["reference_a"], s["reference_b"]) for s in json.loads(out)["steps"]] == [("A", "B"), ("A", "C"),
                                                                                        ("B", "C")]


def test_two_references_on_the_command_line_keep_their_json(tmp_path, capsys):
    from support import run_cli

    code, out, err = run_cli([*_argv(tmp_path, "A", "B"), "--format", "json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert (d["reference_a"], d["reference_b"]) == ("A", "B")             # rank_references's keys, as before
    got = {s["name"]: s["models"][EXACT] for s in d["systems"]}
    assert got["x"]["difference"] == pytest.approx(-2 / 7) and got["y"]["difference"] == pytest.approx(1 / 4)
    assert d["steps"][0]["systems"] == d["systems"] and d["steps"][0]["flips"] == d["flips"]


@pytest.mark.parametrize("width", [80, 120])
def test_the_terminal_fits_the_width(tmp_path, capsys, monkeypatch, width):
    from support import run_cli

    monkeypatch.setenv("COLUMNS", str(width))
    code, out, err = run_cli([*_argv(tmp_path, "A", "B", "C"), "--annotators", "--details"], capsys)
    assert code == 0, err
    assert max(len(line) for line in out.splitlines()) <= width
    for needle in ("Leaderboards under A, B and C", "Difference C - B", "Sensitivity (B to C)", "Flips (A to B)",
                   "the ceiling is 72.62%", "What changed (B to C)", "PER [Tom]", "Gold suspects checked (A to B)"):
        assert needle in out


def test_the_command_line_errors(tmp_path, capsys):
    from support import run_cli

    argv = _argv(tmp_path, "A", "B", "C")
    code, _, err = run_cli([*argv[:5], "--gold", argv[2].replace("A=", "B="), *argv[7:]], capsys)
    assert code == 2 and "two references are both called 'B'" in err
    p = _paths(tmp_path)
    code, _, err = run_cli(["rank", "--gold", p["a"], p["x"], p["y"], "--annotators", "--no-progress"], capsys)
    assert code == 2 and "--annotators applies to several references" in err
    code, _, err = run_cli(["rank", "--gold", p["a"], p["x"], p["y"], "--pairs", "all", "--no-progress"], capsys)
    assert code == 2 and "--pairs applies to several references" in err


# ---------------------------------------------------------------------------
# the page in a browser, at 1280 and 390 px


@pytest.mark.slow
def test_the_page_in_chromium(three, tmp_path):
    import browser

    if browser.missing():
        pytest.skip(browser.missing())
    r = rank_several(three, ["A", "B", "C"], models=MODELS, annotators=True, bootstrap=30, permutations=0)
    path = tmp_path / "page.html"
    path.write_text(render(build(r), "html"), encoding="utf-8")
    drv = browser.driver()
    try:
        for width in (1280, 390):
            browser.set_width(drv, width)
            browser.load(drv, path)
            assert [e for e in drv.get_log("browser") if e["level"] in ("SEVERE", "ERROR")] == []
            assert browser.layout_problems(drv, width) == []
            assert drv.execute_script(SLOPE_OUT_OF_VIEW, width) == []
            assert drv.execute_script("return document.querySelectorAll('svg.chart-slope circle.dot').length") == 12
    finally:
        drv.quit()


#: the slope charts' dots and names that lie outside the window or are cut by their figure's box
SLOPE_OUT_OF_VIEW = r"""
const width = arguments[0], out = [];
document.querySelectorAll('details').forEach(d => { d.open = true; });
document.querySelectorAll('svg.chart-slope').forEach(svg => {
  const box = svg.closest('.figure-wrap').getBoundingClientRect();
  svg.querySelectorAll('circle.dot, text.name').forEach(m => {
    const b = m.getBoundingClientRect();
    if (b.left < Math.max(0, box.left) - 0.5 || b.right > Math.min(width, box.right) + 0.5) {
      out.push(m.textContent || m.querySelector('title').textContent);
    }
  });
});
return out;
"""
