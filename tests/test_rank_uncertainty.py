"""Uncertainty of a rank study: correlation intervals, flips between models, significance groups.

Small hand-made data only (nothing read from outside the repository).
"""
from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import iob2

from ts_eval import OptionError
from ts_eval.cli import main as rank_main
from ts_eval.cli.outputs import json_text
from ts_eval.core.sequences import from_sequences
from ts_eval.output.builders import build
from ts_eval.output.renderers import render
from ts_eval.ranking import statistics, sufficient
from ts_eval.ranking import study as ranking
from ts_eval.ranking import uncertainty as rank_uncertainty

scipy_stats = pytest.importorskip("scipy.stats")

# ---------------------------------------------------------------------------
# hand-worked data
#
# gold: s1 = one PER span over tokens 0..3; s2 = one LOC token.
#   X finds PER 0..2 (a boundary error) and the LOC: exact F1 = .5 (1 of 2 right, 1 of 2 found);
#     TS-F1 macro: PER 5 of 7 units right (tp 5, fn 2) -> 10/12, LOC 1 -> mean .9167
#   Y finds only the LOC: exact F1 = 2/3 (P 1, R .5); TS-F1 macro: PER 0, LOC 1 -> .5
#   Z finds nothing: 0 under both.
# So exact-f1-micro orders Y > X > Z and ts-f1-macro X > Y > Z: 1 of 3 pairs (X, Y) flips.
# X and Y differ on s1 only, so swapping their outputs on s1 swaps the two systems and
# leaves |d| as it is; swapping on s2 changes nothing: every permutation reaches |d|, p = 1.

GOLD = [["B-PER", "I-PER", "I-PER", "I-PER"], ["B-LOC", "O"]]
HAND = {
    "X": [["B-PER", "I-PER", "I-PER", "O"], ["B-LOC", "O"]],
    "Y": [["O", "O", "O", "O"], ["B-LOC", "O"]],
    "Z": [["O", "O", "O", "O"], ["O", "O"]],
}
PAPER = ["exact-f1-micro", "ts-f1-macro"]


def hand_result(**kw):
    opts = dict(models=PAPER, bootstrap=50, permutations=40, seed=1)
    opts.update(kw)
    return ranking.rank(GOLD, HAND, **opts)


def test_hand_scores_are_as_worked_out():
    r = hand_result()
    assert r.score("X", "exact-f1-micro") == pytest.approx(0.5)
    assert r.score("Y", "exact-f1-micro") == pytest.approx(2 / 3)
    assert r.score("X", "ts-f1-macro") == pytest.approx((10 / 12 + 1) / 2)
    assert r.score("Y", "ts-f1-macro") == pytest.approx(0.5)
    assert r.ranking("exact-f1-micro") == ["Y", "X", "Z"]
    assert r.ranking("ts-f1-macro") == ["X", "Y", "Z"]


def test_hand_flip_and_its_p_values():
    r = hand_result()
    f = r.flips("exact-f1-micro", "ts-f1-macro")
    assert (f.changed, f.pairs_compared, f.tied_under_one, f.significant_under_both) == (1, 3, 0, 0)
    (p,) = f.pairs
    assert (p.better_under_a, p.better_under_b) == ("Y", "X")
    assert p.p_a == 1.0 and p.p_b == 1.0            # every swap pattern reproduces |d| (see above)
    assert f.summary.startswith("1 of 3 pairs change order; 0 of them significantly under both models")
    back = r.flips("ts-f1-macro", "exact-f1-micro")
    assert [(q.better_under_a, q.better_under_b) for q in back.pairs] == [("X", "Y")]


def test_flips_without_permutation_test_have_no_p_values():
    r = hand_result(permutations=0)
    f = r.flips("exact-f1-micro", "ts-f1-macro")
    assert f.changed == 1 and not f.tested and f.significant_under_both is None
    assert f.pairs[0].p_a is None
    assert "significance not known" in f.summary
    assert r.uncertainty.groups is None and r.to_dict()["significance_groups"] is None


def test_a_pair_tied_under_one_model_is_not_a_change():
    r = hand_result()
    # fabricate: Y and Z tied under ts-f1-macro, opposite order of X and Y kept
    r.scores = np.array([[0.5, 0.9], [2 / 3, 0.5], [0.0, 0.5]])
    f = r.flips("exact-f1-micro", "ts-f1-macro")
    assert (f.changed, f.tied_under_one) == (1, 1)
    assert "1 more tied under one model only" in f.summary


def test_flip_pairs_follow_model_a_order():
    r = hand_result()
    r.scores = np.array([[0.3, 0.1], [0.2, 0.2], [0.1, 0.3]])   # B reverses A completely
    r.order = np.array([[0, 1, 2], [2, 1, 0]])
    f = r.flips("exact-f1-micro", "ts-f1-macro")
    assert [(p.better_under_a, p.better_under_b) for p in f.pairs] == [("X", "Y"), ("X", "Z"), ("Y", "Z")]


# ---------------------------------------------------------------------------
# significance groups and Holm


def test_holm_by_hand():
    # sorted: .005*4 = .02, .01*3 = .03, .03*2 = .06, .04*1 = .04 -> running max .06
    got = rank_uncertainty.holm([0.01, 0.04, 0.03, 0.005])
    np.testing.assert_allclose(got, [0.03, 0.06, 0.06, 0.02])
    got = rank_uncertainty.holm([0.4, np.nan, 0.5])       # nan is no test: m = 2
    np.testing.assert_allclose(got, [0.8, np.nan, 0.8])
    np.testing.assert_allclose(rank_uncertainty.holm([0.7, 0.9]), [1.0, 1.0])   # capped at 1


def test_holm_agrees_with_statsmodels():
    multipletests = pytest.importorskip("statsmodels.stats.multitest").multipletests
    p = np.random.default_rng(5).random(12) ** 3
    np.testing.assert_allclose(rank_uncertainty.holm(p), multipletests(p, method="holm")[1])


def test_groups_by_hand():
    # order: systems 2, 0, 1, 3; neighbour p-values 0.001, 0.5, 0.004 ->
    # Holm: .001*3 = .003, .004*2 = .008, .5*1 = .5  -> breaks after the 1st and the 3rd position
    p_next = np.array([0.5, 0.004, 0.001, np.nan])
    groups, adj = rank_uncertainty.significance_groups(np.array([2, 0, 1, 3]), p_next, 0.05)
    np.testing.assert_array_equal(groups, [2, 2, 1, 3])
    np.testing.assert_allclose(adj, [0.5, 0.008, 0.003, np.nan])


def test_holm_merges_groups_that_uncorrected_tests_would_split():
    p_next = np.array([0.03, 0.04, np.nan])              # both < .05 uncorrected; Holm: .06, .06
    groups, _ = rank_uncertainty.significance_groups(np.array([0, 1, 2]), p_next, 0.05)
    np.testing.assert_array_equal(groups, [1, 1, 1])
    groups, _ = rank_uncertainty.significance_groups(np.array([0, 1, 2]), p_next, 0.10)
    np.testing.assert_array_equal(groups, [1, 2, 3])


def gap_data():
    """A perfect (30 sentences, one PER each), B misses one, C finds nothing."""
    gold = [["B-PER", "O"] for _ in range(30)]
    return gold, {"A": [s[:] for s in gold], "B": [["O", "O"]] + [s[:] for s in gold[1:]],
                  "C": [["O", "O"] for _ in gold]}


def test_groups_end_to_end():
    # A vs B differ on one sentence only: swapping it swaps the systems, p = 1.  B vs C differ on
    # 29 sentences: only the all-or-nothing swap patterns reach |d|, so none of 200 does: p = 1/201.
    # Holm over the two tests: 2/201 and 1 -> one break, between B and C.
    gold, systems = gap_data()
    r = ranking.rank(gold, systems, models=["exact-f1-micro"], bootstrap=0, permutations=200, seed=0)
    assert r.ranking("exact-f1-micro") == ["A", "B", "C"]
    assert r.permutation.p_next[:2, 0].tolist() == [1.0, 1 / 201]
    u = r.uncertainty
    assert u.groups[:, 0].tolist() == [1, 1, 2]
    np.testing.assert_allclose(u.p_next_holm[:, 0], [1.0, 2 / 201, np.nan])
    d = r.to_dict()
    assert d["significance_groups"]["models"]["exact-f1-micro"]["groups"] == [["A", "B"], ["C"]]
    assert d["significance_groups"]["correction"] == "Holm"
    assert d["systems"][2]["models"]["exact-f1-micro"]["group"] == 2


# ---------------------------------------------------------------------------
# correlations on every resample


def random_scores(seed: int, resamples: int = 25, systems: int = 7, models: int = 4) -> np.ndarray:
    rng = np.random.default_rng(seed)
    s = rng.random((resamples, systems, models))
    s[:, :, 1] = np.round(s[:, :, 1], 1)          # ties
    s[:, :, 2] = s[:, :, 0] + 0.1 * rng.random((resamples, systems))
    s[3, :, 3] = 0.5                               # a model constant on one resample
    return s


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_resample_correlations_agree_with_scipy(seed):
    s = random_scores(seed)
    rho, tau = rank_uncertainty.resample_correlations(s)
    for b in range(s.shape[0]):
        for i in range(s.shape[2]):
            for j in range(s.shape[2]):
                x, y = s[b, :, i], s[b, :, j]
                if np.ptp(x) == 0 or np.ptp(y) == 0:
                    assert np.isnan(rho[b, i, j]) and np.isnan(tau[b, i, j])
                    continue
                assert rho[b, i, j] == pytest.approx(scipy_stats.spearmanr(x, y)[0], abs=1e-12)
                assert tau[b, i, j] == pytest.approx(scipy_stats.kendalltau(x, y)[0], abs=1e-12)


def test_resample_correlations_match_the_observed_ones():
    s = random_scores(4)
    rho, tau = rank_uncertainty.resample_correlations(s)
    for b in (0, 5):
        obs_rho, _, obs_tau = statistics.correlation_matrices(s[b])
        np.testing.assert_allclose(rho[b], obs_rho, atol=1e-12)
        np.testing.assert_allclose(tau[b], obs_tau, atol=1e-12)


def test_percentile_interval_leaves_undefined_resamples_out():
    v = np.array([0.1, np.nan, 0.3, 0.5, np.nan])[:, None, None]
    low, high, undefined = rank_uncertainty.percentile_interval(v, 0.5)
    # defined values .1 .3 .5: the 25% quantile (lower) is .1, the 75% (higher) .5
    assert (low[0, 0], high[0, 0], undefined[0, 0]) == (0.1, 0.5, 2)
    low, high, undefined = rank_uncertainty.percentile_interval(np.full((3, 1, 1), np.nan), 0.9)
    assert np.isnan(low[0, 0]) and np.isnan(high[0, 0]) and undefined[0, 0] == 3


def test_correlation_intervals_come_from_the_score_resamples():
    gold, systems = make_systems(seed=3)
    r = ranking.rank(gold, systems, models=PAPER + ["t-f1-macro"], bootstrap=60, permutations=0, seed=2,
                     confidence=0.9)
    s = r.bootstrap.resample_scores
    assert s.shape == (60, len(r.systems), 3)
    # the score intervals are the percentiles of these same resamples
    np.testing.assert_allclose(r.bootstrap.score_low, np.quantile(s, 0.05, axis=0))
    rho = np.array([[scipy_stats.spearmanr(s[b, :, 0], s[b, :, 1])[0]] for b in range(60)])[:, 0]
    tau = np.array([[scipy_stats.kendalltau(s[b, :, 0], s[b, :, 1])[0]] for b in range(60)])[:, 0]
    u = r.uncertainty
    assert u.spearman_low[0, 1] == pytest.approx(np.quantile(rho, 0.05, method="lower"), abs=1e-12)
    assert u.spearman_high[0, 1] == pytest.approx(np.quantile(rho, 0.95, method="higher"), abs=1e-12)
    assert u.kendall_low[1, 0] == pytest.approx(np.quantile(tau, 0.05, method="lower"), abs=1e-12)
    assert u.kendall_high[1, 0] == pytest.approx(np.quantile(tau, 0.95, method="higher"), abs=1e-12)
    assert u.undefined.sum() == 0
    ci = r.to_dict()["correlation_intervals"]
    assert ci["confidence"] == 0.9 and ci["resamples"] == 60
    assert ci["spearman_low"][0][1] == u.spearman_low[0, 1]


def make_systems(seed: int, n_sent: int = 40, n_systems: int = 5):
    """Gold tag sequences and noisy systems (each sentence: one or two spans)."""
    rng = np.random.default_rng(seed)
    gold = []
    for _ in range(n_sent):
        n = int(rng.integers(3, 9))
        spans = [(str(rng.choice(["PER", "LOC"])), 0, int(rng.integers(0, 2)) + 1)]            # end exclusive
        if n > 4:
            spans.append((str(rng.choice(["PER", "LOC", "ORG"])), 3, int(rng.integers(3, n)) + 1))
        gold.append((n, spans))
    systems = {}
    for k in range(n_systems):
        out = []
        for n, spans in gold:
            kept = []
            for lab, b, e in spans:
                u = rng.random()
                if u < 0.08 * (k + 1):
                    continue
                if u < 0.12 * (k + 1):
                    e = max(b + 1, e - 1)
                kept.append((lab, b, e))
            out.append(iob2(n, kept))
        systems[f"s{k}"] = out
    return [iob2(n, spans) for n, spans in gold], systems


# ---------------------------------------------------------------------------
# the generalised paired test


def test_pair_pvalues_reuse_the_neighbour_draws():
    gold, systems = make_systems(seed=7)
    r = ranking.rank(gold, systems, models=PAPER, bootstrap=0, permutations=120, seed=5)
    pp = r.permutation.pair_p
    for k in range(2):
        o = r.order[k]
        for a, b in zip(o[:-1], o[1:]):
            assert pp[a, b, k] == pp[b, a, k] == r.permutation.p_next[a, k]
    # the same pairs asked for on their own, with the same seed sequence: the same numbers
    tested = ~np.isnan(pp[:, :, 0])
    a, b = np.nonzero(np.triu(tested, 1))
    corpus_sm = sufficient.statistics(from_sequences(gold, systems), sufficient.resolve_models(PAPER))
    perm_seq = np.random.SeedSequence(5).spawn(2)[1]
    alone = rank_uncertainty.pair_pvalues(corpus_sm, [(a, b), (a, b)], 120, perm_seq)
    np.testing.assert_array_equal(alone[0], pp[a, b, 0])
    np.testing.assert_array_equal(alone[1], pp[a, b, 1])


def test_pair_pvalues_against_swapping_sentence_by_sentence():
    gold, systems = make_systems(seed=9, n_sent=25, n_systems=3)
    model = sufficient.get_model("ts-f1-macro")
    sm = sufficient.statistics(from_sequences(gold, systems), [model])
    seq = np.random.SeedSequence(11)
    (got,) = rank_uncertainty.pair_pvalues(sm, [(np.array([0, 1]), np.array([2, 2]))], 30, seq)
    # independent: draw the same swap patterns, swap the per-sentence statistics, sum and score
    per = sm.block(sm.data, model)                         # (sentences, systems, k)
    z = np.random.default_rng(seq).random((30, sm.n_units)) < 0.5
    for pos, (i, j) in enumerate([(0, 2), (1, 2)]):
        d = abs(float(model.score(per[:, i].sum(0))) - float(model.score(per[:, j].sum(0))))
        hits = 0
        for row in z:
            xi = np.where(row[:, None], per[:, j], per[:, i]).sum(0)
            xj = np.where(row[:, None], per[:, i], per[:, j]).sum(0)
            hits += abs(float(model.score(xi)) - float(model.score(xj))) >= d - 1e-12
        assert got[pos] == (hits + 1) / 31


def test_contested_pairs():
    scores = np.array([[0.9, 0.5], [0.8, 0.6], [0.1, 0.1], [0.1, 0.05]])
    a, b = rank_uncertainty.contested_pairs(scores)
    # (0, 1) reverses; (2, 3) is tied under the first model only: not contested
    assert list(zip(a.tolist(), b.tolist())) == [(0, 1)]


# ---------------------------------------------------------------------------
# determinism, multi-task means, outputs


def uncertainty_part(d):
    return {k: d[k] for k in ("correlation_intervals", "flips", "significance_groups")}


def test_same_seed_same_numbers_other_seed_other_numbers():
    gold, systems = make_systems(seed=1)
    run = lambda seed: ranking.rank(gold, systems, models=PAPER, bootstrap=80, permutations=80,  # noqa: E731
                                    seed=seed).to_dict()
    a, b, c = run(3), run(3), run(4)
    assert uncertainty_part(a) == uncertainty_part(b)
    assert uncertainty_part(a) != uncertainty_part(c)


def test_mean_intervals_over_tasks():
    tasks = {}
    for k in range(2):
        gold, systems = make_systems(seed=20 + k)
        tasks[f"t{k}"] = ranking.rank(gold, systems, models=PAPER, bootstrap=40, permutations=0, seed=k, task=f"t{k}")
    res = ranking.combine(tasks)
    ci = res.to_dict()["mean_correlation_intervals"]
    mean = (tasks["t0"].uncertainty.resample_spearman + tasks["t1"].uncertainty.resample_spearman) / 2
    assert ci["spearman_low"][0][1] == pytest.approx(np.quantile(mean[:, 0, 1], 0.025, method="lower"))
    assert ci["spearman_high"][0][1] == pytest.approx(np.quantile(mean[:, 0, 1], 0.975, method="higher"))
    # different resample counts: no mean interval (no pairing of resamples)
    gold, systems = make_systems(seed=30)
    tasks["t2"] = ranking.rank(gold, systems, models=PAPER, bootstrap=10, permutations=0, task="t2")
    assert ranking.combine(tasks).to_dict()["mean_correlation_intervals"] is None


def test_json_has_every_model_pairs_flips():
    r = hand_result(models=PAPER + ["t-f1-macro"])
    d = json.loads(json_text(r))
    pairs = [(f["model_a"], f["model_b"]) for f in d["flips"]["pairs"]]
    assert pairs == [("exact-f1-micro", "ts-f1-macro"), ("exact-f1-micro", "t-f1-macro"),
                     ("ts-f1-macro", "t-f1-macro")]
    first = d["flips"]["pairs"][0]
    assert (first["changed"], first["pairs_compared"], first["significant_under_both"]) == (1, 3, 0)
    assert first["pairs"] == [{"better_under_a": "Y", "better_under_b": "X", "p_a": 1.0, "p_b": 1.0,
                               "significant_under_both": False}]
    assert d["settings"]["alpha"] == 0.05


def test_text_formats_and_csv():
    # every format is the result's document rendered by that format's renderer; the CSV is the
    # renderers' long layout (table,row,column,value,low,high,kind), with the models' names as keys
    r = hand_result(flips=[("exact-f1-micro", "ts-f1-macro")], alpha=0.1)
    md = render(build(r), "markdown")
    assert "flips between Seg-F1µ and TS-F1M" in md
    assert "Seg-F1µ vs TS-F1M: 1 of 3 pairs change order; 0 of them significantly" in md
    assert "p < 0.1 under each" in md
    assert "significance groups (Holm-corrected neighbour tests, alpha 0.1)" in md
    assert "Spearman's rank correlation with 95% bootstrap intervals" in md
    tex = render(build(r), "latex")
    assert "flips between" in tex and "Holm" in tex
    text = render(build(r), "table", width=200)
    assert "agreement of each model with Seg-F1µ" in text and "1 of 3" in text
    assert "bootstrap standard error" not in text      # the detail sections stay out of the terminal summary
    rows = render(build(r, every_flip=True), "csv").splitlines()
    assert "flip-summary-task,exact-f1-micro/ts-f1-macro,changed,1,,,count" in rows
    assert "flips-task-exact-f1-micro-ts-f1-macro,Y/X,p_a,1.0,,,p" in rows
    assert "groups-task,X,exact-f1-micro,1,,,count" in rows
    rho = [row.split(",") for row in rows if row.startswith("spearman-task,exact-f1-micro,ts-f1-macro,")]
    assert float(rho[0][4]) == r.uncertainty.spearman_low[0, 1]


def test_bad_flip_pairs_and_alpha():
    with pytest.raises(OptionError, match="'nope' is not among the ranked models"):
        hand_result(flips=[("exact-f1-micro", "nope")])
    with pytest.raises(OptionError, match="two different model names"):
        hand_result(flips=[("ts-f1-macro", "ts-f1-macro")])
    with pytest.raises(OptionError, match="alpha=0: expected a number between 0 and 1"):
        hand_result(alpha=0)


def write_files(tmp_path):
    def write(name, seqs):
        lines = []
        for s, sent in enumerate(seqs):
            lines += [f"w{s}_{t} {tag}" for t, tag in enumerate(sent)] + [""]
        (tmp_path / name).write_text("\n".join(lines), encoding="utf-8")
    write("gold.conll", GOLD)
    for name, seqs in HAND.items():
        write(f"{name}.conll", seqs)
    return [tmp_path / "gold.conll"] + [tmp_path / f"{n}.conll" for n in HAND]


def test_cli_flips_and_alpha(tmp_path, capsys):
    gold, *systems = write_files(tmp_path)
    code = rank_main(["rank", "--gold", str(gold), *map(str, systems), "--models", ",".join(PAPER),
                      "--bootstrap", "30", "--permutations", "30", "--flips", "exact-f1-micro,ts-f1-macro",
                      "--alpha", "0.01", "--format", "markdown", "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0
    assert "1 of 3 pairs change order" in out and "alpha 0.01" in out
    code = rank_main(["rank", "--gold", str(gold), *map(str, systems), "--flips", "exact-f1-micro",
                      "--no-progress"])
    assert code == 2
    assert "--flips exact-f1-micro: expected two model names" in capsys.readouterr().err


# ---------------------------------------------------------------------------
# invariants


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(min_value=0.0, max_value=1.0), min_size=1, max_size=15))
def test_holm_invariants(p):
    p = np.array(p)
    adj = rank_uncertainty.holm(p)
    assert np.all(adj >= p - 1e-15) and np.all(adj <= 1.0)
    assert np.all(adj <= np.minimum(1.0, len(p) * p) + 1e-15)        # never stricter than Bonferroni
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(adj[order]) >= 0)                          # keeps the order of the p-values


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(3, 9))
def test_flips_count_the_discordant_pairs_of_kendall(seed, n):
    # without ties, tau = (concordant - discordant) / P, and the changed pairs are the discordant ones
    rng = np.random.default_rng(seed)
    r = hand_result(bootstrap=0, permutations=0)
    r.systems = [f"s{i}" for i in range(n)]
    r.scores = np.stack([rng.permutation(n), rng.permutation(n)], axis=1).astype(float)
    r.order = np.argsort(-r.scores, axis=0).T
    f = r.flips("exact-f1-micro", "ts-f1-macro")
    pairs = n * (n - 1) // 2
    tau = scipy_stats.kendalltau(r.scores[:, 0], r.scores[:, 1])[0]
    assert f.changed == round(pairs * (1 - tau) / 2)
    assert f.changed == r.flips("ts-f1-macro", "exact-f1-micro").changed
    assert f.tied_under_one == 0


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_resample_correlation_matrices_are_symmetric_with_unit_diagonal(seed):
    s = random_scores(seed, resamples=6, systems=5)
    for m in rank_uncertainty.resample_correlations(s):
        np.testing.assert_array_equal(np.isnan(m), np.isnan(np.swapaxes(m, 1, 2)))
        np.testing.assert_allclose(np.nan_to_num(m), np.nan_to_num(np.swapaxes(m, 1, 2)), atol=1e-12)
        d = np.diagonal(m, axis1=1, axis2=2)
        assert np.all(np.isnan(d) | np.isclose(d, 1.0))
        assert np.all(np.isnan(m) | (np.abs(m) <= 1 + 1e-12))


def test_p_value_table_follows_alpha():
    # the neighbour p-values (once the rows of the rankings table, now their own table): the note
    # names alpha, and the cells below alpha are the marked ones
    r = hand_result(alpha=0.2)
    p_rows = build(r).table("p-next-task")
    assert "p < 0.2, uncorrected" in p_rows.note
    cells = [c for row in p_rows.rows for c in row[1:] if c.value == c.value]
    assert cells and all((c.style == "significant") == (c.value < 0.2) for c in cells)
