"""Ranks, rank correlations and the plain result pieces of a ranking (below :mod:`.study` and
:mod:`.uncertainty`, which both use them).

Ranks: 1 is best (highest score); tied scores (equal to ``TIE_DECIMALS`` decimals) share the
average of their positions.  Spearman's rho is the paper's formula when neither ranking has
ties, else Pearson's r on the average ranks; Kendall's tau is tau-b.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Optional, Tuple

import numpy as np
from numpy.typing import ArrayLike

CHUNK = 50            # resamples per matrix product (fixed, so results do not depend on it)
TIE_DECIMALS = 12     # scores equal to this many decimals are tied
Progress = Callable[[str, int, int], None]   # (phase, done, total)

# ---------------------------------------------------------------------------
# ranks and rank correlations


def average_ranks(scores: np.ndarray) -> np.ndarray:
    """Ranks along the last axis, 1 = highest score; ties get the mean of their positions."""
    s = np.round(np.asarray(scores, float), TIE_DECIMALS)
    better = (s[..., None, :] > s[..., :, None]).sum(-1)
    tied = (s[..., None, :] == s[..., :, None]).sum(-1)
    ranks: np.ndarray = better + (tied + 1) / 2.0
    return ranks


def _better_tied(scores: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    s = np.round(np.asarray(scores, float), TIE_DECIMALS)
    return (s[..., None, :] > s[..., :, None]).sum(-1), (s[..., None, :] == s[..., :, None]).sum(-1)


def _has_ties(ranks: np.ndarray) -> bool:
    r = np.asarray(ranks, float)
    return len(np.unique(r)) != len(r)


def spearman_formula(rank_a: ArrayLike, rank_b: ArrayLike) -> float:
    """The paper's R = 1 - 6 sum_k (a_k - b_k)^2 / (p (p^2 - 1)) of two rankings without ties."""
    a, b = np.asarray(rank_a, float), np.asarray(rank_b, float)
    p = len(a)
    if p < 2:
        return float("nan")
    return float(1.0 - 6.0 * np.sum((a - b) ** 2) / (p * (p * p - 1)))


def _pearson(a: np.ndarray, b: np.ndarray) -> float:
    a, b = a - a.mean(), b - b.mean()
    den = np.sqrt((a * a).sum() * (b * b).sum())
    return float((a * b).sum() / den) if den > 0 else float("nan")


def spearman(x: ArrayLike, y: ArrayLike) -> Tuple[float, bool]:
    """Spearman's rho of two score (or rank) vectors and whether ties made it Pearson-on-ranks.

    Without ties: the paper's formula on the ranks.  With ties: average ranks and
    Pearson's r on them (what scipy.stats.spearmanr computes).
    """
    rx, ry = average_ranks(-np.asarray(x, float)), average_ranks(-np.asarray(y, float))
    if _has_ties(rx) or _has_ties(ry):
        return _pearson(rx, ry), True
    return spearman_formula(rx, ry), False


def kendall_tau_b(x: ArrayLike, y: ArrayLike) -> float:
    """Kendall's tau-b: (concordant - discordant) / sqrt((n0 - ties_x) (n0 - ties_y))."""
    a = np.round(np.asarray(x, float), TIE_DECIMALS)
    b = np.round(np.asarray(y, float), TIE_DECIMALS)
    n = len(a)
    iu = np.triu_indices(n, 1)
    da = np.sign(a[:, None] - a[None, :])[iu]
    db = np.sign(b[:, None] - b[None, :])[iu]
    n0 = n * (n - 1) / 2
    den = np.sqrt((n0 - np.count_nonzero(da == 0)) * (n0 - np.count_nonzero(db == 0)))
    return float((da * db).sum() / den) if den > 0 else float("nan")


def correlation_matrices(scores: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(Spearman, tied, Kendall tau-b) matrices between the columns (models) of a systems x models score matrix."""
    m = scores.shape[1]
    rho, tied, tau = np.eye(m), np.zeros((m, m), bool), np.eye(m)
    for i in range(m):
        for j in range(i + 1, m):
            rho[i, j], tied[i, j] = spearman(scores[:, i], scores[:, j])
            tau[i, j] = kendall_tau_b(scores[:, i], scores[:, j])
            rho[j, i], tied[j, i], tau[j, i] = rho[i, j], tied[i, j], tau[i, j]
    for i in range(m):   # a constant column has no defined correlation, not even with itself
        if np.ptp(np.round(scores[:, i], TIE_DECIMALS)) == 0:
            rho[i, i] = tau[i, i] = float("nan")
    return rho, tied, tau


@dataclass
class Bootstrap:
    """Paired bootstrap over units: intervals of scores and ranks (arrays systems x models)."""

    resamples: int
    unit: str
    units: int
    confidence: float
    score_low: np.ndarray
    score_high: np.ndarray
    score_se: np.ndarray
    rank_low: np.ndarray
    rank_high: np.ndarray
    keep: np.ndarray              # probability of the observed rank
    rank_dist: np.ndarray         # systems x models x positions: probability of each position (ties split)
    resample_scores: Optional[np.ndarray] = field(default=None, repr=False)   # resamples x systems x models


@dataclass
class Permutation:
    """Paired approximate randomisation between each system and the next one in a model's ranking."""

    permutations: int
    unit: str
    p_next: np.ndarray            # systems x models: p-value against the next system (nan for the last)
    pair_p: Optional[np.ndarray] = field(default=None, repr=False)   # systems x systems x models (nan: not tested)


def _clean(x: Any) -> Any:
    """numpy -> plain JSON-able Python (nan -> None)."""
    if isinstance(x, np.ndarray):
        return _clean(x.tolist())
    if isinstance(x, (list, tuple)):
        return [_clean(v) for v in x]
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, (np.floating, float)):
        return None if np.isnan(x) else float(x)
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.bool_):
        return bool(x)
    return x


def _chunks(total: int) -> Iterator[Tuple[int, int]]:
    for a in range(0, total, CHUNK):
        yield a, min(a + CHUNK, total)


EXACT32 = 2 ** 24     # float32 holds every integer below this exactly
ROWS = 1 << 12        # rows looked at a time (a slab of every column: a few MB)


class Products:
    """``w @ data`` in float64 for matrices ``w`` of non-negative integer weights (bootstrap counts, 0/1
    swaps) and ``data`` of ``units`` rows, with ``data`` never copied whole.

    A column of integers whose largest value times ``units`` stays below 2**24 has every sum of such a
    product an exactly representable integer in float32: those columns are multiplied in float32 (about
    twice as fast, and identical to float64).  When every column is such a column, or none is, the
    product is one matrix product (float64 data as given otherwise); when a float32 matrix has some
    columns that are not, only those are multiplied again in float64 -- and, when no value is negative,
    only in the rows of ``w`` where one of those sums came out at 2**24 or more in float32: with
    non-negative integer terms every partial sum is at most the whole sum, so a float32 sum below 2**24
    was exact all the way (the first inexact step would have left a value of 2**24 or more, and adding
    non-negative terms never brings it back below), the same integer as float64's."""

    def __init__(self, data: np.ndarray, units: int) -> None:
        top, integral, negative = _column_tops(data)
        small = top * max(units, 1) < EXACT32 if integral else np.zeros(data.shape[1], bool)
        self.big: Optional[np.ndarray] = None
        self.big_data: Optional[np.ndarray] = None
        self.checked = False      # the float32 sums of the big columns say where float64 is needed
        if small.all():
            self.data, self.dtype = data.astype(np.float32, copy=False), np.float32
        elif data.dtype == np.float32 and integral:
            self.data, self.dtype = data, np.float32
            self.big = np.flatnonzero(~small)
            self.big_data = data[:, self.big].astype(np.float64)
            self.checked = not negative
        else:
            self.data, self.dtype = data.astype(np.float64, copy=False), np.float64

    def __call__(self, w: np.ndarray) -> np.ndarray:
        out = (w.astype(self.dtype, copy=False) @ self.data).astype(np.float64)
        if self.big is not None and self.big_data is not None:
            rows = np.arange(len(w))
            if self.checked:
                rows = np.flatnonzero((out[:, self.big] >= EXACT32).any(1))
            for a in range(0, len(rows), 10):      # a float64 copy of ten rows of w at a time
                at = rows[a:a + 10]
                out[np.ix_(at, self.big)] = w[at].astype(np.float64) @ self.big_data
        return out


def _column_tops(data: np.ndarray) -> Tuple[np.ndarray, bool, bool]:
    """(the largest absolute value of every column, whether every value is an integer, whether a value is
    negative), a slab of rows at a time (no copy of the whole matrix)."""
    top = np.zeros(data.shape[1], np.float64)
    integral, negative = True, False
    for a in range(0, data.shape[0], ROWS):
        slab = data[a:a + ROWS]
        top = np.maximum(top, np.abs(slab).max(0))
        integral = integral and bool(np.array_equal(slab, np.round(slab)))
        negative = negative or bool((slab < 0).any())
    return top, integral, negative


def exact_float32(data: np.ndarray, units: int) -> Tuple[np.ndarray, type]:
    """``data`` as float32 when every resample sum stays an exactly representable integer
    (integer statistics, and |value| x units < 2**24): the products are then identical to
    float64's and about twice as fast; otherwise float64 as given."""
    top = float(np.abs(data).max(initial=0.0))
    if top * max(units, 1) < 2 ** 24 and np.array_equal(data, np.round(data)):
        return data.astype(np.float32), np.float32
    return data, np.float64
