"""Token-and-separator units painted as label bitmasks: the one painting road.

A sentence of n tokens has n token units and n-1 separator units; a span over tokens
b..e covers tokens b..e and the e-b separators between them (separator i of the
corpus lies after token i + sentence(i), so none crosses a sentence boundary).  Labels
are painted :data:`BITS` at a time: bit k - lo of a unit's mask is set when a span of
label k (lo <= k < hi) covers it.  Spans should be merged per label first
(:func:`merge_overlaps`), so a mask is a set, not a count.

``paint`` and ``merge_overlaps`` still live in :mod:`ts_eval.events` and are re-exported
here; they are meant to move into this module (events then imports them from here).
"""
from __future__ import annotations

from typing import List, Tuple

import numpy as np

from .corpus import Corpus, SpanSet
from .events import merge_overlaps, paint

__all__ = ["BITS", "UNITS", "bit_counts", "label_mask", "label_passes", "merge_overlaps", "paint"]

BITS = 31  # labels per pass: a (gold, system) pair of masks must fit in an int64 key
UNITS = ("token", "separator")


def label_passes(n_labels: int) -> List[Tuple[int, int]]:
    """The label ranges ``lo..hi-1`` painted together (one pass with lo = hi = 0 when there are no labels)."""
    return [(lo, min(lo + BITS, n_labels)) for lo in range(0, max(n_labels, 1), BITS)]


def label_mask(corpus: Corpus, spans: SpanSet, lo: int, hi: int, unit: str = "token") -> np.ndarray:
    """Per token unit (``unit="token"``) or separator unit (``"separator"``) the bitmask of the
    labels lo..hi-1 of the spans covering it (int32 when it fits, else int64)."""
    sub = spans.take((spans.label >= lo) & (spans.label < hi))
    bits = np.left_shift(1, (sub.label - lo).astype(np.int64))
    if unit == "token":
        return paint(sub, bits, corpus.n_tokens, sub.start, sub.end)
    if unit == "separator":
        sent = corpus.sentence_of(sub.start)
        return paint(sub, bits, corpus.n_separators, sub.start - sent, sub.end - 1 - sent)
    raise ValueError(f"unit {unit!r}: expected one of {', '.join(UNITS)}")


def bit_counts(mask: np.ndarray, width: int) -> np.ndarray:
    """(width,) int64: for each bit 0..width-1, the number of units whose mask has it set."""
    v = mask[mask != 0]
    if not len(v):
        return np.zeros(width, np.int64)
    u, c = np.unique(v, return_counts=True)
    return (((u[:, None] >> np.arange(width)) & 1) * c[:, None]).sum(0)
