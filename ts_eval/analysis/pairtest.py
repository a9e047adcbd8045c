"""The paired approximate-randomisation test of one system pair inside one bucket, on the difference of the
two systems' statistics.

It is :func:`ts_eval.ranking.uncertainty.pair_pvalues` for a single pair under every model (the same swap
draws, the same statistic, the same p-values), computed with less: a swap moves, on each unit, the
difference of the two systems' statistics from one to the other, so each permutation needs only
``swaps @ (B - A)``, over the distinct columns of that difference (the counts both systems share -- gold
counts -- differ by 0 and are multiplied once), not ``swaps @ data`` over every system's columns.  With
integer statistics every such sum is an exactly representable integer (float32 while the largest
difference times the units stays below 2**24), so the moved counts, and the scores, are the ones the
general test computes; other statistics take the general test.
"""
from __future__ import annotations

from typing import Dict, Hashable, List, Tuple

import numpy as np

from ..ranking.statistics import EXACT32, _chunks
from ..ranking.sufficient import StatsMatrix
from ..ranking.uncertainty import pair_pvalues


def bucket_pair_pvalues(sm: StatsMatrix, ia: int, ib: int, permutations: int,
                        seed_seq: np.random.SeedSequence) -> np.ndarray:
    """(models,) p-values of the paired test of systems ``ia`` and ``ib`` under every model of ``sm``."""
    data = sm.data
    if not np.array_equal(data, np.round(data)):
        tests = [(np.array([ia]), np.array([ib]))] * len(sm.models)
        return np.concatenate(pair_pvalues(sm, tests, permutations, seed_seq))
    diff, where = _differences(sm, ia, ib)
    moving = np.flatnonzero(diff.any(1))                  # units on which a swap moves something
    distinct, inverse = np.unique(diff[moving], axis=1, return_inverse=True)
    inverse = inverse.reshape(-1)
    top = float(np.abs(distinct).max(initial=0.0))
    dtype = np.float32 if top * max(sm.n_units, 1) < EXACT32 else np.float64
    distinct = distinct.astype(dtype)
    tot = sm.totals
    blocks, observed = [], []
    for model in sm.models:
        tb = sm.block(tot, model)
        blocks.append(tb)
        observed.append(np.abs(np.asarray(model.score(tb[[ia]]), float) - np.asarray(model.score(tb[[ib]]), float)))
    exceed = np.zeros(len(sm.models))
    rng = np.random.default_rng(seed_seq)
    for lo, hi in _chunks(permutations):
        moved_all = (_swaps(rng, hi - lo, sm.n_units, moving, dtype) @ distinct).astype(np.float64)[:, inverse]
        for k, model in enumerate(sm.models):
            first, width = where[model.stats]
            moved = moved_all[:, None, first:first + width]            # (R, 1, k): what A gains by the swaps
            tb = blocks[k]
            sa = np.asarray(model.score(tb[[ia]][None] + moved), float)
            sb = np.asarray(model.score(tb[[ib]][None] - moved), float)
            exceed[k] += int((np.abs(sa - sb) >= observed[k][None] - 1e-12).sum())
    return (exceed + 1) / (permutations + 1)


def _differences(sm: StatsMatrix, ia: int, ib: int) -> Tuple[np.ndarray, Dict[Hashable, Tuple[int, int]]]:
    """(units, columns): every family's columns of system ``ib`` minus those of ``ia``, side by side, and
    where each family's difference starts and how wide it is."""
    parts: List[np.ndarray] = []
    where: Dict[Hashable, Tuple[int, int]] = {}
    at = 0
    n = len(sm.systems)
    for fam, (first, k) in sm.family_cols.items():
        cols = np.arange(first, first + n * k).reshape(n, k)
        parts.append(sm.data[:, cols[ib]] - sm.data[:, cols[ia]])
        where[fam] = (at, k)
        at += k
    diff = np.concatenate(parts, axis=1) if parts else np.zeros((sm.n_units, 0))
    return diff, where


def _swaps(rng: np.random.Generator, permutations: int, units: int, moving: np.ndarray, dtype: type) -> np.ndarray:
    """(permutations, moving units) the 0/1 swaps of :func:`ts_eval.ranking.uncertainty.swaps` (the same
    draws: one uniform per unit and permutation, a few permutations at a time) of the units ``moving``."""
    out: np.ndarray = np.empty((permutations, len(moving)), dtype)
    for a in range(0, permutations, 5):
        out[a:a + 5] = rng.random((min(5, permutations - a), units))[:, moving] < 0.5
    return out
