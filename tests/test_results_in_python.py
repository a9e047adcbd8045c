"""Results in Python (issue #13.5): str, repr, _repr_html_, rows/to_frame, the public API, bad input.

The example, worked by hand (units: token i = 2i, separator = 2i+1; 12 units in all):

gold  [B-PER I-PER O B-LOC] [O B-ORG O]   spans PER 0-1, LOC 3, ORG 1 (sentence 2)
a     [B-PER I-PER O B-ORG] [O B-ORG O]   exact: PER and ORG hit, ORG for LOC: tp 2 of 3 and 3 -> F 2/3
                                          TS: PER 3 units TP, ORG unit FP, LOC unit FN, ORG TP -> 4/1/1, F 0.8
b     [B-PER O O B-LOC] [O O O]           exact: LOC hit only: tp 1, 2 found, 3 gold -> P 1/2, R 1/3, F 0.4
                                          TS: PER 1 of 3 units, LOC 1, ORG missed -> 2/0/3, P 1, R 0.4, F 4/7
"""
from __future__ import annotations

import inspect
import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import ts_eval
from ts_eval.core import validation as validate
from ts_eval.core.sequences import from_sequences

GOLD = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "O"]]
A = [["B-PER", "I-PER", "O", "B-ORG"], ["O", "B-ORG", "O"]]
B = [["B-PER", "O", "O", "B-LOC"], ["O", "O", "O"]]
FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def report():
    return ts_eval.score(GOLD, {"a": A, "b": B}, models=("ts", "exact", "fair"))


@pytest.fixture(scope="module")
def corpus():
    return from_sequences(GOLD, {"a": A, "b": B})


def test_hand_checked_numbers(report):
    a, b = report.system("a"), report.system("b")
    assert {k: a["ts"]["micro"][k] for k in ("tp", "fp", "fn", "tn")} == {"tp": 4, "fp": 1, "fn": 1, "tn": 30}
    assert a["ts"]["micro"]["f"] == pytest.approx(0.8) and b["ts"]["micro"]["f"] == pytest.approx(4 / 7)
    assert a["exact"]["micro"]["f"] == pytest.approx(2 / 3)
    assert (b["exact"]["micro"]["precision"], b["exact"]["micro"]["recall"]) == pytest.approx((0.5, 1 / 3))


# ---------------------------------------------------------------------------
# repr and str

def test_repr_is_one_line_per_system_with_main_scores(report):
    lines = repr(report).splitlines()
    assert lines[0] == "<Report score: 2 systems, 7 tokens, 2 sentences, 3 labels; micro F per model>"
    fair_a = report.system("a")["fair"]["fair"]["micro"]["f"]
    assert lines[1] == f"  a: ts 0.8000  exact 0.6667  fair {fair_a:.4f}"
    assert lines[2].startswith("  b: ts 0.5714  exact 0.4000  fair ")
    assert len(lines) == 3


def test_repr_cuts_long_lists_of_systems():
    systems = {f"s{k:02d}": A for k in range(15)}
    lines = repr(ts_eval.score(GOLD, systems, models=("exact",))).splitlines()
    assert len(lines) == 1 + 12 + 1 and lines[-1] == "  ... and 3 more"
    assert lines[1] == "  s00: exact 0.6667"


def test_str_is_the_summary_table(report):
    text = str(report)
    assert text.startswith("Summary") and "{" not in text
    assert all(len(line) <= 100 for line in text.splitlines())
    for number in ("80.00", "57.14", "66.67", "40.00"):     # TS µF of a and b, exact F of a and b
        assert number in text
    assert len(text.splitlines()) < 40
    assert "per label" not in text                          # the summary only, not every section


def test_print_uses_str(report, capsys):
    print(report)
    assert capsys.readouterr().out.rstrip("\n") == str(report)


# ---------------------------------------------------------------------------
# _repr_html_

def scoped(css: str) -> bool:
    """Every rule's selectors start with the fragment's class (or it is an @-rule)."""
    css = re.sub(r"@media[^{]*\{", "", css)
    for prelude in re.findall(r"([^{}]+)\{", css):
        for sel in prelude.split(","):
            sel = sel.strip()
            if sel and not sel.startswith("@") and not sel.startswith(".ts-eval"):
                return False
    return True


def test_repr_html_is_a_self_contained_fragment():
    rep = ts_eval.score(GOLD, {'<b>&"x': A}, models=("ts", "exact"))
    html = rep._repr_html_()
    assert html.startswith('<div class="ts-eval">') and html.rstrip().endswith("</div>")
    for absent in ("<html", "<head", "<body", "<script", "<link", " src=", "@import", "url("):
        assert absent not in html
    assert "<b>&" not in html and "&lt;b&gt;&amp;" in html          # the name, escaped
    css = html[html.index("<style>") + 7:html.index("</style>")]
    assert scoped(css) and ":root" not in css
    for number in ("80.00", "66.67"):
        assert number in html


def test_html_page_is_unchanged_by_the_fragment_option(report):
    from ts_eval.output.builders import build
    from ts_eval.output.renderers import html

    page = html.render(build(report))
    assert page.startswith("<!DOCTYPE html>") and "<script>" in page and ":root {" in page
    assert html.render(build(report), fragment=True) == report._repr_html_()


# ---------------------------------------------------------------------------
# rows / to_frame

def test_rows_are_tidy_and_equal_to_dict(report):
    rows = report.rows()
    d = report.to_dict()
    n_labels = len(report.labels)
    # ts: labels + micro + macro; exact: the same; fair: 3 methods x (labels + micro)
    assert len(rows) == 2 * ((n_labels + 2) * 2 + 3 * (n_labels + 1))
    for row in rows:
        system = next(s for s in d["systems"] if s["name"] == row["name"])
        node = system
        for part in row["model"].split("."):
            node = node[part]
        source = node[row["label"]] if row["label"] in ("micro", "macro") else node["labels"][row["label"]]
        for key, value in row.items():
            if key not in ("name", "model", "label"):
                assert source[key] == value
    models = {r["model"] for r in rows}
    assert models == {"ts", "exact", "fair.traditional", "fair.fair", "fair.weighted"}


def test_to_frame_columns_values_and_nan(report):
    pd = pytest.importorskip("pandas")
    frame = report.to_frame()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns[:3]) == ["name", "model", "label"]
    vocab = [c for c in frame.columns if c in ("tp", "fp", "fn", "tn", "gold", "system", "precision", "recall", "f",
                                                 "kappa", "accuracy")]
    assert vocab == ["tp", "fp", "fn", "tn", "gold", "system", "precision", "recall", "f", "kappa", "accuracy"]
    assert len(frame) == len(report.rows())
    row = frame[(frame["name"] == "a") & (frame["model"] == "ts") & (frame["label"] == "micro")].iloc[0]
    assert (row["tp"], row["fp"], row["fn"], row["tn"]) == (4, 1, 1, 30) and row["f"] == pytest.approx(0.8)
    assert math.isnan(row["gold"])                                   # TS has no span counts
    ex = frame[(frame["name"] == "b") & (frame["model"] == "exact") & (frame["label"] == "micro")].iloc[0]
    assert (ex["gold"], ex["system"], ex["tp"]) == (3, 2, 1) and ex["f"] == pytest.approx(0.4)
    assert math.isnan(ex["kappa"]) and math.isnan(ex["fn"])
    # every number equals to_dict's
    for rec, tidy in zip(frame.to_dict("records"), report.rows()):
        for key, value in tidy.items():
            assert rec[key] == value


def test_germeval_report_to_frame():
    pytest.importorskip("pandas")
    from ts_eval.germeval.evaluate import evaluate_germeval
    from ts_eval.io.germeval import read_germeval

    rep = evaluate_germeval(read_germeval(str(FIXTURES / "germeval" / "nested.tsv")))
    frame = rep.to_frame()
    m1 = frame[frame["model"] == "germeval.metrics.m1_strict_combined"].iloc[0]
    assert m1["label"] == "overall"
    assert m1["f"] == rep.systems[0]["germeval"]["metrics"]["m1_strict_combined"]["f"]
    loc = frame[(frame["model"] == "germeval.outer_strict") & (frame["label"] == "LOC")].iloc[0]
    assert loc["tp"] == rep.systems[0]["germeval"]["per_type"]["LOC"]["outer_strict"]["tp"]
    assert repr(rep).splitlines()[1].startswith(f"  {rep.systems[0]['name']}: germeval ")


def test_to_frame_without_pandas_says_how(report, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"pip install pandas"):
        report.to_frame()
    assert report.rows()                                             # rows need no pandas


# ---------------------------------------------------------------------------
# ranking and comparison

def test_ranking_repr_str_html(corpus):
    result = ts_eval.rank(corpus, bootstrap=0, permutations=0)
    lines = repr(result).splitlines()
    assert lines[0] == "<RankingResult 'task': 2 systems x 10 models; exact-f1-micro (rank), best first>"
    assert lines[1:] == ["  a: 0.6667 (1)", "  b: 0.4000 (2)"]
    text = str(result)
    assert "leaderboard under" in text and "66.67" in text and "40.00" in text
    html = result._repr_html_()
    assert html.startswith('<div class="ts-eval">') and "<script" not in html and "66.67" in html
    pytest.importorskip("pandas")
    assert result.to_frame().loc["a", ("exact-f1-micro", "score")] == pytest.approx(2 / 3)


def test_multitask_repr_and_str(corpus):
    result = ts_eval.rank({"t1": corpus, "t2": corpus}, bootstrap=0, permutations=0)
    assert repr(result).splitlines()[1:] == ["  t1: 2 systems, best a (exact-f1-micro 0.6667)",
                                             "  t2: 2 systems, best a (exact-f1-micro 0.6667)"]
    text = str(result)
    assert "t1: leaderboard under" in text and "t2: leaderboard under" in text and "Mean over 2 tasks" in text


def test_comparison_repr_str_html(corpus):
    result = ts_eval.compare(corpus)
    assert repr(result).splitlines() == [
        "<Comparison: 2 systems, 7 tokens; exact-match F (P, R), token accuracy>",
        "  a: F 0.6667 (P 0.6667, R 0.6667), token accuracy 0.8571",     # 6 of 7 tags right
        "  b: F 0.4000 (P 0.5000, R 0.3333), token accuracy 0.7143"]     # 5 of 7
    text = str(result)
    assert text.startswith("Systems") and "85.71" in text and "40.00" in text
    assert "<script" not in result._repr_html_() and "71.43" in result._repr_html_()


# ---------------------------------------------------------------------------
# the public API

@pytest.mark.parametrize("name", ts_eval.__all__)
def test_every_public_name_exists_and_is_documented(name):
    obj = getattr(ts_eval, name)
    if name == "__version__":
        assert isinstance(obj, str) and obj
        return
    assert (obj.__doc__ or "").strip(), f"{name} has no docstring"
    if inspect.isfunction(obj):
        sig = inspect.signature(obj)
        untyped = [p for p, v in sig.parameters.items() if v.annotation is inspect.Parameter.empty]
        assert not untyped, f"{name}: parameters without type hints: {untyped}"
        assert sig.return_annotation is not inspect.Parameter.empty, f"{name} has no return type"
    elif not inspect.ismodule(obj):
        assert isinstance(obj, type)


@pytest.mark.slow
def test_star_import_in_a_fresh_interpreter():
    code = ("from ts_eval import *\n"
            "import ts_eval\n"
            "missing = [n for n in ts_eval.__all__ if n not in globals()]\n"
            "assert not missing, missing\n"
            "assert all(map(callable, (rank, compare, convert, analyze, agree)))\n"
            "assert 'compat' not in globals()\n"          # a submodule, reached as an attribute
            "assert ts_eval.compat.seqeval.f1_score([['B-A', 'O']], [['B-A', 'O']]) == 1.0\n"
            "assert callable(ts_eval.compat.huggingface.compute)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).parent.parent, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr


def test_compat_uses_the_shared_validation():
    from ts_eval.compat import seqeval

    assert seqeval.EmptyInputWarning is validate.EmptyInputWarning is ts_eval.EmptyInputWarning
    assert seqeval.describe is validate.describe


# ---------------------------------------------------------------------------
# bad input to ts_eval.score

@pytest.mark.parametrize("y_true,y_pred,error,needle", [
    (GOLD, [A[0], ["O", "B-ORG"]], ValueError, r"^sentence 1: y_true has 3 tags, y_pred has 2$"),
    (GOLD, A[:1], ValueError, r"^y_true has 2 sentences, y_pred has 1 sentences$"),
    (GOLD, [A[0], ["O", 5, "O"]], TypeError, r"^y_pred: sentence 1, token 1: tag int 5 is not a string$"),
    (GOLD, [A[0], ["O", None, "O"]], TypeError, r"^y_pred: sentence 1, token 1: tag NoneType None is not a string"),
    (None, A, TypeError, r"^y_true is None; expected a list of sentences"),
    (GOLD, None, TypeError, r"^y_pred is None"),
    ("B-PER O", A, TypeError, r"^y_true is a string"),
    (GOLD, [[A[0]], A[1]], ValueError, r"sentence 0: y_true has 4 tags, y_pred has 1"),
    ([[["B-PER"]]], [[["B-PER"]]], TypeError, r"y_true: sentence 0, token 0: tag list \['B-PER'\] is not a string "
                                              r"\(a sentence nested one level too deep\?\)"),
    (["B-PER", "O"], ["B-PER", "O"], TypeError, r"y_true: sentence 0 is str 'B-PER'.*flat list of tags"),
    (GOLD, [A[0], ["O", "", "O"]], ValueError, r"y_pred: sentence 1, token 1: the tag is an empty string"),
    (np.zeros((1, 2, 2)), A, TypeError, r"y_true is a 3-D numpy array"),
    (GOLD, np.array([A[0], ["O", 1.5, "O"]], dtype=object), TypeError, r"y_pred: sentence 1, token 1: tag float 1.5"),
    ([], [], ValueError, r"y_true is empty \(0 sentences, 0 tokens\): there is nothing to score"),
    ([[], []], [[], []], ValueError, r"y_true is empty \(2 sentences, 0 tokens\)"),
    (GOLD, {"sys": [A[0], ["O"]]}, ValueError, r"sentence 1: y_true has 3 tags, y_pred\['sys'\] has 1"),
])
def test_bad_input_names_argument_sentence_and_value(y_true, y_pred, error, needle):
    with pytest.raises(error, match=needle) as info:
        ts_eval.score(y_true, y_pred)
    assert isinstance(info.value, ts_eval.InputError)        # the CLI's and older code's catch still works


def test_numpy_arrays_of_strings_and_objects_score_like_lists(report):
    want = ts_eval.score(GOLD, A).system("system")
    ragged = np.empty(2, dtype=object)
    ragged[:] = [np.array(s) for s in A]                      # 1-D array of 1-D string arrays
    for pred in (ragged, np.array([np.array(s, dtype=object) for s in A], dtype=object)):
        got = ts_eval.score(GOLD, pred).system("system")
        assert got["ts"] == want["ts"] and got["exact"]["micro"] == want["exact"]["micro"]
    same = [["B-X", "O"], ["O", "B-Y"]]
    assert ts_eval.score(np.array(same), np.array(same)).system("system")["exact"]["micro"]["f"] == 1.0
