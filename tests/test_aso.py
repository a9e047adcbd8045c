"""Almost Stochastic Order (ts_eval.ranking.aso) against deep-significance, its reference.

deepsig (``deepsig.aso``, ``deepsig.multi_aso``; in the test extra) computes the same estimator with
other random draws.  The deterministic part, the violation ratio ε_W2, is compared exactly (1e-12);
ε_min = ε_W2 + z·σ̂ is compared with deepsig's *seed-to-seed spread*: deepsig is run with SEEDS seeds,
ts_eval with SEEDS seeds, and the median of ts_eval's values must fall in [min − margin, max + margin]
of deepsig's, entry by entry.

- deepsig's seeds are spaced RESAMPLES apart: deepsig seeds resample i with ``seed + i``, so
  consecutive seeds share all but one of their resamples and their spread is far too narrow (on one
  pair of 5-run lists, seeds 0..19 spanned 0.65-0.69 where seeds 0, 100, .., 1900 spanned 0.56-0.72).
- ts_eval's median, not one draw: with 5 runs, σ̂ can be very skewed across seeds (a pair whose
  resamples have ratio 0 in 78 % of cases had ε_min from 0.0001 to 0.03 over 300 ts_eval seeds and
  0.0002 to 0.02 over 30 deepsig seeds, medians 0.0018 and 0.0020), so one draw of either falls
  outside the other's 10 draws too often to say anything.  If both are the same estimator, the
  median of 10 new draws lies above the maximum of 10 old ones only when the top 5 of the 20 are all
  new: C(10,5)/C(20,5) = 1.6 % per side.
- The margin is half of deepsig's range, which puts a miss far below that; a different estimator
  (another quantile grid, the first grid point in the violation integral, another z, ddof=1) moves
  ε_W2 exactly, which the exact tests catch, or σ̂ by a factor, which the spread tests catch.
- deepsig takes about 4 ms per resample (a Python function per quantile point; its import takes
  about 2 s), so the spread tests use RESAMPLES = 100 for both (the spread is then about three times
  that at deepsig's default 1,000); every test that runs deepsig is marked slow, so that
  ``-m "not slow"`` does not import it.

The score lists are generated here with numpy (F1-like numbers, 4 decimals), not typed in.
"""
from __future__ import annotations

import warnings
from statistics import NormalDist
from typing import Any, Dict, List

import numpy as np
import pytest

from ts_eval.errors import OptionError
from ts_eval.ranking.aso import (
    DT,
    aso_matrix,
    beat_probability,
    bonferroni_confidence,
    eps_min,
    eps_min_many,
    violation_ratio,
)

SEEDS = 10
RESAMPLES = 100


@pytest.fixture(scope="module")
def deepsig() -> Any:
    import deepsig  # the reference comes with the test extra (setup.cfg): no skipping
    return deepsig


def _quiet(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """deepsig with its own warnings silenced: 'Division by zero encountered in violation ratio' when
    two quantile functions agree (identical lists; ts_eval documents the 0.5 instead of warning)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Division by zero", category=UserWarning)
        return fn(*args, **kwargs)


def _f1(rng: np.random.Generator, mean: float, sd: float, n: int) -> np.ndarray:
    return np.round(rng.normal(mean, sd, n), 4)


def _lists() -> Dict[str, List[np.ndarray]]:
    rng = np.random.default_rng(20261128)
    same = _f1(rng, 88.0, 0.6, 5)
    return {
        "better": [_f1(rng, 89.0, 0.5, 5), _f1(rng, 88.2, 0.5, 5)],
        "overlap": [_f1(rng, 88.0, 0.6, 5), _f1(rng, 87.9, 0.6, 5)],
        "lengths": [_f1(rng, 88.3, 0.5, 4), _f1(rng, 88.0, 0.7, 8)],
        "identical": [same, same.copy()],
    }


# ---------------------------------------------------------------------------
# the point estimate: exactly deepsig's violation ratio

@pytest.mark.slow
def test_violation_ratio_is_deepsigs(deepsig):
    """ε_W2 on deepsig's 199-point grid (dt = 0.005, the first point left out of the violation
    integral), summed here over the stretches where both quantile functions are constant."""
    from deepsig.aso import compute_violation_ratio
    rng = np.random.default_rng(1)
    worst = 0.0
    for n_a, n_b in [(2, 2), (5, 5), (3, 7), (10, 4), (1, 5), (5, 1), (13, 6), (200, 3), (250, 250)]:
        for k in range(6):
            a, b = rng.normal(0, 1, n_a), rng.normal(0.3, 1, n_b)
            if k % 3 == 0:       # ties within and between the lists
                a, b = np.round(a, 1), np.round(b, 1)
            ref = _quiet(compute_violation_ratio, scores_a=a, scores_b=b, dt=DT)
            worst = max(worst, abs(violation_ratio(a, b) - ref))
    assert worst < 1e-12


def test_violation_ratio_hand_computed():
    """a = [1, 3], b = [2, 2]: on the grid, A's quantile is 1 for t ≤ 0.5 (100 points) and 3 above
    (99 points), B's is 2 throughout; every squared difference is 1, the distance 199·dt, the
    violation (A below B) the first 100 points less the first: 99·dt.  Ratio 99/199."""
    assert violation_ratio([1, 3], [2, 2]) == pytest.approx(99 / 199, abs=1e-15)
    assert violation_ratio([2, 2], [1, 3]) == pytest.approx(99 / 199, abs=1e-15)
    assert violation_ratio([3, 1], [2, 2]) == violation_ratio([1, 3], [2, 2])
    assert violation_ratio([1, 2], [1, 2]) == 0.5           # no distance: deepsig's 0.5


def test_ratios_of_both_orders_add_to_one_but_the_first_grid_point():
    """ε_W2(F, G) + ε_W2(G, F) = 1 − d₀²·dt / W2² (d₀: the two lowest scores' difference): deepsig's
    violation integral starts at the grid's second point; with equal lowest scores the sum is 1."""
    rng = np.random.default_rng(2)
    for _ in range(20):
        a, b = rng.normal(0, 1, 5), rng.normal(0.2, 1, 7)
        t = np.arange(DT, 1, DT)
        qa = np.sort(a)[np.clip(np.ceil(5 * t).astype(int) - 1, 0, 4)]
        qb = np.sort(b)[np.clip(np.ceil(7 * t).astype(int) - 1, 0, 6)]
        w2 = np.sum((qa - qb) ** 2 * DT)
        expected = 1 - (np.min(a) - np.min(b)) ** 2 * DT / w2
        assert violation_ratio(a, b) + violation_ratio(b, a) == pytest.approx(expected, abs=1e-12)
        b += np.min(a) - np.min(b)          # the same lowest score: d₀ = 0
        assert violation_ratio(a, b) + violation_ratio(b, a) == pytest.approx(1.0, abs=1e-12)


# ---------------------------------------------------------------------------
# ε_min: hand-computed cases and properties

def test_clearly_better_is_zero():
    """Every run of A above every run of B: every resample has ratio 0, so σ̂ = 0 and ε_min = 0.  The
    other way round is not 1: the grid's first point is outside the violation integral, so the ratio
    is 1 − d₀²·dt/W2 (0.9951 here) and the resamples' spread adds a little."""
    a, b = _far_apart()
    assert eps_min(a, b) == 0.0
    assert violation_ratio(a, b) == 0.0 and 0.995 < violation_ratio(b, a) < 0.996
    assert 0.995 < eps_min(b, a) < 0.997


def _far_apart() -> tuple:
    rng = np.random.default_rng(3)
    return _f1(rng, 92.0, 0.3, 5), _f1(rng, 85.0, 0.3, 5)


def test_constant_lists():
    """Constant lists: every resample is the list itself, σ̂ = 0, ε_min = the ratio: 0, 198/199 (the
    grid's first point is outside the violation integral) or 0.5."""
    assert eps_min([0.7] * 4, [0.5] * 3) == 0.0
    assert eps_min([0.5] * 3, [0.7] * 4) == pytest.approx(198 / 199, abs=1e-15)
    assert eps_min([0.6] * 3, [0.6] * 5) == 0.5


@pytest.mark.slow
def test_degenerate_cases_as_deepsig(deepsig):
    """The cases above give deepsig's numbers: 0 for A far above B, 0.995-0.997 the other way round,
    198/199 and 0.5 for constant lists."""
    def ref(a: Any, b: Any, seed: int = 0) -> float:
        return float(_quiet(deepsig.aso, a, b, num_bootstrap_iterations=20, seed=seed, show_progress=False))
    a, b = _far_apart()
    assert ref(a, b) == 0.0
    assert all(0.995 < ref(b, a, seed=20 * k) < 0.997 for k in range(3))
    assert ref([0.7] * 4, [0.5] * 3) == 0.0
    assert ref([0.5] * 3, [0.7] * 4) == pytest.approx(198 / 199, abs=1e-15)
    assert ref([0.6] * 3, [0.6] * 5) == 0.5


def test_identical_lists_are_half_plus_the_bound():
    a = [88.1, 88.5, 87.9, 88.3, 88.0]
    e = eps_min(a, list(a))
    assert violation_ratio(a, a) == 0.5
    assert 0.5 < e <= 1.0            # the resamples differ, so the bound lies above the ratio


def test_seed_determinism():
    a, b = _lists()["overlap"]
    assert eps_min(a, b, seed=5) == eps_min(a, b, seed=5)
    assert aso_matrix([a, b, a + 0.1], seed=5).tolist() == aso_matrix([a, b, a + 0.1], seed=5).tolist()
    assert len({eps_min(a, b, seed=s) for s in range(5)}) == 5


def test_order_of_runs_never_matters():
    """The runs are sorted before resampling: any order of the same runs gives the same number."""
    rng = np.random.default_rng(4)
    lists = _lists()
    for a, b in lists.values():
        e = eps_min(a, b, seed=7)
        for _ in range(5):
            assert eps_min(rng.permutation(a), rng.permutation(b), seed=7) == e
            assert beat_probability(rng.permutation(a), rng.permutation(b)) == beat_probability(a, b)
    systems = [lists["overlap"][0], lists["overlap"][1], lists["lengths"][1]]
    m = aso_matrix(systems, seed=7)
    assert aso_matrix([rng.permutation(s) for s in systems], seed=7).tolist() == m.tolist()


def test_confidence_moves_the_bound_by_z_sigma():
    """ε_min = ε_W2 + z·σ̂: the same draws at two confidence levels differ by (z₁ − z₂)·σ̂ (unclipped)."""
    a, b = _lists()["lengths"]
    r = violation_ratio(a, b)
    z90, z99 = NormalDist().inv_cdf(0.90), NormalDist().inv_cdf(0.99)
    e90, e99 = eps_min(a, b, confidence=0.90), eps_min(a, b, confidence=0.99)
    assert 0 < e90 < e99 < 1
    assert (e90 - r) / z90 == pytest.approx((e99 - r) / z99, rel=1e-12)     # one σ̂


def test_many_pairs_at_once_equal_one_by_one():
    lists = _lists()
    a = np.stack([lists["better"][0], lists["overlap"][0], lists["identical"][0]])
    b = np.stack([lists["better"][1], lists["overlap"][1], lists["identical"][1]])
    many = eps_min_many(a, b, seed=3)
    # the same draws; only the order of BLAS's sums may differ between 1 and 3 pairs
    assert many == pytest.approx([eps_min(x, y, seed=3) for x, y in zip(a, b)], abs=1e-14)


def test_bad_arguments_are_option_errors():
    with pytest.raises(OptionError, match=r"^a: needs at least 2 scores") as err:
        eps_min([0.9], [0.8, 0.7])
    assert err.value.option == "a"
    with pytest.raises(OptionError, match=r"^b: every score must be a finite number, found nan"):
        eps_min([0.9, 0.8], [0.8, float("nan")])
    with pytest.raises(OptionError, match=r"^confidence=1: expected a number between 0 and 1"):
        eps_min([0.9, 0.8], [0.8, 0.7], confidence=1)
    with pytest.raises(OptionError, match=r"^resamples=0: "):
        eps_min([0.9, 0.8], [0.8, 0.7], resamples=0)
    with pytest.raises(OptionError, match=r"^seed=-1: "):
        eps_min([0.9, 0.8], [0.8, 0.7], seed=-1)
    with pytest.raises(OptionError, match=r"at least two systems, got 1"):
        aso_matrix({"only": [0.9, 0.8]})
    with pytest.raises(OptionError, match=r"^scores\['b'\]: needs at least 2 scores"):
        aso_matrix({"a": [0.9, 0.8], "b": [0.7]})
    with pytest.raises(OptionError, match=r"^a: expected a flat list"):
        eps_min([[0.9, 0.8]], [0.8, 0.7])
    with pytest.raises(OptionError, match=r"^a: needs at least 1 scores"):
        beat_probability([], [0.5])


# ---------------------------------------------------------------------------
# the matrix and deepsig's Bonferroni correction

def test_bonferroni_confidence_is_deepsigs_formula():
    """multi_aso: confidence + (1 − confidence) / m, m = k(k − 1)/2 (not 1 − (1 − confidence)/m)."""
    assert bonferroni_confidence(0.95, 4) == pytest.approx(0.95 + 0.05 / 6)
    assert bonferroni_confidence(0.95, 3) == pytest.approx(0.95 + 0.05 / 3)
    assert bonferroni_confidence(0.99, 30) == pytest.approx(0.99 + 0.01 / 435)
    assert bonferroni_confidence(0.95, 2) == 0.95       # one comparison: unchanged (see the next test)


@pytest.mark.slow
def test_two_systems_keep_the_level_where_multi_aso_returns_one(deepsig):
    """With two systems multi_aso raises the level to 0.95 + 0.05/1 = 1: Φ⁻¹(0) = −∞ makes every ε_min
    1, or nan where σ̂ = 0.  ts_eval keeps the level (deepsig's aso does so for num_comparisons=1)."""
    a, b = _lists()["overlap"]
    ref = deepsig.multi_aso({"a": a, "b": b}, num_bootstrap_iterations=20, seed=0, show_progress=False)
    assert ref.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    with warnings.catch_warnings():          # deepsig: 0 · ∞ in the bound
        warnings.filterwarnings("ignore", message="invalid value encountered", category=RuntimeWarning)
        far = deepsig.multi_aso({"a": a + 10, "b": b}, num_bootstrap_iterations=20, seed=0, show_progress=False)
    assert np.isnan(far[0, 1]) and np.isnan(far[1, 0])
    m = aso_matrix({"a": a, "b": b}, seed=4)
    assert m[0, 1] == aso_matrix({"a": a, "b": b}, seed=4, bonferroni=False)[0, 1]
    assert m[0, 1] == pytest.approx(eps_min(a, b, seed=4), abs=1e-14)
    far_ours = aso_matrix({"a": a + 10, "b": b})
    assert far_ours[0, 1] == 0.0 and far_ours[1, 0] == 1.0     # multi_aso's other side: 1 − ε_W2(a, b)


def test_matrix_layout_and_inputs():
    lists = _lists()
    systems = {"x": lists["overlap"][0], "y": lists["overlap"][1], "z": lists["better"][0]}
    m = aso_matrix(systems, seed=1)
    assert m.shape == (3, 3) and np.diag(m).tolist() == [1.0, 1.0, 1.0]     # deepsig's diagonal
    assert aso_matrix(list(systems.values()), seed=1).tolist() == m.tolist()
    assert aso_matrix(np.stack(list(systems.values())), seed=1).tolist() == m.tolist()
    # multi_aso's lower triangle: 1 − ε_W2 with the pair's σ̂, i.e. the same z·σ̂ above the ratio
    level = bonferroni_confidence(0.95, 3)
    for i, j in [(0, 1), (0, 2), (1, 2)]:
        r = violation_ratio(list(systems.values())[i], list(systems.values())[j])
        if 0 < m[i, j] < 1 and 0 < m[j, i] < 1:
            assert m[i, j] - r == pytest.approx(m[j, i] - (1 - r), abs=1e-12)
    # a stricter level (the correction) moves every unclipped bound up
    plain = aso_matrix(systems, seed=1, bonferroni=False)
    assert level > 0.95 and np.all(m >= plain)
    # different numbers of runs
    uneven = aso_matrix([lists["lengths"][0], lists["lengths"][1], lists["better"][1]])
    assert uneven.shape == (3, 3) and np.all((uneven >= 0) & (uneven <= 1))


def test_beat_probability_hand_computed():
    # A = [1, 2, 3], B = [2, 2, 0]: 1 beats 0 only (1); 2 ties the 2s and beats 0 (0.5 + 0.5 + 1);
    # 3 beats all (3): 6 of 9 pairs
    assert beat_probability([1, 2, 3], [2, 2, 0]) == pytest.approx(6 / 9)
    assert beat_probability([2, 2, 0], [1, 2, 3]) == pytest.approx(3 / 9)
    assert beat_probability([0.5], [0.5]) == 0.5
    assert beat_probability([0.9, 0.8], [0.1, 0.2, 0.3]) == 1.0
    rng = np.random.default_rng(5)
    for _ in range(20):
        a, b = np.round(rng.normal(0, 1, 6), 1), np.round(rng.normal(0, 1, 4), 1)
        brute = np.mean([(x > y) + 0.5 * (x == y) for x in a for y in b])
        assert beat_probability(a, b) == pytest.approx(brute, abs=1e-15)
        assert beat_probability(a, b) + beat_probability(b, a) == pytest.approx(1.0, abs=1e-15)


# ---------------------------------------------------------------------------
# within deepsig's seed-to-seed spread

def _inside(ours: np.ndarray, refs: np.ndarray) -> np.ndarray:
    """ts_eval's median over SEEDS seeds within deepsig's [min − margin, max + margin] over SEEDS seeds
    (margin: half the range), entry by entry."""
    lo, hi = refs.min(axis=0), refs.max(axis=0)
    margin = (hi - lo) / 2
    mid = np.median(ours, axis=0)
    return (lo - margin <= mid) & (mid <= hi + margin)


@pytest.mark.slow
@pytest.mark.parametrize("case", ["better", "overlap", "lengths", "identical"])
def test_eps_min_within_deepsigs_spread(deepsig, case):
    a, b = _lists()[case]
    refs = np.array([_quiet(deepsig.aso, a, b, num_bootstrap_iterations=RESAMPLES, seed=k * RESAMPLES,
                            show_progress=False) for k in range(SEEDS)])
    ours = np.array([eps_min(a, b, resamples=RESAMPLES, seed=k) for k in range(SEEDS)])
    assert _inside(ours, refs), (case, np.median(ours), refs.min(), refs.max())


@pytest.mark.slow
def test_matrix_within_multi_asos_spread(deepsig):
    """The Bonferroni-corrected matrix of three systems (5, 5 and 7 runs) entry by entry."""
    rng = np.random.default_rng(6)
    systems = {"p": _f1(rng, 88.0, 0.5, 5), "q": _f1(rng, 88.3, 0.5, 5), "r": _f1(rng, 87.6, 0.8, 7)}
    refs = np.stack([_quiet(deepsig.multi_aso, systems, num_bootstrap_iterations=RESAMPLES, seed=k * RESAMPLES,
                            show_progress=False) for k in range(SEEDS)])
    ours = np.stack([aso_matrix(systems, resamples=RESAMPLES, seed=k) for k in range(SEEDS)])
    assert np.all(_inside(ours, refs)), (np.median(ours, axis=0), refs.min(axis=0), refs.max(axis=0))
    assert np.diag(ours[0]).tolist() == np.diag(refs[0]).tolist() == [1.0, 1.0, 1.0]
