"""Span level: every gold span's fair outcome under A and under B (Ortmann's Algorithm 2 on
the shared matcher's pairs, from :mod:`ts_eval.fair`), every spurious span, and their
transitions (the diff itself: :mod:`.outcomes`)."""
from __future__ import annotations

from collections import Counter
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..core.corpus import Corpus
from ..core.matching import Pairs, match
from ..fair.algorithm import fair_errors
from ..fair.types import OUTCOME_NAMES
from .outcomes import ExampleContext, OutcomeCodes, OutcomeNames, SpanSides, outcome_diff
from .results import GOLD_OUTCOMES, SYSTEM_OUTCOMES, SpanDiff

#: Ortmann's fair outcomes (the span level of ``compare``)
FAIR_NAMES = OutcomeNames(GOLD_OUTCOMES, SYSTEM_OUTCOMES, "FP", "TN", "TP", "tp")


def fair_outcomes(corpus: Corpus, system: str, pairs: Optional[Pairs] = None, mode: str = "paper") -> OutcomeCodes:
    """Per-span outcomes of one system from :func:`ts_eval.fair.fair_errors` (Ortmann's
    Algorithm 2 on the shared matcher's pairs), recoded into this module's outcome order."""
    ss = corpus.systems[system]
    if pairs is None:
        pairs = match(corpus.gold, ss)
    o = fair_errors(corpus.gold, ss, pairs, corpus.labels, corpus, mode=mode).span_outcomes
    return OutcomeCodes(_recode(o.gold_type, OUTCOME_NAMES, GOLD_OUTCOMES),
                        np.asarray(o.gold_partner, np.int64),
                        _recode(o.system_type, OUTCOME_NAMES, SYSTEM_OUTCOMES),
                        np.asarray(o.system_partner, np.int64))


def _recode(codes: np.ndarray, source: Sequence[str], target: Sequence[str]) -> np.ndarray:
    """Outcome codes named by ``source`` -> codes into ``target`` (a code with no place there is an error)."""
    table = np.array([target.index(n) if n in target else -1 for n in source], np.int64)
    out = table[np.asarray(codes, np.int64)] if len(codes) else np.zeros(0, np.int64)
    if np.any(out < 0):
        bad = sorted({source[int(c)] for c in np.asarray(codes)[out < 0]})
        raise ValueError(f"unexpected fair outcome(s) {', '.join(bad)}; expected {', '.join(target)}")
    return out


def span_diff(corpus: Corpus, a: str, b: str, oa: OutcomeCodes, ob: OutcomeCodes,
              top: Optional[int]) -> Tuple[SpanDiff, ExampleContext]:
    """Transitions of gold spans' fair outcomes (A outcome → B outcome) and of spurious spans; also
    the per-unit arrays the examples need."""
    return outcome_diff(SpanSides(corpus.gold, corpus.systems[a], corpus.systems[b], corpus.labels), a, b, oa, ob,
                        top, FAIR_NAMES)


def systems_instead(corpus: Corpus, names: List[str], idx: np.ndarray, fair_mode: str,
                    outcomes: Optional[Callable[[str], OutcomeCodes]] = None) -> List[Dict[str, int]]:
    """For each gold span in ``idx``: how the systems' fair outcomes for it are distributed,
    as ``"LE ORG"`` (outcome and the counterpart's label) -> number of systems (``outcomes``: a system's
    fair outcomes, when already at hand)."""
    counters: List[Counter[str]] = [Counter() for _ in range(len(idx))]
    if not len(idx):
        return []
    for name in names:
        o = outcomes(name) if outcomes is not None else fair_outcomes(corpus, name, mode=fair_mode)
        ss = corpus.systems[name]
        t, p = o.gold_type[idx], o.gold_partner[idx]
        for k, (tt, pp) in enumerate(zip(t.tolist(), p.tolist())):
            key = GOLD_OUTCOMES[tt] + (f" {corpus.labels[int(ss.label[pp])]}" if pp >= 0 else "")
            counters[k][key] += 1
    return [dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))) for c in counters]
