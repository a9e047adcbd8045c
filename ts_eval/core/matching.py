"""The shared span matcher: gold x system span pairs that share at least one token.

Every span-level model reads these pairs (exact match, overlap models, fair error
types, system comparisons); none of them computes overlaps on its own.  Pairs come
from one sorted interval sweep over the whole corpus: system spans sorted by start,
with the running maximum of their ends, bound the candidates of every gold span
by two ``searchsorted`` calls; no span is compared with every other.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .corpus import SpanSet
from .schemes import conlleval_correct


@dataclass
class Pairs:
    """Overlapping (gold, system) span pairs, sorted by gold index then system index."""

    gold: np.ndarray      # index into the gold SpanSet
    system: np.ndarray    # index into the system SpanSet
    overlap: np.ndarray   # shared tokens
    gold_only: np.ndarray  # tokens of the gold span not in the system span
    system_only: np.ndarray
    same_label: np.ndarray
    exact: np.ndarray     # same start, end and label (conlleval scheme: what conlleval.pl counts correct)

    def __len__(self) -> int:
        return len(self.gold)

    def take(self, mask) -> Pairs:
        return Pairs(*(getattr(self, f)[mask] for f in
                       ("gold", "system", "overlap", "gold_only", "system_only", "same_label", "exact")))


def match(gold: SpanSet, system: SpanSet) -> Pairs:
    """All pairs of a gold and a system span that share a token (spans never cross sentences)."""
    if len(gold) == 0 or len(system) == 0:
        z = np.zeros(0, np.int64)
        b = np.zeros(0, bool)
        return Pairs(z, z, z, z, z, b, b)
    order = np.argsort(system.start, kind="stable")
    s_start, s_last = system.start[order], system.last[order]
    reach = np.maximum.accumulate(s_last)
    lo = np.searchsorted(reach, gold.start, side="left")        # first that may reach the gold span
    hi = np.searchsorted(s_start, gold.last, side="right")       # last that starts inside it
    count = np.maximum(hi - lo, 0)
    gi = np.repeat(np.arange(len(gold)), count)
    first = np.repeat(lo - np.concatenate(([0], np.cumsum(count)[:-1])), count)
    si_sorted = first + np.arange(len(gi))
    keep = s_last[si_sorted] >= gold.start[gi]
    gi, si_sorted = gi[keep], si_sorted[keep]
    si = order[si_sorted]
    gs, ge, ss, se = gold.start[gi], gold.last[gi], system.start[si], system.last[si]
    overlap = np.minimum(ge, se) - np.maximum(gs, ss) + 1
    same = gold.label[gi] == system.label[si]
    if gold.conll is not None and system.conll is not None:
        # conlleval scheme: exact = the chunks conlleval.pl counts correct (a joint state
        # machine over both sides; the two spans start together, their ends may differ)
        counted = np.zeros(len(gold.conll.start), bool)
        counted[conlleval_correct(gold.conll, system.conll)] = True
        exact = same & (gs == ss) & counted[gs]
    else:
        exact = same & (gs == ss) & (ge == se)
    o = np.lexsort((si, gi))
    return Pairs(gi[o], si[o], overlap[o], (ge - gs + 1 - overlap)[o], (se - ss + 1 - overlap)[o], same[o], exact[o])
