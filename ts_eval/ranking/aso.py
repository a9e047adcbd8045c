"""Almost Stochastic Order between systems given as several runs (issue 33.3).

A system trained with several random seeds is a distribution of scores, not one score.  *Almost
Stochastic Order* (del Barrio, Cuesta-Albertos & Matrán 2018; Dror, Shlomov & Reichart 2019, "Deep
Dominance") asks how far A's score distribution F is from being stochastically above B's G:

- the **violation ratio** ε_W2(F, G) = ∫_{F⁻¹(t) < G⁻¹(t)} (F⁻¹(t) − G⁻¹(t))² dt / ∫ (F⁻¹(t) − G⁻¹(t))² dt,
  the share of the squared Wasserstein-2 distance between the two quantile functions spent where A's
  quantile is below B's (0: every quantile of A is at least B's; 1: the other way round);
- **ε_min** = ε_W2 + z_conf · σ̂, an upper confidence bound of it, where σ̂ is the standard deviation
  of ε_W2 over bootstrap resamples of the runs (each system's runs drawn with replacement) and
  z_conf the standard normal quantile of ``confidence``; clipped to [0, 1].

ε_min < τ says that A is *almost stochastically dominant* over B.  τ = 0.5 is the paper's threshold;
deep-significance's documentation recommends the stricter τ = 0.2 (at 0.5 its own simulations found
too many false positives, Ulmer, Hardmeier & Frellsen 2022).  ASO computes no p-value.

The estimator is exactly deep-significance's (``deepsig.aso`` 1.2.8, the reference of
tests/test_aso.py), computed without its per-point Python loops:

- the quantile functions are the empirical ones, evaluated on deepsig's grid t = dt, 2·dt, … < 1 with
  dt = 0.005 (199 points): F⁻¹(t) = x₍⌈n·t⌉₎ of the sorted scores;
- deepsig leaves the grid's first point out of the violation integral but not out of the distance,
  so ε_W2(F, G) + ε_W2(G, F) = 1 − d₀²·dt / W2² (d₀ = the difference of the two lowest scores), not 1
  exactly; ts_eval does the same, so that its numbers are deepsig's;
- two quantile functions that agree on the whole grid (W2 = 0: identical runs) have ratio 0.5
  (deepsig warns; ts_eval says so here and does not warn);
- σ̂ is the population standard deviation (ddof 0) of the resampled ratios; deepsig's scale factor
  √(n·m / (n + m)) multiplies σ̂ and divides it again, so it is left out.

Two quantile step functions on the grid are constant on at most n + m − 1 stretches, so each
integral is a weighted sum over those stretches (:func:`_stretches`), not over 199 points; the
bootstrap is one array of resamples × stretches.  The runs of each system are sorted first and the
resamples index the sorted runs, so the order in which runs are given never changes a result.

Only the random draws differ from deepsig (numpy's ``default_rng`` from a ``SeedSequence`` instead
of the legacy global seed per resample), so ts_eval's ε_min agrees with deepsig's within deepsig's
own seed-to-seed spread (tests/test_aso.py; docs/ranking.md, "Almost Stochastic Order").
"""
from __future__ import annotations

from functools import lru_cache
from statistics import NormalDist
from typing import List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
from numpy.typing import ArrayLike

from ..errors import OptionError

DT = 0.005   # deepsig's default step of the quantile grid (aso(dt=0.005)): 199 points in (0, 1)

BLOCK = 1 << 15   # numbers per block of pairs × resamples × runs in aso_matrix (sized for the CPU cache)

Scores = Union[Mapping[str, ArrayLike], Sequence[ArrayLike], np.ndarray]


Stretches = Tuple[Optional[np.ndarray], Optional[np.ndarray], np.ndarray, np.ndarray]


@lru_cache(maxsize=256)
def _stretches(n_a: int, n_b: int) -> Stretches:
    """The grid's stretches on which both quantile functions (of n_a and of n_b sorted scores) are
    constant: the index of A's score, of B's score (None: the stretches are the runs themselves, as
    when n_a == n_b), the stretch's weight in the distance (its number of grid points × dt) and in the
    violation integral (the same without the grid's first point)."""
    t = np.arange(DT, 1, DT)
    ia = np.clip(np.ceil(n_a * t).astype(np.int64) - 1, 0, n_a - 1)
    ib = np.clip(np.ceil(n_b * t).astype(np.int64) - 1, 0, n_b - 1)
    keys, first, counts = np.unique(ia * n_b + ib, return_index=True, return_counts=True)
    order = np.argsort(first)                      # the stretches in grid order (first point first)
    keys, counts = keys[order], counts[order].astype(np.float64)
    w_all = counts * DT
    w_num = w_all.copy()
    w_num[0] -= DT                                 # deepsig: the violation integral starts at t[1]
    ka, kb = keys // n_b, keys % n_b
    for a in (ka, kb, w_all, w_num):
        a.flags.writeable = False
    return (None if np.array_equal(ka, np.arange(n_a)) else ka, None if np.array_equal(kb, np.arange(n_b)) else kb,
            w_all, w_num)


def _ratios(a_sorted: np.ndarray, b_sorted: np.ndarray) -> np.ndarray:
    """ε_W2 of score arrays sorted along their first axis, ``(n_a, ...)`` and ``(n_b, ...)`` (the same
    further shape): one ratio each, shape ``(...)``.  The runs come first so that the weighted sums
    over the stretches are one matrix-vector product over contiguous rows."""
    ka, kb, w_all, w_num = _stretches(a_sorted.shape[0], b_sorted.shape[0])
    f = a_sorted if ka is None else a_sorted[ka]
    g = b_sorted if kb is None else b_sorted[kb]
    shape = f.shape[1:]
    d = (g - f).reshape(w_all.size, -1)
    dist = w_all @ (d * d)
    np.maximum(d, 0.0, out=d)                                   # A's quantile below B's: the violation set
    viol = w_num @ (d * d)
    zero = dist == 0
    return np.where(zero, 0.5, viol / np.where(zero, 1.0, dist)).reshape(shape)


def violation_ratio(a: ArrayLike, b: ArrayLike) -> float:
    """deepsig's ε_W2(F_A, F_B) of two score lists (the point estimate ε_min starts from): 0 when every
    quantile of A is at least B's, 1 when every one is at most B's, 0.5 when all are equal."""
    xa, xb = _scores(a, "a", minimum=1), _scores(b, "b", minimum=1)
    return float(_ratios(xa, xb))


def _scores(x: ArrayLike, name: str, minimum: int = 2) -> np.ndarray:
    """One system's run scores, checked and sorted."""
    try:
        arr = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raise OptionError(f"expected a list of numbers (one score per run), got {type(x).__name__}",
                          option=name) from None
    if arr.ndim != 1:
        raise OptionError(f"expected a flat list of numbers (one score per run), got shape {arr.shape}", option=name)
    if arr.size < minimum:
        raise OptionError(f"needs at least {minimum} scores (one per run), got {arr.size}" +
                          (": Almost Stochastic Order resamples the runs" if minimum > 1 else ""), option=name)
    if not np.isfinite(arr).all():
        bad = arr[~np.isfinite(arr)][0]
        raise OptionError(f"every score must be a finite number, found {bad}", option=name)
    return np.sort(arr)


def _check(confidence: float, resamples: int, seed: Optional[int]) -> None:
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float, np.floating, np.integer)) \
            or not 0 < confidence < 1:
        raise OptionError("expected a number between 0 and 1 (deepsig's usual range: 0.95 to 0.99)",
                          option="confidence", value=confidence)
    if not _is_int(resamples) or resamples < 1:
        raise OptionError("expected a whole number >= 1 (bootstrap resamples of the runs)",
                          option="resamples", value=resamples)
    if seed is not None and (not _is_int(seed) or seed < 0):
        raise OptionError("expected a whole number >= 0 (the seed of numpy's random generator)",
                          option="seed", value=seed)


def _is_int(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _resampled(x_sorted: np.ndarray, rng: np.random.Generator, resamples: int) -> np.ndarray:
    """``resamples`` bootstrap resamples of sorted runs ``(n, ...)``, each sorted: ``(n, resamples, ...)``
    (every column of ``...`` drawn at the same run positions)."""
    n = x_sorted.shape[0]
    return np.sort(x_sorted[rng.integers(0, n, size=(n, resamples))], axis=0)


def _bound(ratio: np.ndarray, sd: np.ndarray, confidence: float) -> np.ndarray:
    """ε_min = ε_W2 + z_confidence · σ̂, clipped to [0, 1] (deepsig: ε_W2 − σ̂ · Φ⁻¹(1 − confidence))."""
    z = NormalDist().inv_cdf(confidence)
    return np.clip(ratio + z * sd, 0.0, 1.0)


def eps_min_many(a: ArrayLike, b: ArrayLike, *, confidence: float = 0.95, resamples: int = 1000,
                 seed: Optional[int] = 0) -> np.ndarray:
    """:func:`eps_min` of many pairs at once: ``a`` is pairs × A's runs, ``b`` pairs × B's runs (every
    pair's A has as many runs as every other's, and so has every B).  Returns one ε_min per pair.

    Every pair is resampled with the same draws of run positions (each pair's bootstrap is a bootstrap
    of its own runs), so ``eps_min_many(a, b)[p] == eps_min(a[p], b[p])`` for the same seed.
    """
    _check(confidence, resamples, seed)
    xa, xb = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if xa.ndim != 2 or xb.ndim != 2 or xa.shape[0] != xb.shape[0]:
        raise OptionError(f"expected two 2-D arrays of pairs × runs with as many pairs, got shapes {xa.shape} "
                          f"and {xb.shape}", option="a")
    sa = np.stack([_scores(r, "a") for r in xa]) if xa.shape[0] else np.sort(xa, axis=1)
    sb = np.stack([_scores(r, "b") for r in xb]) if xb.shape[0] else np.sort(xb, axis=1)
    rng_a, rng_b = (np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(2))
    ratio = _ratios(sa.T, sb.T)
    boot = _ratios(_resampled(sa.T, rng_a, resamples), _resampled(sb.T, rng_b, resamples))   # (resamples, pairs)
    return _bound(ratio, boot.std(axis=0), confidence)


def eps_min(a: ArrayLike, b: ArrayLike, *, confidence: float = 0.95, resamples: int = 1000,
            seed: Optional[int] = 0) -> float:
    """ε_min of Almost Stochastic Order: how far A's runs (scores ``a``, higher = better) are from being
    stochastically above B's (``b``); the estimator of deep-significance's ``aso(a, b)``.

    ε_min < τ means that A is almost stochastically dominant over B: τ = 0.5 in Dror et al. (2019);
    deepsig's documentation recommends τ = 0.2 (fewer false positives).  0: every quantile of A is
    above B's, and the resamples agree; 1: the other way round (or too few runs to say).

    ``confidence``: the level of the bound (z = Φ⁻¹(confidence) standard deviations of the resampled
    ratio are added); ``resamples``: bootstrap resamples of the runs (deepsig's
    ``num_bootstrap_iterations``); ``seed``: numpy's ``SeedSequence`` seed (None: fresh entropy) --
    the same scores and seed give the same number, whatever the order of the runs.

    Both lists need at least two finite scores (an :class:`~ts_eval.errors.OptionError` otherwise);
    they may differ in length.  Identical lists have ε_W2 = 0.5 and ε_min = 0.5 + z·σ̂; two constant
    lists have σ̂ = 0 and ε_min = 0 (A's constant higher), 1 (lower) or 0.5 (equal).
    """
    _check(confidence, resamples, seed)
    sa, sb = _scores(a, "a"), _scores(b, "b")
    return float(eps_min_many(sa[None], sb[None], confidence=confidence, resamples=resamples, seed=seed)[0])


def bonferroni_confidence(confidence: float, systems: int) -> float:
    """The confidence level deepsig's ``multi_aso(use_bonferroni=True)`` uses for ``systems`` systems:
    ``confidence + (1 - confidence) / m`` with m = systems·(systems − 1)/2 comparisons.

    This is deepsig's formula, not the textbook Bonferroni level ``1 - (1 - confidence) / m``: at
    0.95 and 4 systems (m = 6) it is 0.9583, where the textbook's is 0.9917, and it tends to
    ``confidence`` itself as m grows.  With two systems (m = 1) deepsig's ``multi_aso`` raises the level
    to 1 (every ε_min becomes 1, or nan where σ̂ = 0); ts_eval, like deepsig's ``aso(num_comparisons=1)``,
    leaves the level unchanged when there is one comparison.
    """
    m = systems * (systems - 1) / 2
    return confidence + (1 - confidence) / m if m > 1 else confidence


def _systems(scores: Scores) -> Tuple[List[str], List[np.ndarray]]:
    if isinstance(scores, Mapping):
        names = [str(k) for k in scores]
        rows = list(scores.values())
    elif isinstance(scores, np.ndarray) and scores.ndim == 2:
        names = [str(i) for i in range(scores.shape[0])]
        rows = list(scores)
    elif isinstance(scores, (list, tuple)):
        names = [str(i) for i in range(len(scores))]
        rows = list(scores)
    else:
        raise OptionError("expected a mapping from system names to run scores, a list of score lists or a 2-D "
                          f"array of systems × runs, got {type(scores).__name__}", option="scores")
    if len(rows) < 2:
        raise OptionError(f"Almost Stochastic Order compares at least two systems, got {len(rows)}", option="scores")
    return names, [_scores(r, f"scores[{n!r}]") for n, r in zip(names, rows)]


def aso_matrix(scores: Scores, *, confidence: float = 0.95, resamples: int = 1000, seed: Optional[int] = 0,
               bonferroni: bool = True) -> np.ndarray:
    """ε_min of every ordered pair of systems, as deep-significance's ``multi_aso`` computes it.

    ``scores``: a mapping from system names to their run scores (rows in the mapping's order), a list
    of score lists (systems may have different numbers of runs) or a 2-D array of systems × runs.
    Returns systems × systems: entry [i, j] is ε_min(i, j) (row = A, column = B: small means row i
    is almost stochastically dominant over column j); the diagonal is 1, as deepsig's.

    As in ``multi_aso``, each unordered pair is resampled once: [i, j] = ε_W2 + z·σ̂ and
    [j, i] = (1 − ε_W2) + z·σ̂ with the same σ̂, both clipped to [0, 1].  ``bonferroni``: raise the
    confidence level for the number of comparisons as deepsig does (:func:`bonferroni_confidence`; with
    two systems ts_eval leaves it unchanged, where ``multi_aso`` returns 1 or nan).  Each system's runs
    are resampled once (a ``SeedSequence(seed)`` child per system, in the given order) and the
    resamples serve all its pairs; so with two systems and ``bonferroni=False``, [0, 1] is
    ``eps_min(scores[0], scores[1])`` for the same seed.
    """
    _check(confidence, resamples, seed)
    if not isinstance(bonferroni, bool):
        raise OptionError("expected True or False", option="bonferroni", value=bonferroni)
    _, runs = _systems(scores)
    k = len(runs)
    level = bonferroni_confidence(confidence, k) if bonferroni else confidence
    seqs = np.random.SeedSequence(seed).spawn(k)
    boots = [_resampled(r, np.random.default_rng(s), resamples) for r, s in zip(runs, seqs)]
    out = np.eye(k)
    sizes = np.array([r.size for r in runs])
    for n_a in np.unique(sizes):
        for n_b in np.unique(sizes):
            ii, jj = np.nonzero(np.triu((sizes[:, None] == n_a) & (sizes[None, :] == n_b), 1))
            if ii.size:
                _fill(out, ii, jj, runs, boots, level)
    return out


def _fill(out: np.ndarray, ii: np.ndarray, jj: np.ndarray, runs: Sequence[np.ndarray], boots: Sequence[np.ndarray],
          level: float) -> None:
    """ε_min of the pairs (ii[p], jj[p]) (A's runs all of one length, B's of one) into ``out``, both ways."""
    a_of = {i: n for n, i in enumerate(np.unique(ii))}
    b_of = {j: n for n, j in enumerate(np.unique(jj))}
    a_runs = np.stack([runs[i] for i in a_of], axis=1)         # (n_a, systems)
    b_runs = np.stack([runs[j] for j in b_of], axis=1)
    a_boot = np.stack([boots[i] for i in a_of], axis=1)        # (n_a, systems, resamples)
    b_boot = np.stack([boots[j] for j in b_of], axis=1)
    ai = np.array([a_of[i] for i in ii])
    bj = np.array([b_of[j] for j in jj])
    ratio = _ratios(a_runs[:, ai], b_runs[:, bj])
    sd = np.empty(ai.size)
    step = max(1, BLOCK // (a_boot.shape[2] * max(a_boot.shape[0], b_boot.shape[0])))
    for lo in range(0, ai.size, step):
        # np.take keeps the runs axis first in memory (x[:, ai] would not: _ratios' reshape would copy)
        sd[lo:lo + step] = _ratios(np.take(a_boot, ai[lo:lo + step], axis=1),
                                   np.take(b_boot, bj[lo:lo + step], axis=1)).std(axis=-1)
    out[ii, jj] = _bound(ratio, sd, level)
    out[jj, ii] = _bound(1.0 - ratio, sd, level)


def beat_probability(a: ArrayLike, b: ArrayLike) -> float:
    """The probability that a random run of A scores higher than a random run of B (a tie counts 1/2),
    over all n_a · n_b pairs of runs (the common-language effect size; Mann-Whitney's U / (n_a · n_b)).
    Each list needs at least one finite score."""
    sa, sb = _scores(a, "a", minimum=1), _scores(b, "b", minimum=1)
    below = np.searchsorted(sb, sa, side="left")          # B's runs strictly below each run of A
    at_most = np.searchsorted(sb, sa, side="right")
    return float((below.sum() + 0.5 * (at_most - below).sum()) / (sa.size * sb.size))
