"""Token-and-separator units painted as label bitmasks: the one painting road.

A sentence of n tokens has n token units and n-1 separator units; a span over tokens
b..e covers tokens b..e and the e-b separators between them (separator i of the
corpus lies after token i + sentence(i), so none crosses a sentence boundary).  Labels
are painted :data:`BITS` at a time: bit k - lo of a unit's mask is set when a span of
label k (lo <= k < hi) covers it.  Spans should be merged per label first
(:func:`merge_overlaps`), so a mask is a set, not a count.

The TS counts of the models (:mod:`ts_eval.models.ts`) read the matcher's pairs of the
merged spans; the system comparison (:mod:`ts_eval.comparison`) reads these masks.
"""
from __future__ import annotations

from typing import List, Tuple

import numpy as np

from .corpus import Corpus, SpanSet

__all__ = ["BITS", "UNITS", "bit_counts", "label_mask", "label_passes", "merge_overlaps", "paint"]

BITS = 31  # labels per pass: a (gold, system) pair of masks must fit in an int64 key
UNITS = ("token", "separator")


def merge_overlaps(spans: SpanSet) -> SpanSet:
    """Per label, the union of its spans as disjoint intervals (adjacent ones stay apart)."""
    if len(spans) == 0:
        return spans
    label = spans.label
    if bool((spans.start[1:] >= spans.start[:-1]).all()) and int(label.min()) >= 0 and int(label.max()) < 2**15:
        order = np.argsort(label.astype(np.int16), kind="stable")   # the lexsort below (a radix sort: faster)
    else:
        order = np.lexsort((spans.start, label))
    labels = label[order]
    s, e, lab = spans.start[order], spans.last[order], labels.astype(np.int64)
    big = int(max(int(e.max()), 0)) + 2
    shifted_end = e + lab * big
    run = np.maximum.accumulate(shifted_end)
    new = np.ones(len(s), bool)
    new[1:] = (lab[1:] != lab[:-1]) | (s[1:] + lab[1:] * big > run[:-1])
    heads = np.flatnonzero(new)
    tails = np.append(heads[1:], len(s)) - 1
    return SpanSet(s[heads], run[tails] - lab[heads] * big, labels[heads])


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


def label_passes(n_labels: int) -> List[Tuple[int, int]]:
    """The label ranges ``lo..hi-1`` painted together (one pass with lo = hi = 0 when there are no labels)."""
    return [(lo, min(lo + BITS, n_labels)) for lo in range(0, max(n_labels, 1), BITS)]


def label_mask(corpus: Corpus, spans: SpanSet, lo: int, hi: int, unit: str = "token") -> np.ndarray:
    """Per token unit (``unit="token"``) or separator unit (``"separator"``) the bitmask of the
    labels lo..hi-1 of the spans covering it (int32 when it fits, else int64)."""
    sub = spans.take((spans.label >= lo) & (spans.label < hi))
    bits = np.left_shift(1, (sub.label - lo).astype(np.int64))
    if unit == "token":
        return paint(sub, bits, corpus.n_tokens, sub.start, sub.last)
    if unit == "separator":
        sent = corpus.sentence_of(sub.start)
        return paint(sub, bits, corpus.n_separators, sub.start - sent, sub.last - 1 - sent)
    raise ValueError(f"unit {unit!r}: expected one of {', '.join(UNITS)}")


def bit_counts(mask: np.ndarray, width: int) -> np.ndarray:
    """(width,) int64: for each bit 0..width-1, the number of units whose mask has it set."""
    v = mask[mask != 0]
    if not len(v):
        return np.zeros(width, np.int64)
    u, c = np.unique(v, return_counts=True)
    counts: np.ndarray = (((u[:, None] >> np.arange(width)) & 1) * c[:, None]).sum(0)
    return counts
