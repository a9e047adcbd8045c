"""Span level under nervaluate's SemEval-2013 schemes: every gold span's category (correct,
incorrect, partial or missed) under A and under B, every spurious system span, and their
transitions, per scheme (strict, exact, partial, ent_type).

The categories are those of the ``overall`` evaluation (:func:`ts_eval.models.semeval.scheme_outcomes`
on the shared matcher's pairs, the numbers ``score --models semeval`` counts), read like the
fair outcomes of :mod:`.spans`: a gold span differs when its category or the system span that
took it differs; B correct is a correction, A correct a new error, else a changed error
(``incorrect → partial``, or the same category with another system span); a spurious span of A
that B does not keep is ``spurious → none`` (a correction), one B adds ``none → spurious`` (a new
error).  A gold span correct under both with different system spans (``exact`` and ``partial``:
other label; ``ent_type``: other bounds) is no change of correctness: it is counted in
``changed_counterpart`` only.  Per-label rows put gold spans under their gold label and spurious
spans under their own label.
"""
from __future__ import annotations

from typing import Dict, Optional, Sequence

import numpy as np

from ..core.corpus import Corpus
from ..core.matching import MatchSettings, Pairs
from ..models.semeval import COUNTS, SCHEMES, SpanOutcomes, scheme_outcomes, threshold_of
from .outcomes import OutcomeCodes, OutcomeNames, OutcomeSums, SpanSides
from .results import SemevalDiff

#: the gold spans' categories (codes of :attr:`ts_eval.models.semeval.SpanOutcomes.gold`), right one first
GOLD_CATEGORIES = ("correct", "incorrect", "partial", "missed")
SEMEVAL_NAMES = OutcomeNames(GOLD_CATEGORIES, COUNTS, "spurious", "none", "missed", "correct")


def _codes(o: SpanOutcomes) -> OutcomeCodes:
    return OutcomeCodes(o.gold.astype(np.int64), o.gold_system, o.system.astype(np.int64), o.system_gold)


def semeval_sums() -> Dict[str, OutcomeSums]:
    """Empty sums of every scheme (:func:`add_semeval`)."""
    return {s: OutcomeSums(SEMEVAL_NAMES) for s in SCHEMES}


def add_semeval(sums: Dict[str, OutcomeSums], sides: SpanSides, pairs_a: Optional[Pairs] = None,
                pairs_b: Optional[Pairs] = None, matching: Optional[MatchSettings] = None) -> None:
    """Count one block of A's and B's spans against gold under every scheme (``pairs_*``: the matcher's pairs
    of gold and that system, computed when not given; ``matching``: the matcher's settings, as ``score`` reads
    them)."""
    oa = scheme_outcomes(sides.gold, sides.a, pairs_a, False, matching)
    ob = scheme_outcomes(sides.gold, sides.b, pairs_b, False, matching)
    for s in SCHEMES:
        sums[s].add(sides, _codes(oa[s]), _codes(ob[s]))


def semeval_result(sums: Dict[str, OutcomeSums], a: str, b: str, labels: Sequence[str], top: Optional[int],
                   matching: Optional[MatchSettings] = None) -> SemevalDiff:
    """The :class:`SemevalDiff` of the sums of every block."""
    threshold = threshold_of(matching)
    return SemevalDiff(a, b, float(threshold.value) if threshold.kind == "nervaluate" else None,
                       {s: sums[s].result(a, b, labels, top) for s in SCHEMES}, str(threshold),
                       matching.assignment if matching is not None else "many-to-many")


def semeval_diff(corpus: Corpus, a: str, b: str, top: Optional[int], pairs_a: Optional[Pairs] = None,
                 pairs_b: Optional[Pairs] = None, matching: Optional[MatchSettings] = None) -> SemevalDiff:
    """A (baseline) against B under every SemEval-2013 scheme (``pairs_*``: the matcher's pairs of
    gold and that system, computed when not given; ``matching``: the matcher's settings, as
    ``score`` reads them)."""
    sums = semeval_sums()
    add_semeval(sums, SpanSides(corpus.gold, corpus.systems[a], corpus.systems[b], corpus.labels), pairs_a, pairs_b,
                matching)
    return semeval_result(sums, a, b, corpus.labels, top, matching)
