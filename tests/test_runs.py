"""Several runs per system (:mod:`ts_eval.ranking.runs`): each system's mean, standard deviation, minimum and
maximum over its runs (hand-computed), the two-level bootstrap (hand-worked on a corpus of one sentence),
and its properties: one run per system is today's ranking, the order of the runs never matters."""
from __future__ import annotations

import json
import math
from collections import Counter
from typing import Any, Dict, List

import numpy as np
import pytest

import ts_eval
from ts_eval.errors import OptionError

GOLD = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "O"]]           # 3 gold spans
A_RUNS = [
    [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "O"]],             # exact F1 1
    [["B-PER", "I-PER", "O", "B-LOC"], ["O", "O", "O"]],                 # TP 2, FN 1: F1 0.8
]
B_RUNS = [
    [["B-PER", "O", "O", "B-LOC"], ["O", "B-ORG", "O"]],                 # TP 2, FP 1, FN 1: F1 2/3
    [["O", "O", "O", "O"], ["O", "B-ORG", "O"]],                         # TP 1, FN 2: F1 0.5
    [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "O"]],             # F1 1
]
QUICK: Dict[str, Any] = dict(models=["exact-f1-micro"], bootstrap=0, permutations=0)


def _plain(result: Any) -> Dict[str, Any]:
    d: Dict[str, Any] = json.loads(json.dumps(result.to_dict()))
    d.pop("timings")
    d["settings"].pop("versions")
    return d


def test_mean_sd_min_max_of_the_runs_by_hand() -> None:
    r = ts_eval.rank(GOLD, runs={"A": A_RUNS, "B": B_RUNS}, **QUICK)
    assert r.systems == ["A", "B"]
    assert r.scores[:, 0] == pytest.approx([0.9, (2 / 3 + 0.5 + 1) / 3])
    runs = r.runs
    assert runs is not None
    assert runs.sd[:, 0] == pytest.approx([math.sqrt(2 * 0.1 ** 2), math.sqrt(
        sum((x - 13 / 18) ** 2 for x in (2 / 3, 0.5, 1.0)) / 2)])
    assert runs.low[:, 0] == pytest.approx([0.8, 0.5])
    assert runs.high[:, 0] == pytest.approx([1.0, 1.0])
    # the runs in the order of their scores, whatever their names
    assert runs.runs.runs == [["A/2", "A/1"], ["B/2", "B/1", "B/3"]]
    assert runs.scores_of(1, 0) == pytest.approx([0.5, 2 / 3, 1.0])
    d = r.to_dict()["runs"]
    assert d["systems"][1]["models"]["exact-f1-micro"]["run_scores"] == pytest.approx([0.5, 2 / 3, 1.0])
    assert d["systems"][0]["models"]["exact-f1-micro"]["score_mean"] == pytest.approx(0.9)
    assert r.rank("A", "exact-f1-micro") == 1.0


def test_a_system_of_one_run_has_no_sd_and_sits_beside_runs() -> None:
    r = ts_eval.rank(GOLD, {"C": A_RUNS[1]}, runs={"B": B_RUNS}, **QUICK)
    assert r.systems == ["C", "B"]
    assert r.runs is not None and math.isnan(r.runs.sd[0, 0])
    assert r.to_dict()["runs"]["systems"][0]["models"]["exact-f1-micro"]["score_sd"] is None


def test_two_level_bootstrap_on_one_sentence_draws_only_runs() -> None:
    """One sentence: every resample of the units is that sentence, so the second level alone moves the scores.
    A has runs of F1 1 and 2/3, so its resample score is 1, 5/6 or 2/3 with probabilities 1/4, 1/2, 1/4; B's one
    run always scores 2/3."""
    gold = [["B-PER", "I-PER", "O", "B-LOC"]]
    a = [[["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "I-PER", "O", "O"]]]
    b = [[["O", "O", "O", "B-LOC"]]]
    r = ts_eval.rank(gold, runs={"A": a, "B": b}, models=["exact-f1-micro"], bootstrap=2000, permutations=0)
    assert r.bootstrap is not None and r.bootstrap.resample_scores is not None
    drawn = r.bootstrap.resample_scores[:, :, 0]
    assert np.allclose(drawn[:, 1], 2 / 3)
    seen = Counter(np.round(drawn[:, 0], 9))
    assert set(seen) == {round(1.0, 9), round(5 / 6, 9), round(2 / 3, 9)}
    for value, p in ((1.0, 0.25), (5 / 6, 0.5), (2 / 3, 0.25)):
        share = seen[round(value, 9)] / 2000
        assert abs(share - p) < 4 * math.sqrt(p * (1 - p) / 2000)      # four standard errors
    assert r.bootstrap.score_low[0, 0] == pytest.approx(2 / 3)
    assert r.bootstrap.score_high[0, 0] == pytest.approx(1.0)
    assert "two-level" in r.to_dict()["runs"]["bootstrap"]


def test_one_run_per_system_is_todays_ranking() -> None:
    systems = {"A": A_RUNS[1], "B": B_RUNS[0]}
    today = ts_eval.rank(GOLD, systems, bootstrap=200, permutations=200)
    as_runs = ts_eval.rank(GOLD, runs={"A": [A_RUNS[1]], "B": [B_RUNS[0]]}, bootstrap=200, permutations=200)
    assert _plain(as_runs) == _plain(today)


def test_the_order_of_runs_never_matters() -> None:
    options: Dict[str, Any] = dict(models=["exact-f1-micro", "ts-f1-micro"], bootstrap=300, permutations=0)
    first = ts_eval.rank(GOLD, runs={"A": A_RUNS, "B": B_RUNS}, **options)
    turned = ts_eval.rank(GOLD, runs={"B": B_RUNS[::-1], "A": A_RUNS[::-1]}, **options)
    a, b = _plain(first), _plain(turned)
    names = {s["name"]: s for s in a["systems"]}
    assert {s["name"]: s for s in b["systems"]} == names        # the same numbers for every system
    assert first.bootstrap is not None and turned.bootstrap is not None
    np.testing.assert_array_equal(first.bootstrap.resample_scores[:, ::-1], turned.bootstrap.resample_scores)


def _corpus(runs: Dict[str, List[Any]]) -> ts_eval.Corpus:
    from ts_eval.core.sequences import from_sequences

    return from_sequences(GOLD, {f"{n}{k}": seqs for n, each in runs.items() for k, seqs in enumerate(each, 1)})


def test_corpus_systems_grouped_into_runs_by_name() -> None:
    corpus = _corpus({"a": A_RUNS, "b": B_RUNS})
    r = ts_eval.rank(corpus, runs={"A": ["a1", "a2"], "B": ["b1", "b2", "b3"]}, **QUICK)
    assert r.systems == ["A", "B"] and r.scores[:, 0] == pytest.approx([0.9, 13 / 18])


@pytest.mark.parametrize("runs, message", [
    ({"A": ["a1", "zz"]}, "no run named 'zz'"),
    ({"A": ["a1", "a2"], "B": ["a2", "b1"]}, "run 'a2' is given for two systems"),
    ({"A": "a1"}, "expected a list of its runs"),
    ({"b1": ["a1", "a2"]}, "'b1' is both a system given as runs and another system read"),
])
def test_bad_runs_are_named(runs: Dict[str, Any], message: str) -> None:
    corpus = _corpus({"a": A_RUNS, "b": B_RUNS})
    with pytest.raises(OptionError, match=message):
        ts_eval.rank(corpus, runs=runs, **QUICK)


def test_runs_of_one_system_only_are_not_a_ranking() -> None:
    with pytest.raises(OptionError, match="at least two systems"):
        ts_eval.rank(GOLD, runs={"A": A_RUNS}, **QUICK)


def _run_scores(lists: Dict[str, List[float]]) -> Any:
    from ts_eval.ranking.runs import Runs, RunScores

    names = [f"{s}/{k}" for s, xs in lists.items() for k in range(len(xs))]
    runs = Runs.of(names, {s: [f"{s}/{k}" for k in range(len(xs))] for s, xs in lists.items()})
    assert runs is not None
    return RunScores.of(runs, ["m"], np.array([[x] for xs in lists.values() for x in xs]))


def test_groups_start_below_a_system_that_dominates_the_next() -> None:
    """A's runs are all far above B's and C's; B's and C's interleave (each of B's sorted runs 0.01 above C's): ASO
    splits A from B only."""
    from ts_eval.ranking.runs import compare_runs

    rs = _run_scores({"A": [0.90, 0.91, 0.92, 0.93], "B": [0.50, 0.52, 0.54, 0.56], "C": [0.51, 0.53, 0.55, 0.49]})
    order = np.argsort(-rs.mean[:, 0])[None]
    compare_runs(rs, order, confidence=0.95, resamples=500, seed=0, threshold=0.2)
    assert rs.groups[:, 0].tolist() == [1, 2, 2]
    assert rs.eps_min[0, 1, 0] == 0.0 and rs.eps_min[1, 0, 0] == 1.0          # every quantile of A is above B's
    assert 0.2 < rs.eps_min[1, 2, 0] < 1         # B's quantiles are above C's, but four runs do not settle it
    assert rs.beat[0, 1, 0] == 1.0 and rs.beat[1, 0, 0] == 0.0
    # B beats C in 10 of the 16 pairs of runs (0.50 beats 0.49; 0.52 two; 0.54 three; 0.56 all four)
    assert rs.beat[1, 2, 0] == pytest.approx(sum(b > c for b in (0.50, 0.52, 0.54, 0.56)
                                                 for c in (0.51, 0.53, 0.55, 0.49)) / 16)
    assert rs.aso["bonferroni_confidence"] == pytest.approx(0.95 + 0.05 / 3)


def test_aso_does_not_depend_on_the_order_of_systems() -> None:
    from ts_eval.ranking.runs import compare_runs

    lists = {"A": [0.6, 0.62, 0.61], "B": [0.59, 0.63, 0.6], "C": [0.5, 0.7, 0.55]}
    one, two = _run_scores(lists), _run_scores(dict(reversed(list(lists.items()))))
    for rs in (one, two):
        compare_runs(rs, np.argsort(-rs.mean[:, 0])[None], confidence=0.95, resamples=300, seed=4, threshold=0.2)
    back = [two.runs.systems.index(s) for s in one.runs.systems]
    np.testing.assert_array_equal(one.eps_min[:, :, 0], two.eps_min[np.ix_(back, back, [0])][:, :, 0])


def test_flips_the_runs_do_not_settle_are_said_so() -> None:
    r = ts_eval.rank(GOLD, runs={"A": A_RUNS, "B": B_RUNS}, models=["exact-f1-micro", "ts-f1-micro"],
                     bootstrap=50, aso_resamples=200)
    assert r.permutation is None and r.runs is not None and r.runs.eps_min is not None
    f = r.flips("exact-f1-micro", "ts-f1-micro")
    d = f.to_dict()
    assert d["threshold"] == 0.2 and d["settled_by_runs"] == sum(1 for p in d["pairs"] if p["settled_by_runs"])
    for p in f.pairs:
        assert p.eps_a == r.runs.eps_min[r.systems.index(p.better_under_a), r.systems.index(p.better_under_b), 0]
    if f.pairs:
        assert "not settled by the runs" in f.summary


def test_correlations_between_models_are_of_the_means_with_two_level_intervals() -> None:
    from ts_eval.ranking.statistics import correlation_matrices

    r = ts_eval.rank(GOLD, {"C": A_RUNS[1]}, runs={"A": A_RUNS, "B": B_RUNS},
                     models=["exact-f1-micro", "ts-f1-micro", "exact-f1-macro"], bootstrap=100, aso_resamples=50)
    assert r.runs is not None
    np.testing.assert_array_equal(r.scores, r.runs.mean)
    rho, _, tau = correlation_matrices(r.runs.mean)
    np.testing.assert_array_equal(r.spearman, rho)
    np.testing.assert_array_equal(r.kendall, tau)
    u = r.uncertainty
    assert u is not None and u.resample_spearman is not None and u.resample_spearman.shape == (100, 3, 3)
    assert r.bootstrap is not None and r.bootstrap.resample_scores is not None
    assert r.bootstrap.resample_scores.shape == (100, 3, 3)         # resamples x systems (not runs) x models
