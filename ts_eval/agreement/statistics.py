"""Counts first: every agreement figure is a function of per-sentence sums, gathered here once.

:func:`sentence_stats` returns a sparse (columns x sentences) matrix; a figure of the corpus reads
its row sums, a figure of one document the sums over that document's sentences, and a bootstrap
resample the sums weighted by how often each sentence (or document) was drawn (one sparse product
per block of resamples).  The columns (:class:`Columns`), per sentence:

- ``units``: the weighted TS units (tokens + w * separators);
- ``pos`` (annotators x labels): units an annotator gives a label (its spans merged per label);
- ``tp`` (pairs x labels): units both annotators of a pair give a label (the shared matcher's
  pairs of merged spans, counted by :func:`ts_eval.models.ts.unit_counts`);
- ``spans`` (annotators x labels), ``exact``, ``hit_a``, ``hit_b`` (pairs x labels): spans, spans
  both have (same tokens and label), spans of the pair's first (second) annotator that share a token
  with a same-label span of the other (the matcher's pairs of the spans as annotated);
- ``differ`` (pairs): units where the two annotators' label sets differ; ``cat`` (annotators x
  categories): units per label set (category 0: no label) -- the multi-class figures;
- ``coinc`` (labels + 1) and ``values``, ``alpha_pos`` (labels), ``alpha_cat`` (categories):
  Krippendorff's alpha with missing annotators: per sentence with m_s >= 2 annotators, sum over
  units of sum_c n_uc (n_uc - 1) / (m_s - 1), the pairable values m_s * units, positives per label
  and units per category;
- unitizing alpha (on the continuum, :mod:`.continuum`): ``distance`` (labels), ``ulen`` (labels x
  unit lengths: units of that length, all annotators) and ``gap`` (labels x gap lengths: gaps
  other than whole sentences), ``slen`` (sentence lengths: sentences of that continuum length,
  each a whole-sentence gap of every annotator until ``gap`` takes it back).

With annotators missing on some sentences (``covered``), every column but the alpha ones is
counted on the sentences every annotator annotated.
"""
from __future__ import annotations

from itertools import combinations
from typing import Dict, List, Optional, Tuple

import numpy as np
from scipy import sparse

from ..core.arrays import unique
from ..core.corpus import SpanSet
from ..core.matching import Pairs, match
from ..core.units import BITS, label_mask, label_passes, merge_overlaps
from ..models.segment import hit_masks
from ..models.ts import unit_counts
from .continuum import Continuum, unit_parts
from .data import Annotations
from .layout import Columns, Stats, _columns, category_names


class _Builder:
    """Collects pieces of the sparse matrix, each a run of its rows in order (row, then column), and
    joins them into CSR without sorting the triplets (rows of different pieces do not overlap)."""

    def __init__(self, columns: Columns, n_columns: int, column_of: Optional[np.ndarray] = None):
        self.columns = columns
        self.S = n_columns
        self.group_of = column_of       # per sentence its column (None: the sentence's own)
        self.pieces: List[Tuple[int, np.ndarray, np.ndarray, np.ndarray]] = []   # (first row, rows, columns, values)

    def _add(self, rows: np.ndarray, sentences: np.ndarray, values: np.ndarray) -> None:
        if len(rows):
            self.pieces.append((int(rows[0]), rows, sentences, values))

    def dense(self, name: str, per_column: np.ndarray, offset: int = 0, mask: Optional[np.ndarray] = None) -> None:
        """Add a (columns,) vector to row ``offset`` of block ``name`` (nonzero entries only)."""
        v = np.asarray(per_column, float)
        if mask is not None:
            v = v * mask
        s = np.flatnonzero(v)
        self._add(np.full(len(s), self.columns.index(name)[0] + offset, np.int64), s, v[s])

    def table(self, name: str, per_column: np.ndarray, offset: int = 0, mask: Optional[np.ndarray] = None) -> None:
        """Add a (columns, k) table to rows offset..offset+k-1 of block ``name``."""
        t = np.asarray(per_column, float)
        if mask is not None:
            t = t * mask[:, None]
        t = np.ascontiguousarray(t.T)             # (k, columns): its nonzero entries come row by row
        k, s = np.nonzero(t)
        self._add(self.columns.index(name)[0] + offset + k, s, t[k, s])

    def keyed(self, name: str, sentence: np.ndarray, column: np.ndarray, value: np.ndarray) -> None:
        """Add values at (sentence, row within block ``name``) (duplicates are summed)."""
        row = self.columns.index(name)[0] + np.asarray(column, np.int64)
        sentence = np.asarray(sentence, np.int64)
        if self.group_of is not None:
            sentence = self.group_of[sentence]
        self._summed(row, sentence, np.asarray(value, float))

    def _summed(self, row: np.ndarray, sentence: np.ndarray, value: np.ndarray) -> None:
        """Add values at (row, sentence or group), duplicates summed."""
        key = row * self.S + sentence
        if len(key) and self.group_of is not None and (int(key.max()) - int(key.min())) < 4 * len(key):
            lo = int(key.min())         # few keys (groups): counted, not sorted (sums of multiples of a power of two)
            sums = np.bincount(key - lo, weights=value)
            key = np.flatnonzero(sums)  # (a sum of zero is no entry: the groups' matrix keeps none)
            key, v = key + lo, sums[key]
        else:
            order = np.argsort(key, kind="stable")
            key, v = key[order], value[order]
            if len(key):
                first = np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1])))
                key, v = key[first], np.add.reduceat(v, first)
        self._add(key // self.S, key % self.S, v)

    def matrix(self, drop_zeros: bool = False) -> sparse.csr_matrix:
        """The matrix (``drop_zeros``: without the zeros the keyed sums may hold)."""
        n = self.columns.size
        pieces = sorted(self.pieces, key=lambda p: p[0])
        r = np.concatenate([p[1] for p in pieces]) if pieces else np.zeros(0, np.int64)
        c = np.concatenate([p[2] for p in pieces]) if pieces else np.zeros(0, np.int64)
        v = np.concatenate([p[3] for p in pieces]) if pieces else np.zeros(0)
        key = r.astype(np.int64) * self.S + c
        if len(key) > 1 and not (key[1:] > key[:-1]).all():      # pieces overlap: sum their duplicates
            self.pieces = []
            self._summed(r.astype(np.int64), c.astype(np.int64), v)
            return self.matrix(drop_zeros)
        if drop_zeros:
            nz = v != 0
            r, c, v = r[nz], c[nz], v[nz]
        indptr = np.zeros(n + 1, np.int64)
        np.cumsum(np.bincount(r, minlength=n), out=indptr[1:])
        return sparse.csr_matrix((v, c, indptr), shape=(n, self.S))


def categories(ann: Annotations, merged: List[SpanSet]
               ) -> Tuple[List[np.ndarray], List[np.ndarray], Optional[np.ndarray]]:
    """Per annotator a key of the category of every token and of every separator (a category is a set of
    labels; key 0 is the empty set), and what the keys stand for: None, each key is the labels' bitmask; else
    the rows of bitmasks (one per :func:`~ts_eval.core.units.label_passes`) the keys number, in order."""
    corpus = ann.corpus
    passes = label_passes(len(corpus.labels))
    keys: Dict[str, List[List[np.ndarray]]] = {u: [[label_mask(corpus, ss, lo, hi, u) for lo, hi in passes]
                                                   for ss in merged] for u in ("token", "separator")}
    if len(passes) == 1:
        return [k[0] for k in keys["token"]], [k[0] for k in keys["separator"]], None
    # more labels than one mask holds: a category is a row of masks
    rows = {u: [np.stack([x.astype(np.int64) for x in k], 1) for k in v] for u, v in keys.items()}
    allrows = np.concatenate([np.concatenate(v) for v in rows.values()] + [np.zeros((1, len(passes)), np.int64)])
    values, inverse = np.unique(allrows, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    codes: Dict[str, List[np.ndarray]] = {}
    at = 0
    for u, v in rows.items():
        codes[u] = []
        for r in v:
            codes[u].append(inverse[at:at + len(r)])
            at += len(r)
    return codes["token"], codes["separator"], values


def _category_tables(keys: Tuple[List[np.ndarray], List[np.ndarray]], cols: Tuple[np.ndarray, np.ndarray], G: int,
                     w: float, rows: Optional[np.ndarray], n_labels: int) -> Tuple[np.ndarray, List[List[int]]]:
    """(annotators, G, categories): per annotator and column the units of each category met (token and separator
    ``keys`` of :func:`categories`; ``cols``: the column of every token and separator), and the categories'
    labels (indices), in the order of their keys."""
    every = [k for side in keys for k in side]
    top = max((int(k.max()) for k in every if len(k)), default=0)
    if top < 64 or rows is not None:       # counted per key (few: a lookup of the keys met is not needed)
        K = top + 1
        per = [[np.bincount(c * K + k, minlength=G * K)[:G * K].reshape(G, K) for k in side]
               for side, c in zip(keys, cols)]
        seen = np.zeros(K, bool)
        seen[0] = True
        for side in per:
            for t in side:
                seen |= t.any(0)
        values = np.flatnonzero(seen)
        cat = np.stack([(ct + w * cs)[:, values] for ct, cs in zip(*per)])
    else:
        values = unique(np.concatenate(every + [np.zeros(1, np.int64)]))
        C = len(values)
        per = [[np.bincount(c * C + np.searchsorted(values, k), minlength=G * C)[:G * C].reshape(G, C) for k in side]
               for side, c in zip(keys, cols)]
        cat = np.stack([ct + w * cs for ct, cs in zip(*per)])
    if rows is None:
        sets = [[k for k in range(n_labels) if (int(v) >> k) & 1] for v in values.tolist()]
    else:
        sets = [[lo + k for (lo, hi), m in zip(label_passes(n_labels), row.tolist()) for k in range(hi - lo)
                 if (m >> k) & 1] for row in rows[values]]
    return cat, sets


def _one_label_each(spans: SpanSet) -> bool:
    """No two spans share a token (merged spans: no unit has two labels)."""
    order = np.argsort(spans.start, kind="stable")
    return bool((spans.start[order][1:] > spans.last[order][:-1]).all())


def _categories_of_spans(merged: List[SpanSet], keys: List[np.ndarray], matched: List[Pairs],
                         pairs: List[Tuple[int, int]], sentences: Tuple[np.ndarray, np.ndarray], G: int, w: float,
                         L: int) -> Tuple[np.ndarray, List[List[int]], List[Tuple[np.ndarray, ...]]]:
    """:func:`_category_tables` and the units each pair's label sets differ on (tokens, separators) where no unit
    has two labels: a unit's category is its span's label or none, counted on the spans (``keys``: theirs;
    ``sentences``: per sentence its tokens and column), a pair's units that differ are those of either less those
    both give a label (its pairs' shared units) less those both give one label (the same-label pairs')."""
    n_tok, col = sentences
    whole = [np.bincount(col, weights=n, minlength=G)[:G] for n in (n_tok, np.maximum(n_tok - 1, 0))]
    per = []        # per annotator: its tokens and its separators per column and label
    for k, x in zip(keys, merged):
        ln = (x.last - x.start + 1).astype(float)
        per.append([np.bincount(k, weights=v, minlength=G * L)[:G * L].reshape(G, L) for v in (ln, ln - 1)])
    labels = np.flatnonzero(np.any([t.any(0) for t, _ in per], 0)) if per else np.zeros(0, np.int64)
    tables = []
    for t, s in per:            # category 0 (no label), then one per label used, by its mask
        ct, cs = (np.column_stack([n - u.sum(1), u[:, labels]]) for n, u in zip(whole, (t, s)))
        tables.append(ct + w * cs)
    covered = [[u.sum(1) for u in ts] for ts in per]
    differs = []
    for (i, j), p in zip(pairs, matched):
        at = keys[i][p.gold] // max(L, 1)
        same = p.same_label
        shared = [p.overlap.astype(float), p.overlap - 1.0]
        differs.append(tuple(covered[i][u] + covered[j][u] - np.bincount(at, weights=v, minlength=G)[:G]
                             - np.bincount(at[same], weights=v[same], minlength=G)[:G] for u, v in enumerate(shared)))
    cat = np.stack(tables) if tables else np.zeros((0, G, len(labels) + 1))
    return cat, [[]] + [[int(k)] for k in labels], differs


def sentence_stats(ann: Annotations, separator_weight: float, continuum: Continuum, label_free: bool = False,
                   groups: Optional[np.ndarray] = None) -> Stats:
    """The per-sentence statistics of every figure (see the module docstring); ``label_free``: with
    ``coinc`` of every label less ``coinc0`` (what it holds for a label no annotator uses), so that a label
    a block lacks adds nothing to the blocks' sums (:meth:`~.layout.Layout.place` adds it back), and no
    entry that sums to zero (a unit's gap counted and taken back); ``groups`` (the first sentence of each
    group of consecutive sentences, the first 0; every sentence annotated by every annotator): the matrix's
    columns are the groups' sums, taken as such, not the sentences' (the same floats when every statistic
    is a multiple of a power of two)."""
    corpus = ann.corpus
    S, L, m = corpus.n_sentences, len(corpus.labels), ann.m
    w = float(separator_weight)
    merged = [merge_overlaps(s) for s in ann.spans]
    pairs = list(combinations(range(m), 2))
    cov = ann.coverage()
    complete = np.asarray(cov.all(0))
    full = None if complete.all() else complete           # mask of the non-alpha columns
    col: Optional[np.ndarray] = None                      # per sentence its column (None: its own)
    G = S
    if groups is not None:
        if full is not None:
            raise ValueError("sentences are summed in groups only when every annotator annotated every one")
        col = np.zeros(S, np.int64)
        col[groups[1:]] = 1
        col = np.cumsum(col)
        G = len(groups)
        cov = np.ones((m, G), bool)

    def column(sentence: np.ndarray) -> np.ndarray:
        return sentence if col is None else col[sentence]

    sentences = [corpus.sentence_of(x.start) for x in merged]
    bounds = [continuum.bounds(x) for x in merged]
    gaps, slen, unit_keys = unit_parts(corpus, merged, continuum, complete, (sentences, bounds))
    n_tok = np.diff(corpus.sent_offsets)
    sent_col = column(np.arange(S))
    # per annotator the (column * labels + label) keys of its merged spans and of its spans
    keys = [[column(sentence) * L + x.label.astype(np.int64) for x, sentence in zip(merged, sentences)],
            [column(corpus.sentence_of(x.start)) * L + x.label.astype(np.int64) for x in ann.spans]]
    matched = [match(merged[i], merged[j]) for i, j in pairs]       # (the merged spans' pairs, used thrice)
    if L <= BITS and all(_one_label_each(x) for x in merged):
        cat, cat_sets, differs = _categories_of_spans(merged, keys[0], matched, pairs, (n_tok, sent_col), G, w, L)
    else:
        tok_key, sep_key, rows = categories(ann, merged)
        unit_cols = (np.repeat(sent_col, n_tok), np.repeat(sent_col, np.maximum(n_tok - 1, 0)))  # of tokens, separators
        cat, cat_sets = _category_tables((tok_key, sep_key), unit_cols, G, w, rows, L)
        differs = [tuple(np.bincount(at[c[i] != c[j]], minlength=G)[:G].astype(float)
                         for c, at in zip((tok_key, sep_key), unit_cols)) for i, j in pairs]
    cat_names = category_names(corpus.labels, cat_sets)
    C = len(cat_names)
    b = _Builder(_columns(m, len(pairs), L, C, len(unit_keys.flat), len(gaps.values)), G, col)

    units = n_tok.astype(float) + w * (n_tok - 1)
    if groups is not None and S:
        units = np.add.reduceat(units, groups)
    b.dense("units", units, mask=full)
    pos = _annotator_tables(b, merged, keys, w, full, G, L)
    agree, differ = _pair_tables(b, ann, (merged, keys), matched, units, pos, differs, w, full)
    for i in range(m):      # per annotator: units per category (label set)
        b.table("cat", cat[i], i * C, full)
    _alpha_tables(b, cov, pairs, units, pos, cat, agree, differ, label_free)

    # unitizing alpha (complete sentences only: the continuum is annotated by every annotator)
    dist = np.zeros((G, L))
    for (i, j), p in zip(pairs, matched):
        dist += continuum.distance(merged[i], merged[j], corpus, L, p, (keys[0][i], keys[0][j]), G,
                                   (bounds[i], bounds[j]))
    b.table("distance", dist, 0, full)
    b.keyed("ulen", unit_keys.sentence, unit_keys.column, np.ones(len(unit_keys.column)))
    b.keyed("gap", gaps.sentence, gaps.label * len(gaps.values) + gaps.column, gaps.count)
    b.keyed("slen", slen.sentence, slen.column, np.ones(len(slen.column)))
    return Stats(b.matrix(label_free), b.columns, pairs, C, cat_names, unit_keys.lengths, unit_keys.columns,
                 gaps.values, m, complete, cat_sets)


def _annotator_tables(b: _Builder, merged: List[SpanSet], keys: List[List[np.ndarray]], w: float,
                      full: Optional[np.ndarray], G: int, L: int) -> np.ndarray:
    """Per annotator, column and label: positive units (returned, (m, G, L)) and spans."""
    pos = np.zeros((len(merged), G, L))
    for i, ms in enumerate(merged):
        ln = (ms.last - ms.start + 1).astype(float)
        pos[i] = np.bincount(keys[0][i], weights=ln + w * (ln - 1), minlength=G * L)[:G * L].reshape(G, L)
        b.table("pos", pos[i], i * L, full)
        cnt = np.bincount(keys[1][i], minlength=G * L)[:G * L].reshape(G, L)
        b.table("spans", cnt, i * L, full)
    return pos


def _pair_tables(b: _Builder, ann: Annotations, spans_keys: Tuple[List[SpanSet], List[List[np.ndarray]]],
                 matched: List[Pairs],
                 units: np.ndarray, pos: np.ndarray, differs: List[Tuple[np.ndarray, ...]], w: float,
                 full: Optional[np.ndarray]) -> Tuple[np.ndarray, np.ndarray]:
    """Per pair (``matched``: the pairs of its merged spans): TS units both give a label, exact and overlapping
    spans, units whose label sets differ (``differs``: tokens and separators);
    returns (units the pair agrees on per label (P, S, L), units it differs on (P, S))."""
    S, L = len(units), len(ann.corpus.labels)
    spans = ann.spans
    merged, keys = spans_keys
    # an annotator whose merged spans are its spans (no two of one label overlap): its spans' pairs and keys
    # are the merged ones' in another order, which the span counts do not depend on
    alike = [len(ms) == len(ss) for ms, ss in zip(merged, spans)]
    pairs = list(combinations(range(ann.m), 2))
    agree = np.zeros((len(pairs), S, L))
    differ = np.zeros((len(pairs), S))
    for p, (i, j) in enumerate(pairs):
        gi, gj = merged[i], merged[j]
        per = unit_counts(gi, gj, matched[p], keys[0][i], keys[0][j], S * L).reshape(S, L, 6)
        tp = per[..., 0] + w * per[..., 3]
        b.table("tp", tp, p * L, full)
        agree[p] = units[:, None] - pos[i] - pos[j] + 2 * tp
        if alike[i] and alike[j]:
            raw, ki, kj = matched[p], keys[0][i], keys[0][j]
        else:
            raw, ki, kj = match(spans[i], spans[j]), keys[1][i], keys[1][j]
        exact, _ = hit_masks(len(ki), len(kj), raw, 0, 0)
        hit_a, hit_b = hit_masks(len(ki), len(kj), raw)
        b.table("exact", _counts(ki[exact], S * L).reshape(S, L), p * L, full)
        b.table("hit_a", _counts(ki[hit_a], S * L).reshape(S, L), p * L, full)
        b.table("hit_b", _counts(kj[hit_b], S * L).reshape(S, L), p * L, full)
        d_tok, d_sep = differs[p]
        differ[p] = d_tok + w * d_sep
        b.dense("differ", differ[p], p, full)
    return agree, differ


def _counts(keys: np.ndarray, size: int) -> np.ndarray:
    """How many of ``keys`` each key 0..size-1 is (a pair's hit spans per key: the segment models' hits alone,
    :func:`~ts_eval.models.segment.hit_masks`, without the span totals their counts also take)."""
    return np.bincount(keys, minlength=size)[:size]


def _alpha_tables(b: _Builder, cov: np.ndarray, pairs: List[Tuple[int, int]], units: np.ndarray, pos: np.ndarray,
                  cat: np.ndarray, agree: np.ndarray, differ: np.ndarray, label_free: bool) -> None:
    """Krippendorff's alpha with missing annotators: per sentence over the annotators it has."""
    L = pos.shape[2]
    S = len(units)
    ms_ = cov.sum(0).astype(float)
    pairable = ms_ >= 2
    scale = np.where(pairable, 1.0 / np.maximum(ms_ - 1, 1), 0.0)
    both = np.stack([cov[i] & cov[j] for i, j in pairs]) if pairs else np.zeros((0, S), bool)
    coinc = 2 * np.einsum("ps,psl->sl", both.astype(float), agree) * scale[:, None]
    coinc_cat = 2 * (both * (units[None] - differ)).sum(0) * scale
    coinc0 = 2 * (both * units[None]).sum(0) * scale
    b.table("coinc", coinc - coinc0[:, None] if label_free else coinc, 0)
    b.dense("coinc", coinc_cat, L)
    b.dense("coinc0", coinc0)
    b.dense("values", ms_ * units, mask=pairable)
    b.table("alpha_pos", np.einsum("is,isl->sl", cov.astype(float), pos), 0, pairable)
    b.table("alpha_cat", np.einsum("is,isc->sc", cov.astype(float), cat), 0, pairable)
