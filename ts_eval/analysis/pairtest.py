"""The paired approximate-randomisation test of one system pair inside one bucket, on the difference of the
two systems' statistics.

It is :func:`ts_eval.ranking.uncertainty.pair_pvalues` for a single pair under every model (the same swap
draws, the same statistic, the same p-values), computed with less: a swap moves, on each unit, the
difference of the two systems' statistics from one to the other, so each permutation needs only
``swaps @ (B - A)``, not ``swaps @ data`` over every system's columns; and over the distinct rows of that
difference: most sentences differ in the same few ways, so a permutation counts the swapped sentences
of each distinct difference (one sum over the sentences, in row order) and multiplies those counts with
the table of distinct differences (a few hundred rows, not one per sentence).  A matrix of distinct rows
and every unit's row (``StatsMatrix.ids``) is taken as it is: its differences are those of its rows.  With integer
statistics every such sum is an integer well below 2**53, exact in float64 in any order, so the moved
counts, and the scores, are the ones the general test computes; other statistics take the general test.
"""
from __future__ import annotations

from typing import Dict, Hashable, List, Mapping, Optional, Tuple

import numpy as np

from ..ranking.statistics import _chunks
from ..ranking.sufficient import StatsMatrix
from ..ranking.uncertainty import pair_pvalues


def bucket_pair_pvalues(sm: StatsMatrix, ia: int, ib: int, permutations: int,
                        seed_seq: np.random.SeedSequence,
                        differences: Optional[Tuple[np.ndarray, np.ndarray]] = None) -> np.ndarray:
    """(models,) p-values of the paired test of systems ``ia`` and ``ib`` under every model of ``sm``.

    ``differences``: (table, ids) every unit's difference (columns as :func:`difference_columns` gives
    them) as distinct rows and every unit's number in them, when the caller made them from whole-number
    statistics; ``sm`` then only gives the totals (its rows are not read)."""
    if differences is None and not _whole(sm.data):
        tests = [(np.array([ia]), np.array([ib]))] * len(sm.models)
        return np.concatenate(pair_pvalues(sm, tests, permutations, seed_seq))
    a_cols, b_cols, where = difference_columns(sm.family_cols, len(sm.systems), ia, ib)
    if differences is not None:
        table, ids = differences
    else:
        diff = np.take(sm.data, b_cols, axis=1)     # (rows of sm.data, columns)
        diff -= np.take(sm.data, a_cols, axis=1)
        table, ids = _distinct_rows(diff)
        del diff
        if sm.ids is not None:                      # the units' rows of data, then their distinct differences
            ids = ids[sm.ids]
    units = len(ids)
    moving = np.flatnonzero(np.asarray(table.any(1))[ids])   # units on which a swap moves something
    ids = ids[moving]
    order = np.argsort(ids, kind="stable")          # the moving units, by distinct difference
    starts = np.flatnonzero(np.r_[True, ids[order][1:] != ids[order][:-1]]) if len(ids) else np.zeros(0, np.intp)
    table = table[ids[order][starts]] if len(ids) else table[:0]
    swapped_units = moving[order]
    tot = sm.totals
    blocks, observed = [], []
    for model in sm.models:
        tb = sm.block(tot, model)
        blocks.append(tb)
        observed.append(np.abs(np.asarray(model.score(tb[[ia]]), float) - np.asarray(model.score(tb[[ib]]), float)))
    exceed = np.zeros(len(sm.models))
    rng = np.random.default_rng(seed_seq)
    for lo, hi in _chunks(permutations):
        swaps = _swaps(rng, hi - lo, units, swapped_units)
        counts = np.add.reduceat(swaps, starts, axis=1, dtype=np.int64) if len(starts) else \
            np.zeros((hi - lo, 0), np.int64)
        moved_all = counts.astype(np.float64) @ table
        for k, model in enumerate(sm.models):
            first, width = where[model.stats]
            moved = moved_all[:, None, first:first + width]            # (R, 1, k): what A gains by the swaps
            tb = blocks[k]
            sa = np.asarray(model.score(tb[[ia]][None] + moved), float)
            sb = np.asarray(model.score(tb[[ib]][None] - moved), float)
            exceed[k] += int((np.abs(sa - sb) >= observed[k][None] - 1e-12).sum())
    return (exceed + 1) / (permutations + 1)


def difference_columns(family_cols: Mapping[Hashable, Tuple[int, int]], n: int, ia: int, ib: int
                       ) -> Tuple[np.ndarray, np.ndarray, Dict[Hashable, Tuple[int, int]]]:
    """(the columns of system ``ia``, those of ``ib``, where each family's difference starts and how wide
    it is): the difference of a unit is its ``ib`` columns minus its ``ia`` columns, every family's side
    by side (``family_cols`` as in :class:`~ts_eval.ranking.sufficient.StatsMatrix`, ``n`` systems)."""
    where: Dict[Hashable, Tuple[int, int]] = {}
    a_cols: List[np.ndarray] = []
    b_cols: List[np.ndarray] = []
    at = 0
    for fam, (first, k) in family_cols.items():
        cols = np.arange(first, first + n * k).reshape(n, k)
        a_cols.append(cols[ia])
        b_cols.append(cols[ib])
        where[fam] = (at, k)
        at += k
    empty = np.zeros(0, np.intp)
    return (np.concatenate(a_cols) if a_cols else empty), (np.concatenate(b_cols) if b_cols else empty), where


def _whole(data: np.ndarray, rows: int = 1 << 13) -> bool:
    """Every value of ``data`` a whole number (looked at ``rows`` rows at a time: no copy of the whole)."""
    return all(np.array_equal(part, np.round(part)) for part in (data[a:a + rows] for a in range(0, len(data), rows)))


def _distinct_rows(x: np.ndarray, rows: int = 1 << 13) -> Tuple[np.ndarray, np.ndarray]:
    """(table, ids): the distinct rows of ``x`` and the row of every row of ``x`` in it (``table[ids]`` is
    ``x``): found by one product with random weights, checked ``rows`` rows at a time (a chance meeting of
    two different rows takes the exact way)."""
    if not len(x):
        return x[:0], np.zeros(0, np.intp)
    h = x @ np.random.default_rng(12345).uniform(1.0, 2.0, x.shape[1])
    _, first, ids = np.unique(h, return_index=True, return_inverse=True)
    ids = ids.reshape(-1)
    table = x[first]
    if not all(np.array_equal(table[ids[a:a + rows]], x[a:a + rows]) for a in range(0, len(x), rows)):
        table, ids = np.unique(x, axis=0, return_inverse=True)
        ids = ids.reshape(-1)
    return table, ids


def _swaps(rng: np.random.Generator, permutations: int, units: int, moving: np.ndarray) -> np.ndarray:
    """(permutations, moving units) the 0/1 swaps of :func:`ts_eval.ranking.uncertainty.swaps` (the same
    draws: one uniform per unit and permutation, a few permutations at a time) of the units ``moving``, in
    the order given."""
    out: np.ndarray = np.empty((permutations, len(moving)), np.uint8)
    for a in range(0, permutations, 5):
        out[a:a + 5] = rng.random((min(5, permutations - a), units))[:, moving] < 0.5
    return out
