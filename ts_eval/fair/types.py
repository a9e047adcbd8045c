"""Ortmann's fair error types as data: the error-type columns, the per-span outcome codes
and the result of counting one system against gold (:class:`FairResult`).

Plain data at the bottom of the fair package: it imports nothing of ts_eval (the spans
:meth:`SpanOutcomes.rows` reads are anything with ``start``, ``end`` (exclusive) and ``label``
columns, i.e. a :class:`ts_eval.core.corpus.SpanSet`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Protocol, Sequence, Tuple, TypedDict

import numpy as np


class Spans(Protocol):
    """What :meth:`SpanOutcomes.rows` reads of a span set (a :class:`ts_eval.core.corpus.SpanSet`)."""

    start: np.ndarray
    label: np.ndarray

    @property
    def end(self) -> np.ndarray: ...   # exclusive (SpanSet.last + 1)

    def __len__(self) -> int: ...


class _SpanRow(TypedDict):
    side: str           # gold or system
    index: int          # the span's index in its side's span set
    label: str
    start: int
    end: int            # exclusive
    type: str           # its outcome (OUTCOME_NAMES)
    partner: int        # the span of the other side it was matched with, -1 for none
    shared: bool        # False when the partner had been counted with another span before


class SpanRow(_SpanRow, total=False):
    """One row of :meth:`SpanOutcomes.rows`."""

    sentence: int       # with the sentence offsets only

#: columns of :attr:`FairResult.fair` (BE = BES + BEL + BEO)
ERROR_TYPES: Tuple[str, ...] = ("TP", "FP", "FN", "LE", "BE", "BES", "BEL", "BEO", "LBE")
#: columns of :attr:`FairResult.traditional`
TRADITIONAL_TYPES: Tuple[str, ...] = ("TP", "FP", "FN")

# per-span outcome codes (BE itself is never an outcome, only its three subtypes)
TP, FP, FN, LE, BES, BEL, BEO, LBE = range(8)
OUTCOME_NAMES: Tuple[str, ...] = ("TP", "FP", "FN", "LE", "BES", "BEL", "BEO", "LBE")
# an outcome event consumes both spans, only the gold span, or only the system span
BOTH, GOLD_ONLY, SYSTEM_ONLY = 0, 1, 2

MODES: Tuple[str, ...] = ("paper", "faireval-skip")
FOCUS: Tuple[str, ...] = ("target", "system")
MISSING = "_"   # the confusion-matrix label for "no counterpart"


@dataclass(eq=False)   # (arrays: a field-wise == has no truth value)
class SpanOutcomes:
    """What every span was counted as, and its counterpart.

    ``gold_type[i]`` is an outcome code (see ``OUTCOME_NAMES``) and
    ``gold_partner[i]`` the system span it was matched with (-1 for FN); the same
    for system spans (-1 for FP).  ``gold_shared[i]`` is False when the gold span
    was matched to a system span that had already been counted with another gold
    span (the second and third passes of Algorithm 2): such an error is counted
    once, for the span that joined later.
    """

    gold_type: np.ndarray
    gold_partner: np.ndarray
    gold_shared: np.ndarray
    system_type: np.ndarray
    system_partner: np.ndarray
    system_shared: np.ndarray

    def rows(self, gold: Spans, system: Spans, labels: Sequence[str],
             sent_offsets: Optional[np.ndarray] = None) -> List[SpanRow]:
        """One plain dict per span (gold first): side, index, label, start, end (exclusive), type, partner."""
        out: List[SpanRow] = []
        for side, ss, typ, partner, shared in (
                ("gold", gold, self.gold_type, self.gold_partner, self.gold_shared),
                ("system", system, self.system_type, self.system_partner, self.system_shared)):
            sent = (np.searchsorted(sent_offsets, ss.start, side="right") - 1
                    if sent_offsets is not None else None)
            end = ss.end
            for i in range(len(ss)):
                row: SpanRow = {"side": side, "index": i, "label": labels[int(ss.label[i])],
                                "start": int(ss.start[i]), "end": int(end[i]),
                                "type": OUTCOME_NAMES[int(typ[i])], "partner": int(partner[i]),
                                "shared": bool(shared[i])}
                if sent is not None:
                    row["sentence"] = int(sent[i])
                out.append(row)
        return out


@dataclass(eq=False)   # (arrays: a field-wise == has no truth value)
class FairResult:
    """Counts of one system against gold: fair error types, traditional TP/FP/FN,
    confusion matrix, target label statistics and per-span outcomes."""

    labels: List[str]
    focus: str
    mode: str
    fair: np.ndarray          # (L, 9) int64, columns ERROR_TYPES
    traditional: np.ndarray   # (L, 3) int64, columns TRADITIONAL_TYPES
    confusion: np.ndarray     # (L+1, L+1) int64, rows gold, columns system; index L is "_"
    gold_count: np.ndarray    # (L,) gold spans per label
    system_count: np.ndarray  # (L,) system spans per label
    label_first: np.ndarray   # (L,) first appearance of the label in the gold input (for the stats order)
    outcomes: Optional[SpanOutcomes]   # None when made from counts alone (score's streamed totals)
    sentence_counts: Optional[np.ndarray] = None  # (sentences, L, 8) outcome counts (fair.tally.sentence_outcomes)

    @property
    def span_outcomes(self) -> SpanOutcomes:
        """What every span was counted as (a ValueError for a result made from counts alone)."""
        if self.outcomes is None:
            raise ValueError("this fair result was made from counts alone: it has no outcomes per span")
        return self.outcomes

    @property
    def present(self) -> np.ndarray:
        """Labels with at least one gold or system span (the reference lists only these)."""
        present: np.ndarray = (self.gold_count + self.system_count) > 0
        return present

    def counts(self, label: Optional[str] = None) -> Dict[str, int]:
        """Fair counts of one label, or overall (label None)."""
        row = self.fair.sum(axis=0) if label is None else self.fair[self.labels.index(label)]
        return dict(zip(ERROR_TYPES, (int(v) for v in row)))

    def traditional_counts(self, label: Optional[str] = None) -> Dict[str, int]:
        row = self.traditional.sum(axis=0) if label is None else self.traditional[self.labels.index(label)]
        return dict(zip(TRADITIONAL_TYPES, (int(v) for v in row)))

    def target_stats(self) -> List[Tuple[str, int, float]]:
        """(label, gold spans, percent of all gold spans) in order of first appearance in the gold input."""
        total = int(self.gold_count.sum())
        keep = np.flatnonzero(self.gold_count > 0)
        keep = keep[np.argsort(self.label_first[keep], kind="stable")]
        return [(self.labels[k], int(self.gold_count[k]), 100.0 * int(self.gold_count[k]) / total if total else 0.0)
                for k in keep.tolist()]

    def to_dict(self) -> Dict[str, Any]:
        """The counts as JSON: overall and per present label (fair error types and traditional), the confusion
        matrix, the target labels' statistics and the settings (``focus``, ``mode``)."""
        present = [self.labels[k] for k in np.flatnonzero(self.present).tolist()]
        return {"focus": self.focus, "mode": self.mode,
                "overall": {"fair": self.counts(), "traditional": self.traditional_counts()},
                "labels": {name: {"fair": self.counts(name), "traditional": self.traditional_counts(name)}
                           for name in present},
                "confusion": self.confusion_dict(),
                "targets": [{"label": name, "gold": n, "percent": pct} for name, n, pct in self.target_stats()]}

    def confusion_dict(self) -> Dict[str, Dict[str, int]]:
        """``{target label: {system label: count}}`` over the present labels and ``_``."""
        idx = np.flatnonzero(self.present).tolist() + [len(self.labels)]
        names = [self.labels[k] for k in idx[:-1]] + [MISSING]
        return {names[a]: {names[b]: int(self.confusion[i, j]) for b, j in enumerate(idx)}
                for a, i in enumerate(idx)}
