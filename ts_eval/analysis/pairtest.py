"""The paired approximate-randomisation tests of one system pair inside buckets, on the difference of the
two systems' statistics.

Each test is :func:`ts_eval.ranking.uncertainty.pair_pvalues` for a single pair under every model (the same
swap draws, the same statistic, the same p-values), computed with less: a swap moves, on each unit, the
difference of the two systems' statistics from one to the other, so each permutation needs only
``swaps @ (B - A)``, not ``swaps @ data`` over every system's columns; and over the distinct rows of that
difference: most sentences differ in the same few ways, so a permutation counts the swapped sentences
of each distinct difference and multiplies those counts with the table of distinct differences (a few
hundred rows, not one per sentence).  A matrix of distinct rows and every unit's row (``StatsMatrix.ids``)
is taken as it is: its differences are those of its rows.  With integer statistics every such sum is an
integer well below 2**53, exact in float64 in any order, so the moved counts, and the scores, are the ones
the general test computes; other statistics take the general test.

Every test draws from the same seed, one uniform number per unit and permutation in order, so unit j of
permutation r of a test of u units is number ``r * u + j`` of one stream: the tests of every bucket
(:class:`PairTests`) read one stream, drawn once (as long as the largest test needs) a window at a time,
each test the numbers of its units that a swap moves.  The draws are taken raw: a number is below 1/2 when
its 64-bit draw's top bit is 0 (:func:`ts_eval.ranking.coins.below_half`).
"""
from __future__ import annotations

from typing import Callable, Dict, Hashable, List, Mapping, Optional, Tuple

import numpy as np

from ..ranking.coins import below_half
from ..ranking.rows import Distinct
from ..ranking.sufficient import StatsMatrix
from ..ranking.uncertainty import pair_pvalues

#: numbers of the shared stream drawn at a time, the most swaps of one test gathered at a time, and the
#: permutations of one test scored at a time (a score is one permutation's: the same numbers in any batch)
WINDOW = 1 << 21
GATHER = 1 << 20
SCORED = 1000


def bucket_pair_pvalues(sm: StatsMatrix, ia: int, ib: int, permutations: int,
                        seed_seq: np.random.SeedSequence,
                        differences: Optional[Tuple[np.ndarray, np.ndarray]] = None) -> np.ndarray:
    """(models,) p-values of the paired test of systems ``ia`` and ``ib`` under every model of ``sm``
    (:meth:`PairTests.add`)."""
    out = np.full(len(sm.models), np.nan)
    tests = PairTests(permutations, seed_seq)
    tests.add(sm, ia, ib, out, differences)
    tests.run()
    return out


class PairTests:
    """Paired tests of ``permutations`` permutations drawn from ``seed_seq``, added one at a time and run
    together (:meth:`run`: every test from one stream of draws); each fills its ``out`` when run."""

    def __init__(self, permutations: int, seed_seq: np.random.SeedSequence, window: int = WINDOW):
        self.R, self.seed_seq, self.window = permutations, seed_seq, window
        self.tests: List[_Test] = []
        self.then: List[Callable[[], None]] = []
        self._differences: Dict[Tuple[int, int, int], Tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._wholes: Dict[int, Tuple[np.ndarray, bool]] = {}

    def add(self, sm: StatsMatrix, ia: int, ib: int, out: np.ndarray,
            differences: Optional[Tuple[np.ndarray, np.ndarray]] = None) -> None:
        """The test of systems ``ia`` and ``ib`` under every model of ``sm``, its (models,) p-values to go in
        ``out``.  ``differences``: (table, ids) every unit's difference (columns as :func:`difference_columns`
        gives them) as distinct rows and every unit's number in them, when the caller made them from
        whole-number statistics; ``sm`` then only gives the totals (its rows are not read)."""
        if differences is None and not self._whole(sm.data):
            tests = [(np.array([ia]), np.array([ib]))] * len(sm.models)
            out[:] = np.concatenate(pair_pvalues(sm, tests, self.R, self.seed_seq))
            return
        a_cols, b_cols, where = difference_columns(sm.family_cols, len(sm.systems), ia, ib)
        if differences is not None:
            table, ids = differences
        else:
            table, ids = self._distinct_differences(sm.data, a_cols, b_cols)
            if sm.ids is not None:                  # the units' rows of data, then their distinct differences
                ids = ids[sm.ids]
        self.tests.append(_Test(sm, ia, ib, table, ids, where, self.R, self.window, out))

    def _distinct_differences(self, data: np.ndarray, a_cols: np.ndarray, b_cols: np.ndarray,
                              rows: int = 1 << 13) -> Tuple[np.ndarray, np.ndarray]:
        """(table, ids): row 0 of ``table`` zeros, the others the distinct non-zero differences of ``data``'s rows
        in order of first use (:class:`~ts_eval.ranking.rows.Distinct`: the tests' sums are whole numbers, the same
        in any order), ``table[ids]`` each row's difference; made ``rows`` rows at a time, only the distinct rows
        that a swap moves kept (no matrix of every row's difference), once for the tests of every bucket of one
        table of distinct rows."""
        key = (id(data), int(a_cols[0]) if len(a_cols) else -1, int(b_cols[0]) if len(b_cols) else -1)
        if key not in self._differences or self._differences[key][0] is not data:
            ids = np.zeros(len(data), np.int32)
            found = Distinct(len(b_cols), np.float64, True)
            for a in range(0, len(data), rows):
                diff = np.take(data[a:a + rows], b_cols, axis=1).astype(np.float64)    # (rows, columns)
                diff -= np.take(data[a:a + rows], a_cols, axis=1)
                some = np.flatnonzero(diff.any(1))
                ids[a + some] = found.add(diff[some]) + 1
            table = np.concatenate([np.zeros((1, len(b_cols))), found.rows()])
            self._differences[key] = (data, table, ids)  # (data kept: its id its own)
        return self._differences[key][1], self._differences[key][2]

    def _whole(self, data: np.ndarray) -> bool:
        """Every value of ``data`` a whole number (:func:`_whole`), looked at once for the tests of every bucket of
        one table of distinct rows."""
        if id(data) not in self._wholes or self._wholes[id(data)][0] is not data:
            self._wholes[id(data)] = (data, _whole(data))       # (data kept: its id its own)
        return self._wholes[id(data)][1]

    def after(self, step: Callable[[], None]) -> None:
        """``step`` runs once every test has filled its ``out`` (p-values masked where undefined)."""
        self.then.append(step)

    def run(self) -> None:
        """Every test added, from one stream of draws read a window at a time; then the steps after."""
        tests, self.tests, self._differences, self._wholes = self.tests, [], {}, {}
        end = self.R * max((t.units for t in tests), default=0)
        pad = max((t.units for t in tests), default=0)
        swap = np.zeros(pad + self.window + pad, np.uint8)     # a window's swaps, zeros either side
        rng = np.random.default_rng(self.seed_seq)
        for p0 in range(0, end, self.window):
            n = min(self.window, end - p0)
            below_half(rng.bit_generator.random_raw(n), out=swap[pad:pad + n].view(bool))    # (no test reads past end)
            for t in tests:
                t.add(swap, p0 - pad, p0, p0 + n)
        for t in tests:
            t.finish()
        for step in self.then:
            step()
        self.then = []


class _Test:
    """One pair test: its units whose swap moves something, in order of their distinct difference, and the
    moved statistics of the permutations not yet scored."""

    def __init__(self, sm: StatsMatrix, ia: int, ib: int, table: np.ndarray, ids: np.ndarray,
                 where: Dict[Hashable, Tuple[int, int]], permutations: int, window: int, out: np.ndarray):
        self.units, self.R, self.ia, self.ib, self.where, self.out = len(ids), permutations, ia, ib, where, out
        moving = np.flatnonzero(np.asarray(table.any(1))[ids])     # units on which a swap moves something
        ids = ids[moving]
        order = np.argsort(ids, kind="stable")      # the moving units, by distinct difference
        self.starts = np.flatnonzero(np.r_[True, ids[order][1:] != ids[order][:-1]]) if len(ids) else \
            np.zeros(0, np.intp)
        self.table = (table[ids[order][self.starts]] if len(ids) else table[:0]).astype(np.float64)
        self.swapped = moving[order]
        self.models = sm.models
        tot = sm.totals
        self.blocks = [sm.block(tot, model) for model in sm.models]
        self.observed = [np.abs(np.asarray(model.score(tb[[ia]]), float) - np.asarray(model.score(tb[[ib]]), float))
                         for model, tb in zip(sm.models, self.blocks)]
        self.exceed = np.zeros(len(sm.models))
        self.base = 0       # the first permutation not scored, row 0 of moved
        self.moved = np.zeros((min(permutations, SCORED + window // max(self.units, 1) + 2), table.shape[1]))

    def add(self, swap: np.ndarray, offset: int, p0: int, p1: int) -> None:
        """The swaps of the stream's numbers ``p0 ... p1 - 1`` (number x is ``swap[x - offset]``; the numbers a
        test's units take outside the window are zeros there): the permutations they reach counted, those
        complete scored."""
        u, m = self.units, len(self.swapped)
        if not u or p0 >= self.R * u:
            return
        r0, r1 = p0 // u, min(self.R, (p1 - 1) // u + 1)      # the permutations in the window, whole or in part
        w0, w1 = min(-(-p0 // u), r1), max(min(p1 // u, r1), r0)    # those whole in it: rows of a view of the window
        w0 = min(w0, w1)
        step = max(1, GATHER // max(m, 1))
        for a, b in ([(r0, w0)] + [(c, min(c + step, w1)) for c in range(w0, w1, step)] + [(w1, r1)]) if m else ():
            if a >= b:
                continue
            if a >= w0 and b <= w1:     # whole permutations: the window's numbers as rows of u
                lo = a * u - offset
                got = np.take(swap[lo:lo + (b - a) * u].reshape(b - a, u), self.swapped, axis=1)
            else:
                at = np.arange(a, b, dtype=np.int64) * u - offset
                got = swap[at[:, None] + self.swapped[None, :]]
            counts = np.add.reduceat(got.view(bool), self.starts, axis=1, dtype=np.int32)    # (bools: 3x faster)
            self.moved[a - self.base:b - self.base] += counts.astype(np.float64) @ self.table
        complete = self.R if p1 >= self.R * u else p1 // u
        while self.base < self.R and min(self.base + SCORED, self.R) <= complete:
            self._score(min(SCORED, self.R - self.base))

    def finish(self) -> None:
        """The permutations not yet scored, then the p-values."""
        while self.base < self.R:
            self._score(min(SCORED, self.R - self.base))
        self.out[:] = (self.exceed + 1) / (self.R + 1)

    def _score(self, rows: int) -> None:
        """Scores the first ``rows`` permutations held (those from ``base`` on) and lets them go."""
        moved_all = self.moved[:rows]
        for k, model in enumerate(self.models):
            first, width = self.where[model.stats]
            moved = moved_all[:, None, first:first + width]            # (R, 1, k): what A gains by the swaps
            tb = self.blocks[k]
            sa = np.asarray(model.score(tb[[self.ia]][None] + moved), float)
            sb = np.asarray(model.score(tb[[self.ib]][None] - moved), float)
            self.exceed[k] += int((np.abs(sa - sb) >= self.observed[k][None] - 1e-12).sum())
        held, self.moved = self.moved, np.zeros_like(self.moved)
        self.moved[:len(held) - rows] = held[rows:]
        self.base += rows


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
