"""Several references in one run (issue 34.1, 34.2, 34.4): score, compare and analyze with --gold NAME=PATH given
two or three times, and the same from Python.

The fixture is test_references' five sentences (references A and B, the system ``sys``) with a third reference
C = B without PER Tom (sentence 5) and a second system ``few`` (the first span of A in every sentence):

    sys: PER John, LOC Paris | ORG Acme Corp, PER Bob | LOC New York | ORG Reuters | PER Mary      (7 spans)
    few: PER John | ORG Acme Corp | LOC New York | MISC Reuters | PER Mary                       (5 spans)

Exact-match F1 = 2 TP / (reference spans + system spans):

    sys: A 2*5/(8+7) = 2/3,  B 2*6/(8+7) = 4/5,  C 2*6/(7+7) = 6/7
    few: A 2*5/(8+5) = 10/13, B 2*3/(8+5) = 6/13, C 2*3/(7+5) = 1/2

From B to C one span is removed (PER Tom, sentence 5): sys has 3 errors under B (FP New York, FN New York City,
FN Tom) and 2 under C; Tom is a gold error it got right (wrong under B, right under C).  On the changed sentence
(5) sys scores 2*1/(2+1) = 2/3 under B and 2*1/(1+1) = 1 under C; on the other four 2*5/(6+6) = 5/6 under both.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from support import run_cli
from test_references import SENTENCES, SYSTEM, A, B, write

from ts_eval.analysis.api import analyze
from ts_eval.comparison.by_reference import compare_by_reference, score_references
from ts_eval.errors import OptionError
from ts_eval.io.api import read_with_references

C = [list(s) for s in B[:4]] + [[("PER", 0, 1)]]
FEW = [s[:1] for s in A]
EXACT = "exact-f1-micro"


@pytest.fixture
def paths(tmp_path):
    return {k: write(tmp_path / f"{k}.conll", v)
            for k, v in (("a", A), ("b", B), ("c", C), ("sys", SYSTEM), ("few", FEW))}


def corpus_of(paths, refs=("a", "b", "c")):
    return read_with_references({r.upper(): paths[r] for r in refs}, {"sys": paths["sys"], "few": paths["few"]})


def test_two_references_scored_by_hand(paths):
    r = score_references(corpus_of(paths, ("a", "b")), ["A", "B"])
    assert r.references == ["A", "B"] and r.systems == ["sys", "few"]
    assert r.scores["sys"]["exact"] == pytest.approx({"A": 2 / 3, "B": 4 / 5})
    assert r.scores["few"]["exact"] == pytest.approx({"A": 10 / 13, "B": 6 / 13})
    assert r.difference("sys", "exact", "B") == pytest.approx(2 / 15)
    assert r.reports["B"].system("sys")["exact"]["micro"]["tp"] == 6          # the counts of each reference's report


def test_three_references_scored_by_hand(paths):
    r = score_references(corpus_of(paths), ["A", "B", "C"])
    assert r.scores["sys"]["exact"] == pytest.approx({"A": 2 / 3, "B": 4 / 5, "C": 6 / 7})
    assert r.scores["few"]["exact"] == pytest.approx({"A": 10 / 13, "B": 6 / 13, "C": 1 / 2})
    d = r.to_dict()
    assert d["layout"] == {"kind": "score-references", "version": 1} and d["references"] == ["A", "B", "C"]
    few = next(s for s in d["systems"] if s["name"] == "few")["models"]["exact"]["references"]
    assert few["C"]["difference"] == pytest.approx(1 / 2 - 10 / 13) and few["A"]["difference"] == 0


def test_a_reference_against_itself_changes_nothing(paths):
    corpus = read_with_references({"A": paths["a"], "A2": paths["a"]}, {"sys": paths["sys"], "few": paths["few"]})
    r = score_references(corpus, ["A", "A2"])
    assert all(r.difference(s, m, "A2") == 0 for s in r.systems for m in r.scores[s])
    steps = analyze(corpus, references=["A", "A2"], min_agree=1, bootstrap=0, permutations=0).references
    assert steps is not None
    step = steps.steps[0]
    assert sum(step.comparison.changes.counts.values()) == 0
    assert all(s.wrong_a_right_b == s.right_a_wrong_b == 0 for s in step.comparison.systems)
    assert step.suspects is not None and step.suspects.touched == 0


def test_swapping_two_references_negates_every_difference(paths):
    ab = score_references(corpus_of(paths, ("a", "b")), ["A", "B"])
    ba = score_references(corpus_of(paths, ("b", "a")), ["B", "A"])
    for s in ab.systems:
        for m in ab.scores[s]:
            assert ba.difference(s, m, "A") == pytest.approx(-ab.difference(s, m, "B"), abs=1e-12)
    one = compare_by_reference(corpus_of(paths, ("a", "b")), ["A", "B"], "sys", "few", permutations=0)
    two = compare_by_reference(corpus_of(paths, ("b", "a")), ["B", "A"], "sys", "few", permutations=0)
    for m in one.models:
        assert two.tests["A"][m]["difference"] == pytest.approx(one.tests["A"][m]["difference"])


def test_the_pair_under_each_reference(paths):
    r = compare_by_reference(corpus_of(paths), ["A", "B", "C"], "sys", "few", test_models=[EXACT], permutations=200)
    assert r.tests["A"][EXACT]["difference"] == pytest.approx(10 / 13 - 2 / 3)
    assert r.tests["B"][EXACT]["difference"] == pytest.approx(6 / 13 - 4 / 5)
    assert r.tests["C"][EXACT]["difference"] == pytest.approx(1 / 2 - 6 / 7)
    assert all(0 < r.tests[ref][EXACT]["p_value"] <= 1 for ref in r.references)
    assert r.comparisons == {}                       # no comparison handed in: the tests alone
    assert r.to_dict()["layout"] == {"kind": "compare-references", "version": 1}


def test_analyze_steps_from_one_reference_to_the_next(paths):
    result = analyze(corpus_of(paths), references=["A", "B", "C"], min_agree=1, bootstrap=0, permutations=0,
                     models=[EXACT])
    assert result.systems == ["sys", "few"]
    assert result.overall is not None and result.overall[0, 0] == pytest.approx(2 / 3)     # under A
    steps = result.references
    assert steps is not None and [(s.comparison.changes.reference_a, s.comparison.changes.reference_b)
                                  for s in steps.steps] == [("A", "B"), ("B", "C")]
    first, second = steps.steps
    assert first.comparison.changes.counts == {"added": 1, "removed": 1, "relabelled": 1, "rebounded": 1}
    assert second.comparison.changes.counts == {"added": 0, "removed": 1, "relabelled": 0, "rebounded": 0}
    assert second.comparison.changes.changed_sentences == [4]
    s = second.comparison.system("sys")
    assert (s.errors_a, s.errors_b, s.wrong_a_right_b, s.right_a_wrong_b) == (3, 2, 1, 0)
    exact = s.scores[EXACT]
    assert (exact["changed"]["score_a"], exact["changed"]["score_b"]) == pytest.approx((2 / 3, 1.0))
    assert exact["unchanged"]["score_a"] == exact["unchanged"]["score_b"] == pytest.approx(5 / 6)
    assert exact["unchanged"]["difference"] == 0
    assert first.suspects is not None and second.suspects is not None
    assert first.suspects.reference_a == "A" and second.suspects.reference_a == "B"
    data = json.loads(json.dumps(result.to_dict()))
    assert [st["reference_b"] for st in data["references"]["steps"]] == ["B", "C"]


def test_bad_references_are_option_errors(paths):
    corpus = corpus_of(paths)
    with pytest.raises(OptionError, match="two or more"):
        score_references(corpus, ["A"])
    with pytest.raises(OptionError, match="given twice"):
        score_references(corpus, ["A", "B", "B"])
    with pytest.raises(OptionError, match="no side called 'D'"):
        score_references(corpus, ["A", "D"])
    with pytest.raises(OptionError, match="a reference, not a system"):
        score_references(corpus, ["A", "B"], systems=["B"])
    with pytest.raises(OptionError, match="the name of reference B"):
        read_with_references({"A": paths["a"], "B": paths["b"]}, {"B": paths["sys"]})


# ---------------------------------------------------------------------------
# the command line


def _golds(paths, refs=("a", "b", "c")):
    return [x for r in refs for x in ("--gold", f"{r}={paths[r]}")]


def test_score_on_the_command_line_gives_the_librarys_numbers(paths, capsys):
    code, out, err = run_cli(["score", *_golds(paths), paths["sys"], paths["few"], "--format", "json"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert d["references"] == ["a", "b", "c"] and d["settings"]["input"]["gold"][0] == f"a={paths['a']}"
    sys_ = next(s for s in d["systems"] if s["name"] == "sys")["models"]["exact"]["references"]
    assert [sys_[r]["score"] for r in "abc"] == pytest.approx([2 / 3, 4 / 5, 6 / 7])
    assert d["reports"]["c"]["systems"][0]["exact"]["micro"]["tp"] == 6


def test_one_gold_is_the_score_of_before(paths, capsys):
    """One --gold (even NAME=PATH-like) is the plain score: the same bytes as a single gold always gave."""
    code, out, _ = run_cli(["score", "--gold", paths["a"], paths["sys"], "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["layout"]["kind"] == "score"


@pytest.mark.parametrize("command", ["score", "compare", "analyze"])
@pytest.mark.parametrize("width", [80, 120])
def test_the_terminal_fits_the_width(paths, capsys, monkeypatch, command, width):
    monkeypatch.setenv("COLUMNS", str(width))
    monkeypatch.chdir(Path(paths["a"]).parent)      # (short paths: a path is never broken across lines)
    paths = {k: Path(p).name for k, p in paths.items()}
    extra = ["--min-agree", "1", "--bootstrap", "0", "--permutations", "0"] if command == "analyze" else (
        ["--permutations", "100"] if command == "compare" else [])
    code, out, err = run_cli([command, *_golds(paths), paths["sys"], paths["few"], *extra], capsys)
    assert code == 0, err
    assert [line for line in out.splitlines() if len(line) > width] == []
    needles = {"score": ["Headline F1", "exact: c - a", "a: Summary", "c: Summary"],
               "compare": ["few - sys under each reference", "verdict", "b: Systems"],
               "analyze": ["What changed: a -> b", "What changed: b -> c", "The systems: b -> c",
                           "Gold suspects checked: a -> b", "unchanged: c - b"]}[command]
    for needle in needles:
        assert needle in out, needle


@pytest.mark.parametrize("command", ["score", "compare", "analyze"])
@pytest.mark.parametrize("fmt", ["json", "csv", "markdown", "latex", "html"])
def test_every_format(paths, capsys, command, fmt):
    extra = ["--min-agree", "1", "--bootstrap", "0", "--permutations", "0"] if command == "analyze" else []
    code, out, err = run_cli([command, *_golds(paths, ("a", "b")), paths["sys"], paths["few"], *extra,
                              "--format", fmt], capsys)
    assert code == 0, err
    assert "b" in out and len(out) > 1000
    if fmt == "csv":
        assert ("by-reference" if command != "analyze" else "step1-systems") in out


def test_the_command_line_errors(paths, tmp_path, capsys):
    other = [list(s) for s in SENTENCES]
    other[2][3] = "Town"
    bad = write(tmp_path / "bad.conll", B, other)
    code, _, err = run_cli(["score", "--gold", f"a={paths['a']}", "--gold", f"fixed={bad}", paths["sys"]], capsys)
    assert code == 1 and "'City'" in err and "'Town'" in err and "bad.conll:14" in err
    assert "reference a" in err and "reference fixed" in err
    code, _, err = run_cli(["analyze", "--gold", f"a={paths['a']}", "--gold", f"a={paths['b']}", paths["sys"]],
                           capsys)
    assert code == 2 and "two references are both called 'a'" in err
    code, _, err = run_cli(["compare", "--gold", f"a={paths['a']}", "--gold", paths["b"], paths["sys"]], capsys)
    assert code == 2 and f"--gold {paths['b']}" in err and "NAME=PATH" in err
    code, _, err = run_cli(["score", "--gold", f"sys={paths['a']}", "--gold", f"b={paths['b']}", paths["sys"]],
                           capsys)
    assert code == 2 and "a system is called 'sys'" in err and "--gold sys=" in err
    third = write(tmp_path / "third.conll", SYSTEM)
    code, _, err = run_cli(["compare", *_golds(paths), paths["sys"], paths["few"], third], capsys)
    assert code == 2 and "--pair" in err
    code, _, err = run_cli(["score", *_golds(paths), paths["sys"], "--format", "conlleval"], capsys)
    assert code == 2 and "--format conlleval" in err


def test_the_unchanged_sentences_differ_by_nothing_for_any_system(paths):
    steps = analyze(corpus_of(paths), references=["A", "B", "C"], errors=False, bootstrap=0, permutations=0).references
    assert steps is not None and all(step.suspects is None for step in steps.steps)     # errors=False: no suspects
    for step in steps.steps:
        for s in step.comparison.systems:
            assert all(np.isclose(p["unchanged"]["difference"], 0) for p in s.scores.values())


def test_gold_suspects_are_the_error_analysiss_every_suspect(paths):
    from ts_eval.analysis.errors import error_analysis
    from ts_eval.analysis.gold_suspects import gold_suspects
    from ts_eval.comparison.changes import under

    corpus = under(corpus_of(paths), "A", ["sys", "few"])
    for agree in (1, 2):
        whole = error_analysis(corpus, top=None, min_agree=agree).suspects
        alone = gold_suspects(corpus, min_agree=agree)
        assert (alone.total, alone.min_agree) == (whole.total, whole.min_agree) and alone.total > 0
        assert [s.to_dict() for s in alone.suspects] == [s.to_dict() for s in whole.suspects]


def test_one_gold_analysis_json_has_no_references_key(paths):
    """With one gold the analysis's JSON keeps the keys it had before several references came in."""
    import ts_eval

    one = ts_eval.read(paths["a"], {"sys": paths["sys"], "few": paths["few"]})
    d = analyze(one, min_agree=1, bootstrap=0, permutations=0).to_dict()
    assert "references" not in d and d["layout"] == {"kind": "analyze", "version": 1}


@pytest.mark.parametrize("command", ["score", "compare", "analyze", "rank"])
def test_one_named_reference_is_one_gold(paths, capsys, command):
    """``--gold NAME=PATH`` given once is PATH as the one gold (it was read as a file called 'NAME=PATH', which
    is not there), with the numbers of ``--gold PATH``."""
    extra = {"analyze": ["--min-agree", "1", "--bootstrap", "0", "--permutations", "0"],
             "rank": ["--bootstrap", "0", "--permutations", "0"], "compare": ["--permutations", "0"]}.get(command, [])
    outs = []
    for gold in (paths["a"], f"original={paths['a']}"):
        code, out, err = run_cli([command, "--gold", gold, paths["sys"], paths["few"], *extra, "--format", "json"],
                                 capsys)
        assert code == 0, err
        d = json.loads(out)
        d.pop("timings", None)
        d.get("settings", {}).pop("input", None)
        outs.append(d)
    assert outs[0] == outs[1]


def test_files_in_both_places_and_options_that_do_not_apply(paths, capsys):
    """System files both after --gold and after --system are refused as with one gold (the files before
    --system were left out without a word); compare refuses --jobs as score does (it was ignored); an unknown
    --pair names the option's systems as with one gold, not the library's keyword."""
    golds = _golds(paths, ("a", "b"))
    code, out, err = run_cli(["score", *golds, paths["sys"], "--system", paths["few"]], capsys)
    assert code == 2 and out == "" and "not both" in err
    code, out, err = run_cli(["compare", *golds, paths["sys"], paths["few"], "--jobs", "2"], capsys)
    assert code == 2 and out == "" and "--jobs" in err
    code, out, err = run_cli(["compare", *golds, paths["sys"], paths["few"], "--pair", "sys", "nosuch"], capsys)
    assert code == 2 and out == "" and "no system named 'nosuch'; systems: sys, few" in err
    assert "systems=" not in err


def test_the_all_labels_row_is_shown_with_several_references(paths, capsys):
    """--all-labels-row leaves the overview of several systems for the per-system tables, as with one gold
    (the overview has no such row: the option was dropped without a word); a row per reference."""
    code, out, err = run_cli(["score", *_golds(paths, ("a", "b")), paths["sys"], paths["few"], "--all-labels-row"],
                             capsys)
    assert code == 0, err
    assert out.count("all labels") == 4          # 2 systems x 2 references


@pytest.mark.parametrize("command", ["score", "compare", "analyze", "rank"])
def test_gold_col_is_refused_with_several_references(paths, capsys, command):
    """Every reference after the first is read as the systems are (their column), so --gold-col chose the first
    reference's column alone: a reference file of three columns gave its last column (a system's tags) as the
    second reference, without a word.  Now a usage error."""
    code, out, err = run_cli([command, *_golds(paths, ("a", "b")), paths["sys"], paths["few"], "--gold-col", "2"],
                             capsys)
    assert code == 2 and out == "" and "--gold-col" in err and "--system-col" in err


def test_compare_with_one_system_says_it_needs_two(paths, capsys):
    """One system file: the error says that compare needs two systems, as with one gold (it asked for --pair,
    which cannot help)."""
    code, out, err = run_cli(["compare", *_golds(paths, ("a", "b")), paths["sys"]], capsys)
    assert code == 2 and out == "" and "compare needs at least two systems" in err and "got 1" in err


def test_a_reference_without_a_name_is_refused_from_python(paths):
    """The command line refuses ``--gold =PATH``; from Python an empty name was read as a side called ''."""
    with pytest.raises(OptionError, match="a reference without a name"):
        read_with_references({"A": paths["a"], "": paths["b"]}, {"sys": paths["sys"]})
