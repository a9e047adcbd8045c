"""``analyze``'s paired bootstrap: every bucket's resampled sums, a block of resamples at a time.

The resamples are drawn as :func:`ts_eval.ranking.rows.bootstrap_weights` draws them (one random stream,
resample after resample: resample r's weights are the same numbers however many resamples are drawn at a
time).  With whole-number statistics (:attr:`Resampling.blockwise`) no matrix of every resample's weight of
every sentence is kept: each bucket is registered as a :class:`Job` (its sentences grouped by their
distinct row of the resampled columns, 4 bytes a sentence, and the distinct rows), and one pass
(:meth:`Resampling.run`) draws :data:`BLOCK_WEIGHTS` weights at a time (a block of resamples over every
sentence), sums each bucket's weights per distinct row and multiplies those sums by the distinct rows.  The
sums are whole numbers, the same in any order of addition: the products are the numbers the matrix of
every weight gave (:func:`resampled`, kept for statistics with fractions), to the last bit; where that
matrix was multiplied in float32 and a sum reaches 2**24 (where float32 rounds) the block is multiplied as
it was, in float32 and in sentence order.
"""
from __future__ import annotations

from typing import Any, Callable, List, Optional, Tuple

import numpy as np

from ..ranking.rows import bootstrap_weights, distinct
from ..ranking.statistics import exact_float32

#: weights (resamples x sentences) drawn and held at a time by the blockwise pass (4 bytes each)
BLOCK_WEIGHTS = 1 << 23

Groups = Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def grouped(X: np.ndarray, groups: Groups) -> np.ndarray:
    """The columns of ``X`` the bootstrap multiplies: the used columns, a group of them summed (see
    :meth:`ts_eval.analysis.study.Statistics._groups`)."""
    perm, starts, _, _ = groups
    out: np.ndarray = np.add.reduceat(X[:, perm], starts, axis=1) if len(starts) < len(perm) else X[:, perm]
    return out


def resampled(W: np.ndarray, probes: Tuple[np.ndarray, np.ndarray], X: np.ndarray, sentences: np.ndarray,
              groups: Groups) -> np.ndarray:
    """(resamples, columns): each resample's sums of the rows ``X`` (sentences ``sentences``): the
    resample weights ``W`` of the sentences times the rows, one matrix product over the distinct columns
    (the columns that are equal -- a gold count every system shares, the zeros -- are multiplied once),
    only over the columns some model reads, and a family read only as sums over labels summed first
    (``groups``, :meth:`Statistics._groups`: the group's resampled sum goes to one of its columns, 0 to
    the others, which no score tells apart); the columns no model reads keep the rows' plain sum."""
    _, _, rep, rest = groups
    sub = grouped(X, groups)
    p1, p2 = probes
    h = p1 @ sub
    _, first, inverse = np.unique(h, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    h2 = p2 @ sub
    if not np.array_equal(h2, h2[first[inverse]]):       # two columns met on the first probe only
        first, inverse = np.arange(sub.shape[1]), np.arange(sub.shape[1])
    data, dtype = exact_float32(sub[:, first], len(sub))
    out = _filled(X.sum(0), W.shape[0], rest)
    out[:, rep] = (W[:, sentences].astype(dtype, copy=False) @ data).astype(np.float64)[:, inverse]
    return out


def _filled(plain: np.ndarray, resamples: int, rest: np.ndarray) -> np.ndarray:
    """(resamples, columns) of the plain sums, 0 in the columns whose group's sum goes elsewhere."""
    row = plain.copy()                  # columns no model reads: as summed
    row[rest] = 0.0
    out = np.empty((resamples, len(plain)))
    out[:] = row
    return out


#: whole numbers below 2**29 (as float64): a column's hash as a product of whole numbers, exact in any order of
#: addition while the column's |values| sum to less than 2**24
_PROBES = np.random.default_rng(20261129).integers(1, 2 ** 29, size=1 << 16).astype(np.float64)


def _ones(n: int, dtype: Any) -> np.ndarray:
    """n ones of ``dtype``: a view of one array shared by every job (a job's matrix of ones holds no copy)."""
    global _ONES
    if len(_ONES) < n or _ONES.dtype != dtype:
        _ONES = np.ones(max(n, len(_ONES) if _ONES.dtype == dtype else 0), dtype)
    return _ONES[:n]


_ONES = np.ones(0, np.float32)


class Job:
    """One bucket's resampled sums, filled a block of resamples at a time: its sentences ordered by their
    distinct row (``starts``: where each row's sentences begin), the distinct columns of those rows, and
    ``done(sums)`` called with (resamples, columns) when every block is in."""

    def __init__(self, sentences: np.ndarray, ids: np.ndarray, rows: Callable[[np.ndarray], np.ndarray],
                 plain: np.ndarray, groups: Groups, resamples: int, done: Callable[[np.ndarray], None]):
        """``sentences`` and their rows' numbers ``ids`` (in sentence order); ``rows(numbers)``: those distinct
        rows of the grouped columns (:func:`grouped`; whole numbers, as every statistic the blockwise pass
        resamples); ``plain``: the bucket's plain sums."""
        order = np.argsort(ids, kind="stable")
        self.sentences = sentences[order].astype(np.int32 if len(sentences) < 2 ** 31 else np.int64)
        sorted_ids = ids[order]
        del order
        self.starts = np.flatnonzero(np.r_[True, sorted_ids[1:] != sorted_ids[:-1]]) if len(ids) else \
            np.zeros(0, np.intp)
        self.n = len(sentences)
        table = rows(sorted_ids[self.starts])       # the rows some sentence has, in order
        del sorted_ids
        # the dtype the matrix of every weight was multiplied in (float32: exact while no sum reaches 2**24)
        self.top = float(max(table.max(initial=0.0), -table.min(initial=0.0)))
        self.dtype = np.float32 if self.top * max(self.n, 1) < 2 ** 24 else np.float64
        h = None
        if self.dtype == np.float32:     # every sum of |values| below 2**24: products with whole numbers below 2**29
            h = _PROBES[:len(table)] @ table if len(table) <= len(_PROBES) else None     # exact, in any order
        columns = np.ascontiguousarray(table.T, self.dtype)        # a column a row
        del table
        self.data, self.inverse = distinct(columns, order="hash", whole=True, hashes=h)    # the distinct columns
        del columns
        self.low = float(self.data.min(initial=0.0))
        self.plain, self.groups, self.done = plain, groups, done
        # float32 where the matrix of every weight was multiplied in float32: every product is then a float32
        # result or a whole number below 2**24 (see add), held exactly in half the bytes
        self.products: np.ndarray = np.zeros((resamples, len(self.data)), self.dtype)
        self.ones: Any = None       # (scipy's sparse matrix of the rows' sentences, made at the first block)

    def add(self, WT: np.ndarray, r0: int) -> None:
        """The products of a block of resamples (r0, r0 + 1, ...), given as ``WT``: every sentence's weights in
        them (sentences x resamples: a sentence's weights side by side)."""
        if not self.n:
            return
        from scipy import sparse  # (here: a command without resamples does without it)
        exact = np.float32 if len(WT) < 2 ** 24 else np.float64      # a sum of weights is at most the sentences
        # each distinct row's sentences' weights summed: a (rows x sentences) matrix of ones times the weights (made
        # once, its ones a view of one shared array)
        if self.ones is None or self.ones.shape[1] != len(WT) or self.ones.dtype != exact:
            self.ones = sparse.csr_matrix((_ones(self.n, exact), self.sentences, np.r_[self.starts, self.n]),
                                          shape=(len(self.starts), len(WT)), copy=False)
        per_row = np.asarray(self.ones @ WT.astype(exact, copy=False))     # (rows, resamples)
        out = self.products[r0:r0 + per_row.shape[1]]
        # whole numbers: exact in float64, and in float32 (twice as fast) while every partial sum, at most the
        # largest |value| times a resample's weight of the bucket, stays below 2**24; a resample's weight of the
        # bucket is at most the sentences (each resample draws as many), looked at only when that bound is not enough
        top = self.top * float(len(WT))
        if top >= 2 ** 24:
            top = self.top * float(per_row.sum(0, dtype=np.float64).max(initial=0.0))
        if top < 2 ** 24 and exact == np.float32 and self.dtype == np.float32:      # float32: whole numbers
            np.matmul(per_row.T, self.data.T, out=out)
            rounded = float(out.max(initial=0.0)) >= 2 ** 24
        else:
            got = per_row.T.astype(np.float64) @ self.data.T.astype(np.float64)
            rounded = float(got.max(initial=0.0)) >= 2 ** 24
            out[:] = got
        if self.dtype == np.float32 and (rounded or self.low < 0):
            out[:] = self._as_multiplied(WT[self.sentences])

    def _as_multiplied(self, G: np.ndarray) -> np.ndarray:
        """The products as the matrix of every weight gave them in float32 (rows in sentence order), where a
        sum reaches 2**24 and float32 rounds."""
        back = np.argsort(self.sentences, kind="stable")
        row_of = np.repeat(np.arange(len(self.starts)), np.diff(np.r_[self.starts, self.n]))
        out: np.ndarray = G[back].T.astype(np.float32) @ self.data.T[row_of[back]].astype(np.float32)
        return out

    def finish(self) -> None:
        if self.n:
            _, _, rep, rest = self.groups
            out = _filled(self.plain, len(self.products), rest)
            out[:, rep] = self.products[:, self.inverse]
            self.done(out)
        self.products, self.ones = np.zeros((0, 0)), None


class Resampling:
    """The bootstrap weights shared by every bucket (drawn whole, or block by block when ``blockwise``), and
    the permutation seed of the pair tests."""

    def __init__(self, n_sentences: int, bootstrap: int, seed: int, blockwise: bool = False):
        boot_seq, self.perm_seq = np.random.SeedSequence(seed).spawn(2)
        self.resamples, self.S = bootstrap, n_sentences
        self.blockwise = blockwise and bootstrap > 0
        self._rng = np.random.default_rng(boot_seq)
        self.W: Optional[np.ndarray] = bootstrap_weights(self._rng, bootstrap, n_sentences).astype(np.float32) \
            if bootstrap and not self.blockwise else None
        self._probes = np.random.default_rng(12345).random((2, n_sentences)) + 1.0
        self.jobs: List[Job] = []
        self.then: List[Callable[[], None]] = []

    @property
    def boot(self) -> bool:
        return self.resamples > 0

    def probes(self, n: int) -> Tuple[np.ndarray, np.ndarray]:
        """Two fixed vectors of n random weights: equal columns have equal products with both, and
        different columns of counts have equal products with both by chance only."""
        p = self._probes if n <= self._probes.shape[1] else np.random.default_rng(n).random((2, n)) + 1.0
        return p[0, :n], p[1, :n]

    def register(self, job: Job) -> None:
        self.jobs.append(job)

    def after(self, step: Callable[[], None]) -> None:
        """``step`` runs once every job is done (an attribute's intervals masked where undefined)."""
        self.then.append(step)

    def run(self) -> None:
        """Every registered job's resampled sums, a block of resamples at a time, then the steps after."""
        block = max(1, BLOCK_WEIGHTS // max(self.S, 1))
        finished = False
        if self.jobs:
            for r0 in range(0, self.resamples, block):
                WT = bootstrap_weights(self._rng, min(block, self.resamples - r0), self.S, np.float32).T.copy()
                finished = r0 + block >= self.resamples
                for job in self.jobs:
                    job.add(WT, r0)
                    if finished:    # done once its last block is in (one block: one job's products at a time)
                        job.finish()
                del WT
        if not finished:
            for job in self.jobs:
                job.finish()
        for step in self.then:
            step()
        self.jobs, self.then = [], []

    def dense(self, X: np.ndarray, sentences: np.ndarray, groups: Groups) -> np.ndarray:
        """:func:`resampled` with the matrix of every weight."""
        assert self.W is not None
        return resampled(self.W, self.probes(len(X)), X, sentences, groups)
