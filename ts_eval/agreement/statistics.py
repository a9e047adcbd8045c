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
from ..core.units import label_mask, label_passes, merge_overlaps
from ..models.segment import hit_counts
from ..models.ts import unit_counts
from .continuum import Continuum, unit_parts
from .data import Annotations
from .layout import Columns, Stats, _columns, category_names


class _Builder:
    """Collects pieces of the sparse matrix, each a run of its rows in order (row, then sentence), and
    joins them into CSR without sorting the triplets (rows of different pieces do not overlap)."""

    def __init__(self, columns: Columns, n_sentences: int, groups: Optional[np.ndarray] = None):
        self.columns = columns
        self.groups = groups            # the first sentence of each group its sentences are summed into
        self.S = n_sentences if groups is None else len(groups)
        self.group_of: Optional[np.ndarray] = None
        if groups is not None:
            starts = np.zeros(n_sentences, np.int64)
            starts[groups[1:]] = 1
            self.group_of = np.cumsum(starts)
        self.pieces: List[Tuple[int, np.ndarray, np.ndarray, np.ndarray]] = []   # (first row, rows, sentences, values)

    def _add(self, rows: np.ndarray, sentences: np.ndarray, values: np.ndarray) -> None:
        if len(rows):
            self.pieces.append((int(rows[0]), rows, sentences, values))

    def dense(self, name: str, per_sentence: np.ndarray, offset: int = 0, mask: Optional[np.ndarray] = None) -> None:
        """Add a (sentences,) vector to column ``offset`` of block ``name`` (nonzero entries only)."""
        v = np.asarray(per_sentence, float)
        if mask is not None:
            v = v * mask
        if self.groups is not None and len(v):
            v = np.add.reduceat(v, self.groups)
        s = np.flatnonzero(v)
        self._add(np.full(len(s), self.columns.index(name)[0] + offset, np.int64), s, v[s])

    def table(self, name: str, per_sentence: np.ndarray, offset: int = 0, mask: Optional[np.ndarray] = None) -> None:
        """Add a (sentences, k) table to columns offset..offset+k-1 of block ``name``."""
        t = np.asarray(per_sentence, float)
        if mask is not None:
            t = t * mask[:, None]
        if self.groups is not None and len(t):
            t = np.add.reduceat(t, self.groups, axis=0)
        t = np.ascontiguousarray(t.T)             # (k, sentences): its nonzero entries come row by row
        k, s = np.nonzero(t)
        self._add(self.columns.index(name)[0] + offset + k, s, t[k, s])

    def keyed(self, name: str, sentence: np.ndarray, column: np.ndarray, value: np.ndarray) -> None:
        """Add values at (sentence, column within block ``name``) (duplicates are summed)."""
        row = self.columns.index(name)[0] + np.asarray(column, np.int64)
        sentence = np.asarray(sentence, np.int64)
        if self.group_of is not None:
            sentence = self.group_of[sentence]
        self._summed(row, sentence, np.asarray(value, float))

    def _summed(self, row: np.ndarray, sentence: np.ndarray, value: np.ndarray) -> None:
        """Add values at (row, sentence or group), duplicates summed."""
        key = row * self.S + sentence
        if len(key) and self.groups is not None and (int(key.max()) - int(key.min())) < 4 * len(key):
            lo = int(key.min())         # few keys (groups): counted, not sorted (sums of multiples of a power of two)
            sums = np.bincount(key - lo, weights=value)
            key = np.flatnonzero(np.bincount(key - lo))
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


def categories(ann: Annotations, merged: List[SpanSet]) -> Tuple[List[np.ndarray], List[np.ndarray], List[List[int]]]:
    """Per annotator the category of every token and of every separator (a category is a set of
    labels; 0 is the empty set) and the categories' labels (indices, in order)."""
    corpus = ann.corpus
    L = len(corpus.labels)
    keys: Dict[str, List[List[np.ndarray]]] = {"token": [], "separator": []}      # unit -> annotator -> passes
    for unit in keys:
        for ss in merged:
            masks = [label_mask(corpus, ss, lo, hi, unit) for lo, hi in label_passes(L)]
            keys[unit].append(masks)
    passes = len(label_passes(L))
    if passes == 1:
        flat = {u: [k[0] for k in v] for u, v in keys.items()}
        top = max((int(k.max()) for v in flat.values() for k in v if len(k)), default=0)
        low = min((int(k.min()) for v in flat.values() for k in v if len(k)), default=0)
        if low >= 0 and top < 1 << 20:     # the masks met, marked (not sorted); a lookup table beats a search
            seen = np.zeros(top + 1, bool)
            seen[0] = True
            for v in flat.values():
                for k in v:
                    seen[k] = True
            values: np.ndarray = np.flatnonzero(seen)
        else:
            values = unique(np.concatenate([np.concatenate(v) for v in flat.values()] + [np.zeros(1, np.int64)]))
        if int(values[-1]) < 1 << 20:
            lut = np.zeros(int(values[-1]) + 1, np.int64)
            lut[values] = np.arange(len(values))
            codes = {u: [lut[k] for k in v] for u, v in flat.items()}
        else:
            codes = {u: [np.searchsorted(values, k) for k in v] for u, v in flat.items()}
        sets = [[k for k in range(L) if (int(v) >> k) & 1] for v in values.tolist()]
    else:   # more labels than one mask holds: a category is a row of masks
        rows = {u: [np.stack([x.astype(np.int64) for x in k], 1) for k in v] for u, v in keys.items()}
        allrows = np.concatenate([np.concatenate(v) for v in rows.values()] + [np.zeros((1, passes), np.int64)])
        values, inverse = np.unique(allrows, axis=0, return_inverse=True)
        inverse = inverse.ravel()
        codes, at = {}, 0
        for u, v in rows.items():
            codes[u] = []
            for r in v:
                codes[u].append(inverse[at:at + len(r)])
                at += len(r)
        sets = [[lo + k for (lo, hi), m in zip(label_passes(L), row.tolist()) for k in range(hi - lo) if (m >> k) & 1]
                for row in values]
    return codes["token"], codes["separator"], sets


def sentence_stats(ann: Annotations, separator_weight: float, continuum: Continuum, label_free: bool = False,
                   groups: Optional[np.ndarray] = None) -> Stats:
    """The per-sentence statistics of every figure (see the module docstring); ``label_free``: with
    ``coinc`` of every label less ``coinc0`` (what it holds for a label no annotator uses), so that a label
    a block lacks adds nothing to the blocks' sums (:meth:`~.layout.Layout.place` adds it back), and no
    entry that sums to zero (a unit's gap counted and taken back); ``groups`` (the first sentence of each
    group of consecutive sentences, the first 0): the matrix's columns are the groups' sums, not the
    sentences' (the same floats when every statistic is a multiple of a power of two)."""
    corpus = ann.corpus
    S, L, m = corpus.n_sentences, len(corpus.labels), ann.m
    w = float(separator_weight)
    merged = [merge_overlaps(s) for s in ann.spans]
    pairs = list(combinations(range(m), 2))
    cov = ann.coverage()
    complete = np.asarray(cov.all(0))
    full = None if complete.all() else complete           # mask of the non-alpha columns

    tok_cat, sep_cat, cat_sets = categories(ann, merged)
    cat_names = category_names(corpus.labels, cat_sets)
    C = len(cat_names)
    gaps, slen, unit_keys = unit_parts(corpus, merged, continuum, complete)
    b = _Builder(_columns(m, len(pairs), L, C, len(unit_keys.flat), len(gaps.values)), S, groups)

    n_tok = np.diff(corpus.sent_offsets).astype(float)
    units = n_tok + w * (n_tok - 1)
    b.dense("units", units, mask=full)
    # per annotator the (sentence * labels + label) keys of its merged spans and of its spans
    keys = [[corpus.sentence_of(x.start) * L + x.label.astype(np.int64) for x in sets] for sets in (merged, ann.spans)]
    pos = _annotator_tables(b, ann, merged, keys, w, full)
    sent_sep = np.repeat(np.arange(S), np.maximum(np.diff(corpus.sent_offsets) - 1, 0))
    sent_tok = np.repeat(np.arange(S), np.diff(corpus.sent_offsets))
    matched = [match(merged[i], merged[j]) for i, j in pairs]       # (the merged spans' pairs, used twice)
    agree, differ = _pair_tables(b, ann, (merged, keys), matched, units, pos, (tok_cat, sep_cat),
                                 (sent_tok, sent_sep), w, full)
    # per annotator: units per category (label set)
    cat = np.zeros((m, S, C))
    for i in range(m):
        ct = np.bincount(sent_tok * C + tok_cat[i], minlength=S * C)[:S * C]
        cs = np.bincount(sent_sep * C + sep_cat[i], minlength=S * C)[:S * C]
        cat[i] = (ct + w * cs).reshape(S, C)
        b.table("cat", cat[i], i * C, full)
    _alpha_tables(b, cov, pairs, units, pos, cat, agree, differ, label_free)

    # unitizing alpha (complete sentences only: the continuum is annotated by every annotator)
    dist = np.zeros((S, L))
    for (i, j), p in zip(pairs, matched):
        dist += continuum.distance(merged[i], merged[j], corpus, L, p)
    b.table("distance", dist, 0, complete)
    b.keyed("ulen", unit_keys.sentence, unit_keys.column, np.ones(len(unit_keys.column)))
    b.keyed("gap", gaps.sentence, gaps.label * len(gaps.values) + gaps.column, gaps.count)
    b.keyed("slen", slen.sentence, slen.column, np.ones(len(slen.column)))
    return Stats(b.matrix(label_free), b.columns, pairs, C, cat_names, unit_keys.lengths, unit_keys.columns,
                 gaps.values, m, complete, cat_sets)


def _annotator_tables(b: _Builder, ann: Annotations, merged: List[SpanSet], keys: List[List[np.ndarray]], w: float,
                      full: Optional[np.ndarray]) -> np.ndarray:
    """Per annotator, sentence and label: positive units (returned, (m, S, L)) and spans."""
    corpus = ann.corpus
    S, L = corpus.n_sentences, len(corpus.labels)
    pos = np.zeros((ann.m, S, L))
    for i, ms in enumerate(merged):
        ln = (ms.last - ms.start + 1).astype(float)
        pos[i] = np.bincount(keys[0][i], weights=ln + w * (ln - 1), minlength=S * L)[:S * L].reshape(S, L)
        b.table("pos", pos[i], i * L, full)
        cnt = np.bincount(keys[1][i], minlength=S * L)[:S * L].reshape(S, L)
        b.table("spans", cnt, i * L, full)
    return pos


def _pair_tables(b: _Builder, ann: Annotations, spans_keys: Tuple[List[SpanSet], List[List[np.ndarray]]],
                 matched: List[Pairs],
                 units: np.ndarray, pos: np.ndarray, cats: Tuple[List[np.ndarray], List[np.ndarray]],
                 sents: Tuple[np.ndarray, np.ndarray], w: float,
                 full: Optional[np.ndarray]) -> Tuple[np.ndarray, np.ndarray]:
    """Per pair (``matched``: the pairs of its merged spans): TS units both give a label, exact and overlapping
    spans, units whose label sets differ;
    returns (units the pair agrees on per label (P, S, L), units it differs on (P, S))."""
    corpus = ann.corpus
    S, L = corpus.n_sentences, len(corpus.labels)
    (tok_cat, sep_cat), (sent_tok, sent_sep) = cats, sents
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
        ex = hit_counts(ki, kj, raw, S * L, 0, 0)
        ov = hit_counts(ki, kj, raw, S * L)
        b.table("exact", ex[:, 2].reshape(S, L), p * L, full)
        b.table("hit_a", ov[:, 2].reshape(S, L), p * L, full)
        b.table("hit_b", ov[:, 3].reshape(S, L), p * L, full)
        d_tok = np.bincount(sent_tok[tok_cat[i] != tok_cat[j]], minlength=S)[:S].astype(float)
        d_sep = np.bincount(sent_sep[sep_cat[i] != sep_cat[j]], minlength=S)[:S].astype(float)
        differ[p] = d_tok + w * d_sep
        b.dense("differ", differ[p], p, full)
    return agree, differ


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
