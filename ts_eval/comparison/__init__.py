"""Comparative evaluation of system outputs (Tuggener): :func:`compare`, also ``ts_eval.compare``: what changed
between a baseline A and a new system B, judged against gold, and how far all the systems together could go.

- **Token level** (the paper's equation 1 and Algorithm 1, vectorised): diff(A, B) is the
  share of tokens whose label differs between A and B, whatever gold says; every such
  token is a *correction* (B right), a *new error* (A right) or a *changed error* (both
  wrong), counted per transition ``A → B`` (``gold → A → B`` for changed errors).
- **Span level**: every gold span's fair outcome (Ortmann's TP, LE, BES, BEL, BEO, LBE, FN,
  from :mod:`ts_eval.fair`, which reads the shared matcher's pairs) under A and under B,
  and every spurious system span (FP); a gold span differs when its outcome or its
  counterpart span differs.  B = TP is a correction, A = TP a new error, else a changed
  error; a spurious span that B drops is ``FP → TN`` (a correction, as in the paper's
  Table 8), one that B adds ``TN → FP`` (a new error).
- **SemEval-2013** (``models=["semeval"]``): every gold span's category (correct, incorrect,
  partial, missed) under A and B in each of nervaluate's schemes (:func:`ts_eval.models.semeval.scheme_outcomes`)
  and every spurious span, with the same transitions (:mod:`~ts_eval.comparison.semeval_spans`).
- **TS level**: per label, the token and separator units (:mod:`ts_eval.core.units`) that B
  gets right and A wrong, and vice versa.
- **Models** (``models=``): each system's result under ``score``'s models, as ``score`` reports it.
- **Several systems** (section 3): the pairwise diff matrix, the oracle upper bounds (a
  token is right if any system tags it right; a gold span is found if any system finds it
  exactly), overall and per label next to the best single system, and the gold spans no
  system finds (hard cases) and those every system finds (easy cases).

A token's label is its tag as read (``view="tag"``, conlleval's token accuracy) or the
label of the spans covering it, ``O`` outside any span and ``A+B`` under nested spans
(``view="label"``: after decoding and label mapping; the only view for span input).
``-DOCSTART-`` lines are not tokens here (conlleval counts them as correct ``O`` tokens).

The package, one part per module: :mod:`~ts_eval.comparison.results` (the dataclasses),
:mod:`~ts_eval.comparison.tokens`, :mod:`~ts_eval.comparison.transitions` (counting them),
:mod:`~ts_eval.comparison.outcomes` (a span-level diff under any outcome vocabulary),
:mod:`~ts_eval.comparison.spans` (fair outcomes), :mod:`~ts_eval.comparison.semeval_spans`,
:mod:`~ts_eval.comparison.ts`, :mod:`~ts_eval.comparison.several`, :mod:`~ts_eval.comparison.examples`,
:mod:`~ts_eval.comparison.checks` and :mod:`~ts_eval.comparison.comparison` (:func:`compare`, the entry
point, and :func:`compare_blocks`, the same for a corpus given in blocks of whole sentences: each part keeps
running sums of the blocks, never the corpus).  Results are plain
data; :mod:`ts_eval.output.builders.compare` turns them into a page.  Bad arguments raise
:class:`ts_eval.errors.OptionError` (a ValueError).
"""
from __future__ import annotations

from .comparison import ComparisonBuilder, compare, compare_blocks
from .examples import make_example
from .outcomes import OutcomeCodes
from .results import (
    ARROW,
    CLASS_TITLES,
    CLASSES,
    GOLD_OUTCOMES,
    SYSTEM_OUTCOMES,
    VIEWS,
    ChangeClass,
    Comparison,
    Example,
    MultiComparison,
    PairComparison,
    SemevalDiff,
    SpanDiff,
    TokenDiff,
    Transition,
    TSDiff,
)
from .semeval_spans import semeval_diff
from .several import exact_hits, pairwise
from .spans import fair_outcomes, span_diff
from .tokens import change_masks, correct_overlap, diff, token_changes, token_diff, token_labels
from .ts import ts_diff

__all__ = [
    "ARROW", "CLASS_TITLES", "CLASSES", "GOLD_OUTCOMES", "SYSTEM_OUTCOMES", "VIEWS", "ChangeClass", "Comparison",
    "Example", "MultiComparison", "OutcomeCodes", "PairComparison", "SemevalDiff", "SpanDiff", "TSDiff", "TokenDiff",
    "Transition", "ComparisonBuilder", "compare_blocks",
    "change_masks", "compare", "correct_overlap", "diff", "exact_hits", "fair_outcomes",
    "make_example", "pairwise", "semeval_diff", "span_diff", "token_changes", "token_diff", "token_labels", "ts_diff",
]

