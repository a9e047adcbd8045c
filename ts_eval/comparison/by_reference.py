"""Several references of the same tokens in one run (an original test set and its corrections, annotators):
every system scored against every reference, and two systems compared under each.

The references and the systems sit in one :class:`~ts_eval.core.corpus.Corpus`: the first reference is its
gold, every other one a side read as if it were a system (:func:`ts_eval.io.api.read_with_references`; the
references are chosen and checked by :func:`ts_eval.comparison.changes.reference_sides`), so the readers check
that every reference and every system hold the first reference's tokens and name the first difference
otherwise (file, line, the two tokens, each reference by name).

- :func:`score_references`: every system against every reference under every model of ``score``
  (:func:`ts_eval.models.evaluate.evaluate`, one :class:`~ts_eval.results.report.Report` per reference) and,
  per system and model, the headline score (micro F; the fair model's F1) under each reference with its
  difference to the first reference's.
- :func:`compare_by_reference`: two systems A and B compared under each reference (with ``compare`` handed
  in, its whole comparison per reference) and, under every ranking model, B - A with the paired
  approximate-randomisation test of :mod:`ts_eval.analysis.pairtest` (the same test ``analyze`` runs on a
  pair); the verdict per reference (``B``, ``A``: the better one when p < alpha; ``tie`` otherwise) and the
  models under which it changes between references.

A reference against itself changes nothing; swapping two references negates every difference.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence

import numpy as np

from ..core.corpus import Corpus
from ..errors import OptionError
from ..results.vocabulary import layout
from .changes import reference_sides, under

if TYPE_CHECKING:
    from ..results.report import Report
    from .results import Comparison

#: a verdict of the paired test: B better, A better, no significant difference
VERDICTS = ("B", "A", "tie")


# ---------------------------------------------------------------------------
# scores


@dataclass
class ScoresByReference:
    """:func:`score_references`'s result: a score report per reference and each system's headline scores
    (``scores[system][model][reference]``; ``difference``: minus the first reference's)."""

    references: List[str]
    systems: List[str]
    reports: Dict[str, Report]
    scores: Dict[str, Dict[str, Dict[str, float]]]
    settings: Dict[str, Any] = field(default_factory=dict)

    def difference(self, system: str, model: str, reference: str) -> float:
        row = self.scores[system][model]
        return row[reference] - row[self.references[0]]

    def to_dict(self) -> Dict[str, Any]:
        first = self.references[0]
        return {"layout": layout("score-references"), "references": list(self.references),
                "systems": [{"name": s, "models": {m: {"references": {r: {"score": v, "difference": v - row[first]}
                                                                      for r, v in row.items()}}
                                                   for m, row in per.items()}}
                            for s, per in self.scores.items()],
                "reports": {r: rep.to_dict() for r, rep in self.reports.items()}, "settings": self.settings}


def score_references(corpus: Corpus, references: Sequence[str], systems: Optional[Sequence[str]] = None,
                     **options: Any) -> ScoresByReference:
    """Every system (default: every side that is no reference) scored against every reference (the gold's
    name or sides of ``corpus``; two or more, the first is the one differences are taken to) under every
    model, as :func:`ts_eval.models.evaluate.evaluate` scores against one gold (``options``: its)."""
    from ..models.evaluate import evaluate

    refs, names = reference_sides(corpus, references, systems)
    reports = {r: evaluate(under(corpus, r, names), **options) for r in refs}
    scores: Dict[str, Dict[str, Dict[str, float]]] = {}
    for s in names:
        per = {r: reports[r].main_scores(reports[r].system(s)) for r in refs}
        scores[s] = {m: {r: float(per[r][m]) for r in refs} for m in per[refs[0]]}
    return ScoresByReference(refs, names, reports, scores, {"references": refs, "systems": names,
                                                           "score": reports[refs[0]].settings})


# ---------------------------------------------------------------------------
# two systems compared under each reference


@dataclass
class PairByReference:
    """:func:`compare_by_reference`'s result: the two systems ``a`` and ``b`` under each reference.

    ``tests[reference][model]``: ``score_a``, ``score_b``, ``difference`` (B - A), ``p_value`` (None without
    permutations) and ``verdict`` (:data:`VERDICTS`); ``changes``: the models whose verdict differs between
    references; ``comparisons``: ``compare``'s comparison under each reference."""

    a: str
    b: str
    references: List[str]
    models: List[str]
    tests: Dict[str, Dict[str, Dict[str, Any]]]
    comparisons: Dict[str, Comparison]
    settings: Dict[str, Any] = field(default_factory=dict)

    @property
    def changes(self) -> List[str]:
        return [m for m in self.models if len({self.tests[r][m]["verdict"] for r in self.references}) > 1]

    def to_dict(self) -> Dict[str, Any]:
        return {"layout": layout("compare-references"), "a": self.a, "b": self.b, "references": list(self.references),
                "model_names": list(self.models), "tests": self.tests, "verdict_changes": self.changes,
                "comparisons": {r: c.to_dict() for r, c in self.comparisons.items()}, "settings": self.settings}


def pair_test(corpus: Corpus, a: str, b: str, models: Sequence[Any], permutations: int, seed: int,
              alpha: float) -> Dict[str, Dict[str, Any]]:
    """Model name -> score_a, score_b, difference, p_value, verdict of systems ``a`` and ``b`` against the
    gold of ``corpus`` (the paired approximate-randomisation test over sentences)."""
    from ..analysis.pairtest import bucket_pair_pvalues
    from ..ranking.sufficient import StatsMatrix, sentence_statistics

    data, cols = sentence_statistics(corpus, models, [a, b])
    sm = StatsMatrix([a, b], list(models), data, cols)
    with np.errstate(divide="ignore", invalid="ignore"):
        scores = sm.scores(sm.totals)
    p = bucket_pair_pvalues(sm, 0, 1, permutations, np.random.SeedSequence(seed)) if permutations else None
    out = {}
    for j, m in enumerate(models):
        sa, sb = float(scores[0, j]), float(scores[1, j])
        pv = None if p is None or np.isnan(p[j]) else float(p[j])
        verdict = "tie" if pv is None or pv >= alpha or sa == sb else ("B" if sb > sa else "A")
        out[m.name] = {"score_a": sa, "score_b": sb, "difference": sb - sa, "p_value": pv, "verdict": verdict}
    return out


def compare_by_reference(corpus: Corpus, references: Sequence[str], a: str, b: str, *,
                         test_models: Optional[Sequence[str]] = None, permutations: int = 1000, seed: int = 0,
                         alpha: float = 0.05, compare: Optional[Callable[..., Comparison]] = None,
                         **options: Any) -> PairByReference:
    """Systems ``a`` (baseline) and ``b`` compared under every reference (two or more, the gold's name or
    sides of ``corpus``): under every ranking model of ``test_models`` (default: ``rank``'s default models),
    B - A with the paired permutation test (``permutations``, ``seed``) and its verdict at ``alpha``; with
    ``compare`` (:func:`ts_eval.compare`, handed in so that this module stays below the comparison's floor),
    also its comparison of the two under each reference (``options``: its)."""
    from ..ranking.study import check_options
    from ..ranking.sufficient import resolve_models

    refs, names = reference_sides(corpus, references, [a, b])
    if a == b:
        raise OptionError("the pair is one system twice", option="pair", value=(a, b))
    check_options(permutations=permutations, seed=seed, alpha=alpha)
    chosen = resolve_models(test_models, corpus)
    tests, comparisons = {}, {}
    for r in refs:
        one = under(corpus, r, names)
        tests[r] = pair_test(one, a, b, chosen, permutations, seed, alpha)
        if compare is not None:
            comparisons[r] = compare(one, a, b, **options)
    settings = {"references": refs, "permutations": permutations, "seed": seed, "alpha": alpha}
    return PairByReference(a, b, refs, [m.name for m in chosen], tests, comparisons, settings)
