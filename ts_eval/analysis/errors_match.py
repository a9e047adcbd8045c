"""Each gold span's counterpart among a system's spans, and the span-level confusion matrix.

Read from the shared matcher's pairs (:func:`ts_eval.core.matching.match`); nothing here
computes an overlap.  The rule, in full (``docs/errors.md`` states it too):

- **candidates.** Under ``exact`` matching a system span is a candidate for a gold span when
  both have the same first and the same last token (any label); on the diagonal (same label)
  only when the exact model counts the pair a hit (the matcher's ``exact`` flag, which for the
  conlleval scheme is what conlleval.pl counts correct), so the diagonal is the exact model's
  true positives.  Under ``overlap`` matching every system span that shares a token with the
  gold span is a candidate.
- **the best counterpart** of a gold span is the candidate that comes first in this order: the
  same label as gold first; then most shared tokens; then fewest tokens outside the other
  span (gold-only plus system-only tokens); then the one that starts first; then the smaller
  label id (labels sorted by name).  Each gold span is counted once, in the cell of its gold
  label and its counterpart's label, or in the ``missed`` column when it has no candidate.
- **spurious.** A system span that is no gold span's candidate is counted once in the
  ``spurious`` row, under its own label.  A system span may be the counterpart of several gold
  spans (one span covering two gold spans is counted for both); a candidate that is no gold
  span's best counterpart is counted in neither (``unpaired``).

So every row of a gold label sums to that label's gold spans, the diagonal is the exact
model's true positives under ``exact`` and the overlap model's gold spans hit under
``overlap``, and system spans = spurious + unpaired + the distinct counterparts.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..core.arrays import sort_order
from ..core.corpus import SpanSet
from ..core.matching import Pairs
from ..errors import OptionError

MATCHINGS: Tuple[str, ...] = ("exact", "overlap")
#: the confusion matrix's extra column (gold spans without a counterpart) and row (system spans
#: that are no gold span's candidate), unless a label has that name (then see :func:`none_names`)
MISSED, SPURIOUS = "missed", "spurious"


def none_names(labels: Sequence[str]) -> Tuple[str, str]:
    """The names of the extra column and row: ``missed`` and ``spurious``, with ``*`` appended
    until no label has the name."""
    out = []
    for name in (MISSED, SPURIOUS):
        while name in labels:
            name += "*"
        out.append(name)
    return out[0], out[1]


def candidates(pairs: Pairs, matching: str) -> np.ndarray:
    """Mask of the matcher's pairs that are candidates under ``matching`` (see the module docstring)."""
    if matching == "overlap":
        return np.ones(len(pairs), bool)
    if matching == "exact":
        same_range = (pairs.gold_only == 0) & (pairs.system_only == 0)
        candidate: np.ndarray = pairs.exact | (same_range & ~pairs.same_label)
        return candidate
    raise OptionError(f"matching {matching!r}: expected one of {', '.join(MATCHINGS)}")


def best_counterparts(pairs: Pairs, n_gold: int, system: SpanSet, matching: str) -> np.ndarray:
    """Per gold span, the index of its best counterpart among the system spans (-1: none)."""
    p = pairs.take(candidates(pairs, matching))
    out = np.full(n_gold, -1, np.int64)
    if not len(p):
        return out
    outside = p.gold_only + p.system_only
    order = sort_order((p.gold, ~p.same_label, -p.overlap, outside, system.start[p.system], system.label[p.system]))
    g = p.gold[order]
    first = np.ones(len(g), bool)
    first[1:] = g[1:] != g[:-1]
    out[g[first]] = p.system[order][first]
    return out


@dataclass
class Confusion:
    """Gold label x system label counts of one system under one matching.

    ``counts`` is (L + 1) x (L + 1): rows are the gold labels and then the spurious row, columns
    the system labels and then the missed column; the corner (spurious, missed) is always 0."""

    matching: str
    labels: List[str]
    counts: np.ndarray
    gold: int           # gold spans (the sum of the label rows)
    system: int         # system spans
    spurious: int       # system spans that are no gold span's candidate (the sum of the spurious row)
    unpaired: int       # candidates that are no gold span's best counterpart

    @property
    def missed(self) -> int:
        return int(self.counts[:-1, -1].sum())

    @property
    def diagonal(self) -> int:
        L = len(self.labels)
        return int(np.trace(self.counts[:L, :L]))

    def names(self) -> Tuple[List[str], List[str]]:
        """The row names and the column names."""
        missed, spurious = none_names(self.labels)
        return list(self.labels) + [spurious], list(self.labels) + [missed]

    def matrix(self) -> Dict[str, Dict[str, int]]:
        """``{gold label or spurious: {system label or missed: count}}`` (the corner left out)."""
        rows, cols = self.names()
        L = len(self.labels)
        out = {r: {c: int(self.counts[i, j]) for j, c in enumerate(cols)} for i, r in enumerate(rows[:L])}
        out[rows[L]] = {c: int(self.counts[L, j]) for j, c in enumerate(cols[:L])}
        return out

    def __add__(self, other: Confusion) -> Confusion:
        if self.labels != other.labels or self.matching != other.matching:
            raise ValueError("confusion matrices of different labels or matchings do not add")
        return Confusion(self.matching, self.labels, self.counts + other.counts, self.gold + other.gold,
                         self.system + other.system, self.spurious + other.spurious, self.unpaired + other.unpaired)

    def to_dict(self) -> Dict[str, Any]:
        return {"confusion": self.matrix(), "gold": self.gold, "system": self.system, "spurious": self.spurious,
                "unpaired": self.unpaired}


def confusion(gold: SpanSet, system: SpanSet, pairs: Pairs, labels: Sequence[str], matching: str,
              best: Optional[np.ndarray] = None) -> Confusion:
    """The confusion matrix of one system under ``matching`` (``pairs``: ``match(gold, system)``;
    ``best``: :func:`best_counterparts` under ``matching``, when already known)."""
    L = len(labels)
    if best is None:
        best = best_counterparts(pairs, len(gold), system, matching)
    has = best >= 0
    col = np.full(len(gold), L, np.int64)
    col[has] = system.label[best[has]]
    cells = gold.label.astype(np.int64) * (L + 1) + col
    candidate = np.zeros(len(system), bool)
    candidate[pairs.system[candidates(pairs, matching)]] = True
    chosen = np.zeros(len(system), bool)
    chosen[best[has]] = True
    spurious = system.label[~candidate].astype(np.int64)
    counts = np.bincount(np.concatenate([cells, L * (L + 1) + spurious]), minlength=(L + 1) ** 2)
    return Confusion(matching, list(labels), counts.reshape(L + 1, L + 1), len(gold), len(system),
                     len(spurious), int(np.count_nonzero(candidate & ~chosen)))
