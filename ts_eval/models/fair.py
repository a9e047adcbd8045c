"""Ortmann's fair error types as models: ``score``'s fair report, and fair / weighted F1 for ranking.

Statistics (:func:`fair_stats`): per sentence and label the counts of the eight outcome
codes (TP, FP, FN, LE, BES, BEL, BEO, LBE) of :func:`ts_eval.fair.sentence_outcomes` on
the shared matcher's pairs.  The totals of :func:`ts_eval.fair.fair_errors` (and so the
report ``score`` shows) are their column sums.
"""
from __future__ import annotations

import dataclasses
from functools import partial
from typing import Any, Dict, Mapping

import numpy as np

from ..core import measures
from ..fair.algorithm import fair_errors
from ..fair.scores import fair_report
from ..fair.types import ERROR_TYPES, OUTCOME_NAMES, TRADITIONAL_TYPES, FairResult
from ..fair.weights import parse_weights
from .context import SystemData
from .registry import Family, Model, ScoreSettings, register, register_family
from .tally import Tally, Totals

N_CODES = len(OUTCOME_NAMES)


def fair_result(sd: SystemData, focus: str = "target", mode: str = "paper", per_sentence: bool = True) -> FairResult:
    """The fair errors of one system (computed once per focus and mode; ``per_sentence`` False: without
    the per-sentence counts, unless they are already known); the system's unplaced spans (generated
    strings found nowhere) are false positives (:func:`with_unplaced`)."""
    corpus = sd.cd.corpus
    whole = ("fair", focus, mode)
    if not per_sentence and whole in sd.cache:
        return sd.cache[whole]
    return sd.cached(whole if per_sentence else whole + ("totals",), lambda: with_unplaced(fair_errors(
        corpus.gold, sd.spans, sd.pairs, corpus.labels, corpus, focus=focus, mode=mode, per_sentence=per_sentence),
        sd))


def with_unplaced(result: FairResult, sd: SystemData) -> FairResult:
    """``result`` with each unplaced span of the system counted as an FP of its label: in the fair
    and traditional counts, the confusion matrix (gold ``_``, system its label), the system's span
    counts and the per-sentence outcome counts."""
    u = sd.unplaced
    if u is None:
        return result
    n = len(result.labels)
    per_label = np.bincount(u.label, minlength=n)[:n]
    fair, trad, conf = result.fair.copy(), result.traditional.copy(), result.confusion.copy()
    fair[:, ERROR_TYPES.index("FP")] += per_label
    trad[:, TRADITIONAL_TYPES.index("FP")] += per_label
    conf[n, :n] += per_label
    sentences = result.sentence_counts
    if sentences is not None:
        sentences = sentences.copy()
        sentences[:, :, OUTCOME_NAMES.index("FP")] += sd.unplaced_counts().astype(sentences.dtype)
    return dataclasses.replace(result, fair=fair, traditional=trad, confusion=conf,
                               system_count=result.system_count + per_label, sentence_counts=sentences)


def fair_stats(sd: SystemData, focus: str = "target", mode: str = "paper") -> np.ndarray:
    """(sentences, 8 * labels): per label the counts of the outcome codes (the paper's mode, focus on the target)."""
    counts = fair_result(sd, focus, mode).sentence_counts
    if counts is None:
        raise ValueError("the fair result was computed without per-sentence counts")
    return counts.reshape(sd.cd.n_sentences, -1)


#: the fair family's tally: per label the error-type columns, the traditional TP/FP/FN, the gold and
#: system spans and the label's first gold span (its position among the gold spans); the confusion
#: matrix (``_`` last); the gold spans (what a later run's positions are counted after)
LAYOUT = {"fair": ("L.", "sum"), "traditional": ("L.", "sum"), "confusion": ("MM", "sum"),
          "gold": ("L", "sum"), "system": ("L", "sum"), "first": ("L", "first:n_gold"), "n_gold": ("", "sum")}
NONE = np.iinfo(np.int64).max     # FairResult.label_first of a label without gold spans


def count(sd: SystemData, settings: ScoreSettings) -> Tally:
    """``score``'s fair counts of one system (without the per-sentence table)."""
    r = fair_result(sd, settings.focus, settings.fair_mode, per_sentence=False)
    return Tally({"fair": r.fair, "traditional": r.traditional, "confusion": r.confusion, "gold": r.gold_count,
                  "system": r.system_count, "first": np.where(r.label_first == NONE, -1, r.label_first),
                  "n_gold": np.array(len(sd.cd.corpus.gold), np.int64)}, LAYOUT)


def result(tally: Tally, totals: Totals) -> Dict[str, Any]:
    """``score``'s fair report (traditional, fair and weighted P/R/F, confusion, target statistics)."""
    st = totals.settings
    first = tally["first"]
    r = FairResult(list(totals.labels), st.focus, st.fair_mode, tally["fair"], tally["traditional"],
                   tally["confusion"], tally["gold"], tally["system"], np.where(first < 0, NONE, first), None)
    return fair_report(r, weights=st.weights)


def weight_matrix(weights: Mapping[str, Mapping[str, float]]) -> np.ndarray:
    """(8 outcomes, 3) weights of TP, FP, FN for each outcome code (BE weights cover BES/BEL/BEO)."""
    w = np.zeros((N_CODES, 3))
    for c, name in enumerate(OUTCOME_NAMES):
        terms = weights.get(name)
        if terms is None and name in ("BES", "BEL", "BEO"):
            terms = weights.get("BE")
        if terms:
            w[c] = [terms.get("TP", 0), terms.get("FP", 0), terms.get("FN", 0)]
    return w


def fair_f1(x: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Overall (label-summed) F1 of weighted fair counts: TP, FP, FN = counts @ weights."""
    per = np.asarray(x, float).reshape(np.shape(x)[:-1] + (-1, N_CODES)).sum(-2)
    tp, fp, fn = np.moveaxis(per @ weights, -1, 0)
    return np.asarray(measures.prf(tp, fp, fn)[2])


register_family(Family("fair", count, result, "Ortmann's fair error types: traditional, fair and weighted P/R/F"))
register(Model("fair-f1", "Fair-F1", fair_stats, partial(fair_f1, weights=weight_matrix(parse_weights("eq5"))),
               "Ortmann's fair F1, overall: LE, BE, LBE count half FP and half FN (eq. 5)", columns=(0, N_CODES)))
register(Model("weighted-f1", "W-F1", fair_stats, partial(fair_f1, weights=weight_matrix(parse_weights("eq7"))),
               "Ortmann's weighted F1, overall, eq. 7 weights (a boundary error is half a TP; LE and "
               "LBE half FP, half FN); F1 is the same under eq. 6", columns=(0, N_CODES)))
