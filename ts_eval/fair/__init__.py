"""Ortmann's (2022) fair error types for labelled spans: TP, FP, FN, LE, BE (BES, BEL, BEO), LBE.

Traditional span scoring counts a span with the right label but wrong boundaries
twice (one FP and one FN).  Algorithm 2 of the paper counts every gold ("target")
and every system span exactly once, as one of

* TP  - same label, same span;             LE  - same span, other label;
* BE  - same label, overlapping span, split into BES (system span smaller),
  BEL (larger) and BEO (overlapping, no boundary shared);
* LBE - other label, overlapping span;     FN / FP - no counterpart at all.

The decisions follow the reference implementation (rubcompling/FairEval) step by
step: 1:1 mappings first (TP, then LE), then boundary errors, then labelling-
boundary errors, then FN/FP.  Within a sentence the spans are sorted by length
(stable, so ties keep the input order); each BE/LBE stage makes three passes
(unmatched target x unmatched system, unmatched target x matched system,
unmatched system x matched target); the most similar counterpart wins (most
shared tokens, fewest target-only tokens, fewest system-only tokens, shortest,
first in the list), and the token sets of matched spans shrink so a span can
absorb several counterparts without being counted twice.

Candidate pairs come from :func:`ts_eval.core.matching.match`; only the shrinking
token sets are the algorithm's own state.  1:1 exact matches, spans without any
overlapping counterpart and isolated 1:1 overlaps are resolved with numpy; only
clusters of several mutually overlapping spans run the sequential algorithm.

The package, one job per module: :mod:`~ts_eval.fair.types` (error types, outcome
codes, :class:`FairResult`), :mod:`~ts_eval.fair.sequential` (Algorithm 2 on one
group of spans), :mod:`~ts_eval.fair.algorithm` (:func:`fair_errors`: the vectorised
part around it), :mod:`~ts_eval.fair.tally` (events -> counts, and
:func:`sentence_outcomes`, the per-sentence counts every fair score derives from),
:mod:`~ts_eval.fair.weights` and :mod:`~ts_eval.fair.scores` (P/R/F1 through
:mod:`ts_eval.core.measures`, :func:`fair_report`).  Token sets live in the corpus layer
(:mod:`ts_eval.core.tokensets`).

Two modes:

``paper`` (default)
    every span is visited in every pass.  Reproduces the paper's Tables 1 and 2
    and Figure 2, and the result files published with it.
``faireval-skip``
    the current public FairEval.py iterates over Python lists while removing the
    matched span, which skips the span after every match in each pass; this mode
    reproduces that behaviour (and so that tool's current output) exactly.
"""
from __future__ import annotations

from .algorithm import fair_corpus, fair_errors
from .scores import METHODS, fair_report, method_scores, weighted_totals
from .tally import sentence_outcomes
from .types import (
    BEL,
    BEO,
    BES,
    BOTH,
    ERROR_TYPES,
    FN,
    FOCUS,
    FP,
    GOLD_ONLY,
    LBE,
    LE,
    MISSING,
    MODES,
    OUTCOME_NAMES,
    SYSTEM_ONLY,
    TP,
    TRADITIONAL_TYPES,
    FairResult,
    SpanOutcomes,
)
from .weights import (
    DEFAULT_WEIGHTS,
    EQ7_FORMULA,
    PRESET_ALIASES,
    PRESETS,
    WEIGHT_TARGETS,
    Weights,
    parse_weights,
    resolve_weights,
)

__all__ = [
    "BEL", "BEO", "BES", "BOTH", "DEFAULT_WEIGHTS", "EQ7_FORMULA", "ERROR_TYPES", "fair_corpus", "fair_errors",
    "fair_report", "FairResult", "FN", "FOCUS", "FP", "GOLD_ONLY", "LBE", "LE", "method_scores",
    "METHODS", "MISSING", "MODES", "OUTCOME_NAMES", "parse_weights", "PRESET_ALIASES", "PRESETS",
    "resolve_weights", "sentence_outcomes", "SpanOutcomes", "SYSTEM_ONLY", "TP", "TRADITIONAL_TYPES",
    "WEIGHT_TARGETS", "weighted_totals", "Weights",
]
