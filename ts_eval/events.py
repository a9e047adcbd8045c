"""Token-and-separator (TS) events: spans -> per-label unit vectors -> contingency counts.

A sentence of n tokens has 2n-1 units: n tokens and n-1 separators (none crosses a
sentence boundary).  A span over tokens b..e covers tokens b..e and the e-b
separators between them.  Every label has its own vector over all units, so a unit
may carry several labels; spans of one label that overlap are merged first (a unit
is positive for a label once, however many of its spans cover it).

Counts are kept apart for tokens and separators, so any separator weight w gives
the weighted table  TP = TP_tok + w * TP_sep  (w = 0 is the token-only T model)
without recounting.  The vectors are painted per side as bitmasks (one bit per
label, 31 labels per pass) with a difference array; the few distinct
(gold mask, system mask) pairs are then counted once, which gives every label's
table and the multi-class confusion matrix together.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from .corpus import Corpus, SpanSet

_BITS = 31  # labels per pass: a (gold, system) pair of masks must fit in an int64 key


@dataclass
class TSCounts:
    """Per-label TP/FP/FN over tokens and over separators (unweighted unit counts)."""

    tok: np.ndarray       # shape (labels, 3): tp, fp, fn over tokens
    sep: np.ndarray       # shape (labels, 3): tp, fp, fn over separators
    n_tokens: int
    n_separators: int
    confusion: Optional[np.ndarray] = None  # (labels+1)^2 unit counts (weighted later), row gold, col system; 0 = outside
    confusion_sep: Optional[np.ndarray] = None

    def table(self, separator_weight: float = 1.0) -> np.ndarray:
        """Weighted (labels, 4) table: tp, fp, fn, tn."""
        w = float(separator_weight)
        pos = self.tok + w * self.sep
        total = self.n_tokens + w * self.n_separators
        tn = total - pos.sum(axis=1)
        return np.column_stack([pos, tn])

    def weighted_confusion(self, separator_weight: float = 1.0) -> Optional[np.ndarray]:
        if self.confusion is None:
            return None
        return self.confusion + float(separator_weight) * self.confusion_sep


def merge_overlaps(spans: SpanSet) -> SpanSet:
    """Per label, the union of its spans as disjoint intervals (adjacent ones stay apart)."""
    if len(spans) == 0:
        return spans
    order = np.lexsort((spans.start, spans.label))
    s, e, lab = spans.start[order], spans.end[order], spans.label[order].astype(np.int64)
    big = int(max(int(e.max()), 0)) + 2
    shifted_end = e + lab * big
    run = np.maximum.accumulate(shifted_end)
    new = np.ones(len(s), bool)
    new[1:] = (lab[1:] != lab[:-1]) | (s[1:] + lab[1:] * big > run[:-1])
    heads = np.flatnonzero(new)
    tails = np.append(heads[1:], len(s)) - 1
    return SpanSet(s[heads], run[tails] - lab[heads] * big, spans.label[order][heads])


def paint(spans: SpanSet, bits: np.ndarray, length: int, first: np.ndarray, last: np.ndarray) -> np.ndarray:
    """Sum of ``bits`` over index ranges first..last (inclusive): a difference array, summed.

    int64 when the values need it, else int32 (half the memory on a large corpus)."""
    keep = last >= first
    w = bits[keep]
    dtype = np.int32 if (len(w) == 0 or (int(w.max()) < 2**31 and int(w.min()) > -2**31)) else np.int64
    diff = np.zeros(length + 1, dtype)
    np.add.at(diff, first[keep], w.astype(dtype))
    np.subtract.at(diff, last[keep] + 1, w.astype(dtype))
    np.cumsum(diff, out=diff)  # in place: no second corpus-sized array
    return diff[:length]


def ts_counts(corpus: Corpus, gold: SpanSet, system: SpanSet, n_labels: Optional[int] = None) -> TSCounts:
    """Per-label token and separator counts of one system against gold."""
    k_labels = len(corpus.labels) if n_labels is None else n_labels
    n_tok, n_sep = corpus.n_tokens, corpus.n_separators
    g, s = merge_overlaps(gold), merge_overlaps(system)
    tok = np.zeros((k_labels, 3))
    sep = np.zeros((k_labels, 3))
    single_tag = k_labels <= _BITS
    confusion = confusion_sep = None
    for lo in range(0, max(k_labels, 1), _BITS):
        hi = min(lo + _BITS, k_labels)
        gsel = (g.label >= lo) & (g.label < hi)
        ssel = (s.label >= lo) & (s.label < hi)
        parts = []
        for unit in ("tok", "sep"):
            masks = []
            for spans, sel in ((g, gsel), (s, ssel)):
                sub = spans.take(sel)
                bits = np.left_shift(1, (sub.label - lo).astype(np.int64))
                if unit == "tok":
                    masks.append(paint(sub, bits, n_tok, sub.start, sub.end))
                else:
                    sent = corpus.sentence_of(sub.start)
                    masks.append(paint(sub, bits, n_sep, sub.start - sent, sub.end - 1 - sent))
            parts.append(_combos(masks[0], masks[1]))
        for (gk, sk, cnt), out in zip(parts, (tok, sep)):
            width = hi - lo
            gb = (gk[:, None] >> np.arange(width)) & 1
            sb = (sk[:, None] >> np.arange(width)) & 1
            out[lo:hi, 0] = ((gb & sb) * cnt[:, None]).sum(0)
            out[lo:hi, 1] = (((1 - gb) & sb) * cnt[:, None]).sum(0)
            out[lo:hi, 2] = ((gb & (1 - sb)) * cnt[:, None]).sum(0)
        if single_tag:
            confusion, confusion_sep = (_confusion(p, k_labels, n) for p, n in zip(parts, (n_tok, n_sep)))
    if not single_tag:  # too many labels for one bitmask pass: paint class ids instead
        confusion, confusion_sep = _class_confusions(corpus, g, s, k_labels)
    return TSCounts(tok, sep, n_tok, n_sep, confusion, confusion_sep)


def _class_confusions(corpus: Corpus, g: SpanSet, s: SpanSet, k_labels: int):
    """Unit confusion matrices from per-unit class ids (1 + label, 0 = outside); None if a
    unit carries two labels on one side."""
    out = []
    for unit, n in (("tok", corpus.n_tokens), ("sep", corpus.n_separators)):
        classes = []
        for spans in (g, s):
            if unit == "tok":
                first, last = spans.start, spans.end
            else:
                sent = corpus.sentence_of(spans.start)
                first, last = spans.start - sent, spans.end - 1 - sent
            cover = paint(spans, np.ones(len(spans), np.int64), n, first, last)
            if np.any(cover > 1):
                return None, None
            classes.append(paint(spans, spans.label.astype(np.int64) + 1, n, first, last))
        key = classes[0] * (k_labels + 1) + classes[1]
        out.append(np.bincount(key, minlength=(k_labels + 1) ** 2).reshape(k_labels + 1, k_labels + 1).astype(float))
    return out[0], out[1]


def _combos(gmask: np.ndarray, smask: np.ndarray):
    """Distinct (gold mask, system mask) pairs over units with any label, with counts."""
    nz = gmask != 0
    nz |= smask != 0
    key = (gmask[nz].astype(np.int64) << _BITS) | smask[nz]
    key.sort()                       # sort + run lengths: np.unique is far slower on numpy 2.x
    if len(key):
        heads = np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1])))
        uniq, cnt = key[heads], np.diff(np.append(heads, len(key)))
    else:
        uniq, cnt = key, np.zeros(0, np.int64)
    return uniq >> _BITS, uniq & ((1 << _BITS) - 1), cnt.astype(float)


def _confusion(part, k_labels: int, n_units: int) -> Optional[np.ndarray]:
    """(k+1)x(k+1) matrix over classes 0 = outside, 1..k = labels; None if a unit has two labels."""
    gk, sk, cnt = part
    def cls(m):
        one = (m & (m - 1)) == 0
        return one, np.where(m == 0, 0, np.log2(np.maximum(m, 1)).astype(np.int64) + 1)
    gone, gc = cls(gk)
    sone, sc = cls(sk)
    if not (gone.all() and sone.all()):
        return None
    c = np.zeros((k_labels + 1, k_labels + 1))
    np.add.at(c, (gc, sc), cnt)
    c[0, 0] += n_units - cnt.sum()
    return c
