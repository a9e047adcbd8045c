"""The columns of statistics taken block by block, named so that blocks add up.

A block's :class:`~ts_eval.agreement.statistics.Stats` lays its columns out after what the block
holds: its labels, the label sets (categories) met in it, its unit and gap lengths.  Every column
has a name that does not depend on the block (a *key*: the block of columns, the annotator or pair,
the label's name, the category's labels, the length), and :class:`Registry` gives each key met so
far a number.  :meth:`Registry.layout` is the layout of every key so far in the order
:func:`~ts_eval.agreement.statistics.sentence_stats` gives the corpus read whole (labels sorted,
categories by their label masks, lengths ascending): a figure of sums in that layout is the figure
of the whole.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Hashable, List, Optional, Sequence, Set, Tuple

import numpy as np
from scipy import sparse

from ..core.units import label_passes


@dataclass
class Columns:
    """Named blocks of columns: ``block(name)`` is a slice, ``shape(name)`` its shape."""

    size: int = 0
    blocks: Dict[str, Tuple[int, Tuple[int, ...]]] = field(default_factory=dict)

    def add(self, name: str, *shape: int) -> None:
        self.blocks[name] = (self.size, shape)
        self.size += int(np.prod(shape)) if shape else 1

    def index(self, name: str) -> Tuple[int, Tuple[int, ...]]:
        return self.blocks[name]

    def get(self, sums: np.ndarray, name: str) -> np.ndarray:
        """The block ``name`` of (..., size) sums, shaped (..., *shape)."""
        start, shape = self.blocks[name]
        n = int(np.prod(shape)) if shape else 1
        out = sums[..., start:start + n]
        return out.reshape(sums.shape[:-1] + shape) if shape else out[..., 0]


@dataclass
class Stats:
    """The per-sentence statistics and what their columns mean."""

    matrix: sparse.csr_matrix          # (columns, sentences)
    columns: Columns
    pairs: List[Tuple[int, int]]       # annotator index pairs, i < j
    categories: int                    # label sets seen (0: outside every span)
    category_names: List[str]
    unit_lengths: List[np.ndarray]     # per label: the distinct unit lengths (continuum atoms), sorted
    unit_columns: List[np.ndarray]     # per label: the ``ulen`` columns of those lengths
    gap_lengths: np.ndarray            # the distinct gap and sentence lengths, sorted
    raters: int
    complete: np.ndarray               # per sentence: every annotator annotated it
    category_sets: List[List[int]] = field(default_factory=list)   # per category its labels (indices)

    def sums(self, weights: Optional[np.ndarray] = None) -> np.ndarray:
        """(columns,) totals, or (k, columns) for a (sentences, k) weight matrix (resamples, documents)."""
        if weights is None:
            return np.asarray(self.matrix.sum(1)).ravel()
        sums: np.ndarray = np.asarray(self.matrix @ weights).T
        return sums


def category_names(labels: List[str], sets: List[List[int]]) -> List[str]:
    """The categories' names: their labels joined by ``+``, ``O`` for none."""
    return ["+".join(labels[k] for k in s) or "O" for s in sets]


def _columns(m: int, P: int, L: int, C: int, unit_columns: int, gap_values: int) -> Columns:
    """The columns of the per-sentence statistics (see the module docstring)."""
    cols = Columns()
    cols.add("units")
    cols.add("pos", m, L)
    cols.add("tp", P, L)
    cols.add("spans", m, L)
    cols.add("exact", P, L)
    cols.add("hit_a", P, L)
    cols.add("hit_b", P, L)
    cols.add("differ", P)
    cols.add("cat", m, C)
    cols.add("coinc", L + 1)
    cols.add("values")
    cols.add("alpha_pos", L)
    cols.add("alpha_cat", C)
    cols.add("distance", L)
    cols.add("ulen", max(unit_columns, 1))
    cols.add("gap", L, max(gap_values, 1))
    cols.add("slen", max(gap_values, 1))
    cols.add("coinc0")          # what ``coinc`` holds for a label no annotator uses (the blocks' sums need it)
    return cols


Key = Tuple[Hashable, ...]
PER_PAIR = ("tp", "exact", "hit_a", "hit_b")


@dataclass
class Layout:
    """The columns of every key so far: ``stats`` (no matrix) for :func:`~.figures.figures`,
    ``index[id]`` the column of key number ``id`` (-1: no column)."""

    stats: Stats
    labels: List[str]
    index: np.ndarray

    @property
    def size(self) -> int:
        return self.stats.columns.size

    def place(self, ids: np.ndarray, x: np.ndarray) -> np.ndarray:
        """(..., size) sums from (..., len(ids)) sums of the keys numbered ``ids``."""
        out = np.zeros(x.shape[:-1] + (self.size,))
        at = self.index[ids]
        has = at >= 0             # (a block's stand-in column of an empty block of columns has none)
        out[..., at[has]] = x[..., has]
        first, shape = self.stats.columns.index("coinc")
        out[..., first:first + shape[0] - 1] += out[..., self.stats.columns.index("coinc0")[0]][..., None]
        return out


    def with_labels(self, m: sparse.csr_matrix) -> sparse.csr_matrix:
        """(size, k) sums of this layout made with ``coinc0`` not yet added to ``coinc`` (label-free,
        :func:`~ts_eval.agreement.statistics.sentence_stats`):
        with it added to every label's."""
        c = self.stats.columns
        first, shape = c.index("coinc")
        rows = np.arange(first, first + shape[0] - 1)
        at = c.index("coinc0")[0]
        t = sparse.identity(self.size, format="csr") + sparse.csr_matrix(
            (np.ones(len(rows)), (rows, np.full(len(rows), at))), shape=(self.size, self.size))
        out: sparse.csr_matrix = (t @ m).tocsr()
        return out


class Registry:
    """The keys met so far, numbered in the order met, and what they are made of."""

    def __init__(self, m: int) -> None:
        self.m = m
        self.pairs: List[Tuple[int, int]] = []
        self.ids: Dict[Key, int] = {}
        self.labels: Set[str] = set()
        self.categories: Set[Tuple[str, ...]] = set()
        self.units: Set[Tuple[str, int]] = set()
        self.gaps: Set[int] = set()
        self._layout: Optional[Layout] = None

    def __len__(self) -> int:
        return len(self.ids)

    def block(self, st: Stats, labels: Sequence[str]) -> np.ndarray:
        """The key numbers of a block's columns (``labels``: the block's); registers what is new."""
        self.pairs = list(st.pairs)
        cats = [tuple(labels[k] for k in s) for s in st.category_sets]
        units = [(labels[c], int(n)) for c, lengths in enumerate(st.unit_lengths) for n in lengths.tolist()]
        flat: List[Optional[Tuple[str, int]]] = [None] * max(sum(len(c) for c in st.unit_columns), 1)
        for c, (lengths, cols) in enumerate(zip(st.unit_lengths, st.unit_columns)):
            for n, col in zip(lengths.tolist(), cols.tolist()):
                flat[col] = (labels[c], int(n))
        gaps = [int(g) for g in st.gap_lengths.tolist()]
        new = (set(labels) - self.labels or set(cats) - self.categories or set(units) - self.units
               or set(gaps) - self.gaps)
        if new:
            self.labels.update(labels)
            self.categories.update(cats)
            self.units.update(units)
            self.gaps.update(gaps)
            self._layout = None
        keys = column_keys(st, labels, cats, flat, gaps)
        out = np.empty(len(keys), np.int64)
        for k, key in enumerate(keys):
            got = self.ids.get(key)
            if got is None:
                got = self.ids[key] = len(self.ids)
                self._layout = None
            out[k] = got
        return out

    def layout(self) -> Layout:
        """The layout of every key so far (kept until a block brings a new one)."""
        if self._layout is None:
            self._layout = self._make()
        return self._layout

    def _make(self) -> Layout:
        labels = sorted(self.labels)
        at = {lab: k for k, lab in enumerate(labels)}
        passes = label_passes(len(labels))

        def mask(cat: Tuple[str, ...]) -> Tuple[int, ...]:
            return tuple(sum(1 << (at[lab] - lo) for lab in cat if lo <= at[lab] < hi) for lo, hi in passes)

        cats = sorted(self.categories, key=mask)
        units = sorted(self.units, key=lambda u: (at[u[0]], u[1]))
        gaps = sorted(self.gaps)
        flat: List[Optional[Tuple[str, int]]] = list(units) or [None]
        cat_sets = [[at[lab] for lab in c] for c in cats]
        keys = column_keys_of(self.m, self.pairs, labels, cats, flat, gaps)
        cols = _columns(self.m, len(self.pairs), len(labels), len(cats), len(units), len(gaps))
        assert len(keys) == cols.size
        index = np.full(len(self.ids), -1, np.int64)
        for k, key in enumerate(keys):
            got = self.ids.get(key)
            if got is not None:
                index[got] = k
        unit_lengths = [np.array([n for lab, n in units if lab == c], np.int64) for c in labels]
        unit_columns = [np.array([k for k, (lab, _) in enumerate(units) if lab == c], np.int64) for c in labels]
        st = Stats(sparse.csr_matrix((cols.size, 0)), cols, list(self.pairs), len(cats),
                   category_names(labels, cat_sets), unit_lengths, unit_columns, np.array(gaps, np.int64), self.m,
                   np.zeros(0, bool), cat_sets)
        return Layout(st, labels, index)


def column_keys(st: Stats, labels: Sequence[str], cats: Sequence[Tuple[str, ...]],
                flat: Sequence[Optional[Tuple[str, int]]], gaps: Sequence[int]) -> List[Key]:
    """The key of every column of a block's statistics, in the block's order."""
    keys = column_keys_of(st.raters, st.pairs, labels, cats, flat, gaps)
    assert len(keys) == st.columns.size
    return keys


def column_keys_of(m: int, pairs: Sequence[Tuple[int, int]], labels: Sequence[str],
                   cats: Sequence[Tuple[str, ...]], flat: Sequence[Optional[Tuple[str, int]]],
                   gaps: Sequence[int]) -> List[Key]:
    """The keys of :func:`~.statistics._columns`' columns, in its order."""
    P = len(pairs)
    keys: List[Key] = [("units",)]
    keys += [("pos", i, lab) for i in range(m) for lab in labels]
    keys += [("tp", p, lab) for p in range(P) for lab in labels]
    keys += [("spans", i, lab) for i in range(m) for lab in labels]
    for name in PER_PAIR[1:]:
        keys += [(name, p, lab) for p in range(P) for lab in labels]
    keys += [("differ", p) for p in range(P)]
    keys += [("cat", i, c) for i in range(m) for c in cats]
    keys += [("coinc", lab) for lab in labels] + [("coinc",)]
    keys += [("values",)]
    keys += [("alpha_pos", lab) for lab in labels]
    keys += [("alpha_cat", c) for c in cats]
    keys += [("distance", lab) for lab in labels]
    keys += [("ulen",) + (u if u is not None else ()) for u in flat]
    lengths: Sequence[Optional[int]] = gaps or [None]
    keys += [("gap", lab, g) for lab in labels for g in lengths]
    keys += [("slen", g) for g in lengths]
    keys += [("coinc0",)]
    return keys
