"""The errors of a system, one per Ortmann's fair error event, grouped by what a person reads:
the error type, the gold span's label and string, the system span's label and string.

The events are those :func:`ts_eval.fair.fair_errors` counts (Algorithm 2 on the shared matcher's
pairs): every gold span that is not a TP (FN, LE, BES, BEL, BEO, LBE, with its counterpart) and
every system span counted on its own (FP, or a span that joined an already matched gold span), so
the errors of one system sum to its fair counts.  Groups are ranked by their number of
occurrences, then by where their first occurrence is; the first occurrence is the example.
Pooled over several systems, a group also says how many systems make it, and its example is
the first occurrence in token order (ties: the system whose name sorts first), so the order in
which the systems are given never matters.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple

import numpy as np

from ..comparison.results import Example
from ..fair.types import BEL, BEO, BES, FN, FP, LBE, LE, OUTCOME_NAMES, TP, SpanOutcomes

#: the error types in the order the tables show them (Ortmann's outcome names)
ERROR_TYPES: Tuple[str, ...] = ("FN", "FP", "LE", "BES", "BEL", "BEO", "LBE")
ERROR_CODES: Tuple[int, ...] = (FN, FP, LE, BES, BEL, BEO, LBE)
#: what each type means, in words
TYPE_TITLES: Dict[str, str] = {
    "FN": "missed", "FP": "spurious", "LE": "wrong label", "BES": "wrong boundary (system span shorter)",
    "BEL": "wrong boundary (system span longer)", "BEO": "wrong boundary (spans overlap)",
    "LBE": "wrong label and boundary",
}


@dataclass
class Events:
    """One system's errors as columns: the fair outcome code, the gold span and the system span
    (-1: none)."""

    code: np.ndarray
    gold: np.ndarray
    system: np.ndarray

    def __len__(self) -> int:
        return len(self.code)


def error_events(o: SpanOutcomes) -> Events:
    """The counted errors of one system's fair outcomes (the counting rule of
    :func:`ts_eval.fair.tally.sentence_outcomes`: every gold span, and every system span not counted
    together with a gold span; TPs left out)."""
    g_code = np.asarray(o.gold_type, np.int64)
    g_err = np.flatnonzero(g_code != TP)
    alone = np.flatnonzero(~np.asarray(o.system_shared, bool))
    s_code = np.asarray(o.system_type, np.int64)[alone]
    keep = s_code != TP
    alone, s_code = alone[keep], s_code[keep]
    return Events(np.concatenate([g_code[g_err], s_code]),
                  np.concatenate([g_err, np.asarray(o.system_partner, np.int64)[alone]]),
                  np.concatenate([np.asarray(o.gold_partner, np.int64)[g_err], alone]))


def type_counts(ev: Events) -> Dict[str, int]:
    """Errors per type (lower-case result words, ``be`` = bes + bel + beo) and distinct errors."""
    c = np.bincount(ev.code, minlength=len(OUTCOME_NAMES))
    out = {OUTCOME_NAMES[k].lower(): int(c[k]) for k in ERROR_CODES}
    out["be"] = out["bes"] + out["bel"] + out["beo"]
    return out


@dataclass
class ErrorGroup:
    """Errors of one type between the same gold and system strings and labels."""

    type: str
    gold_label: Optional[str]
    gold_text: Optional[str]
    system_label: Optional[str]
    system_text: Optional[str]
    count: int                      # occurrences (over all systems, when pooled)
    by_systems: Optional[int]       # pooled: how many systems make it
    example: Example

    def to_dict(self) -> Dict[str, Any]:
        d: Dict[str, Any] = {"type": self.type, "gold_label": self.gold_label, "gold_text": self.gold_text,
                             "system_label": self.system_label, "system_text": self.system_text,
                             "count": self.count}
        if self.by_systems is not None:
            d["by_systems"] = self.by_systems
        d["example"] = self.example.to_dict()
        return d
