"""Ortmann's fair error types as models: ``score``'s fair report, and fair / weighted F1 for ranking.

Statistics (:func:`fair_stats`): per sentence and label the counts of the eight outcome
codes (TP, FP, FN, LE, BES, BEL, BEO, LBE) of :func:`ts_eval.fair.sentence_outcomes` on
the shared matcher's pairs.  The fair counts of :func:`ts_eval.fair.fair_errors` (and so the
report ``score`` shows) are their column sums, and every fair and weighted F, ``score``'s and
``rank``'s, is :func:`ts_eval.fair.scores.method_scores` of such sums; the traditional counts,
the confusion matrix and the order of the target labels are figures of their own (:func:`extras`).
"""
from __future__ import annotations

import dataclasses
from functools import partial
from typing import Any, Dict

import numpy as np

from ..fair.algorithm import fair_errors
from ..fair.scores import fair_report, method_scores
from ..fair.tally import _counted, _fair_columns
from ..fair.types import ERROR_TYPES, OUTCOME_NAMES, TRADITIONAL_TYPES, FairResult
from ..fair.weights import Weights, parse_weights
from .context import RANK_SETTINGS, Contributions, ScoreSettings, SystemData
from .registry import Display, ModelSpec, ResultColumn, Score, register
from .tally import Tally, Totals

N_CODES = len(OUTCOME_NAMES)


def fair_result(sd: SystemData, focus: str = "target", mode: str = "paper", per_sentence: bool = True) -> FairResult:
    """The fair errors of one system (computed once per focus and mode; ``per_sentence`` False: without
    the per-sentence counts, unless they are already known); the system's unplaced spans (generated
    strings found nowhere) are false positives (:func:`with_unplaced`)."""
    corpus = sd.cd.corpus
    whole = ("fair", focus, mode)
    if not per_sentence and whole in sd.cache:
        known: FairResult = sd.cache[whole]
        return known
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


def fair_stats(sd: SystemData, settings: ScoreSettings = RANK_SETTINGS, sentences: bool = True) -> np.ndarray:
    """(sentences, 8 * labels): per label the counts of the outcome codes under ``settings``' focus and mode
    (``rank``: the paper's mode, focus on the target); ``sentences`` False: (1, 8 * labels), their totals."""
    r = fair_result(sd, settings.focus, settings.fair_mode, per_sentence=sentences)
    if not sentences:     # the fair columns are the outcome codes with BE = BES + BEL + BEO among them
        return r.fair[:, [ERROR_TYPES.index(c) for c in OUTCOME_NAMES]].reshape(1, -1)
    if r.sentence_counts is None:
        raise ValueError("the fair result was computed without per-sentence counts")
    return r.sentence_counts.reshape(sd.cd.n_sentences, -1)


NONE = np.iinfo(np.int64).max     # FairResult.label_first of a label without gold spans


def extras(sd: SystemData, settings: ScoreSettings) -> Tally:
    """The fair figures beside the outcome counts: per label the traditional TP/FP/FN, the gold and system
    spans and the label's first gold span (its position among the gold spans); the confusion matrix (``_``
    last); the gold spans (what a later run's positions are counted after)."""
    r = fair_result(sd, settings.focus, settings.fair_mode, per_sentence=False)
    return Tally({"traditional": r.traditional, "confusion": r.confusion, "gold": r.gold_count,
                  "system": r.system_count, "first": np.where(r.label_first == NONE, -1, r.label_first),
                  "n_gold": np.array(len(sd.cd.corpus.gold), np.int64)},
                 {"traditional": ("L.", "sum"), "confusion": ("MM", "sum"), "gold": ("L", "sum"),
                  "system": ("L", "sum"), "first": ("L", "first:n_gold"), "n_gold": ("", "sum")})


def result(tally: Tally, totals: Totals) -> Dict[str, Any]:
    """``score``'s fair report (traditional, fair and weighted P/R/F, confusion, target statistics)."""
    st = totals.settings
    first = tally["first"]
    codes = tally["labels"].astype(np.int64)
    r = FairResult(list(totals.labels), st.focus, st.fair_mode, _fair_columns(codes), tally["traditional"],
                   tally["confusion"], tally["gold"], tally["system"], np.where(first < 0, NONE, first), None)
    return fair_report(r, weights=st.weights)


def fair_f1(x: np.ndarray, weights: Weights) -> np.ndarray:
    """Overall (label-summed) F1 of summed statistics, the error types weighted by ``weights`` (what
    ``score``'s ``weighted`` rows compute: :func:`ts_eval.fair.scores.method_scores`)."""
    per = np.asarray(x, float).reshape(np.shape(x)[:-1] + (-1, N_CODES)).sum(-2)
    counts = {name: per[..., k] for k, name in enumerate(OUTCOME_NAMES)}
    counts["BE"] = counts["BES"] + counts["BEL"] + counts["BEO"]
    return np.asarray(method_scores(counts, "weighted", weights)[2])


# ---------------------------------------------------------------------------
# analyze: the statistics as contributions of spans


def fair_split(sd: SystemData) -> Contributions:
    """Per label the eight outcome codes, each where the fair counting files it: a gold span's outcome
    under the gold span, a system span counted on its own (FP, or one that joined an already matched gold
    span) under the system span."""
    res = fair_result(sd)
    gold, system = sd.cd.corpus.gold, sd.spans
    lab, code, only = _counted(res.span_outcomes, gold, system, "target")
    ng = len(gold)
    cols = lab * N_CODES + code
    return Contributions.of([(0, np.arange(ng), cols[:ng], np.ones(ng)), (1, only, cols[ng:], np.ones(len(only)))],
                            N_CODES * sd.cd.n_labels)


def code_sums(block: np.ndarray) -> np.ndarray:
    """The eight outcome counts summed over labels (the counts ``analyze`` shows)."""
    sums: np.ndarray = block.reshape(block.shape[:-1] + (-1, N_CODES)).sum(-2)
    return sums


FAIR_COUNTS = ("tp", "fp", "le", "be", "bes", "bel", "beo", "lbe", "fn")   # the order the page lists them in
FAIR = register(ModelSpec(
    "fair", "Ortmann's fair error types: traditional, fair and weighted P/R/F", fair_stats, (0, N_CODES), (
        Score("fair-f1", "Fair-F1", partial(fair_f1, weights=parse_weights("eq5")),
              "Ortmann's fair F1, overall: LE, BE, LBE count half FP and half FN (eq. 5)",
              reported=("fair", "micro", "f")),
        Score("weighted-f1", "W-F1", partial(fair_f1, weights=parse_weights("eq7")),
              "Ortmann's weighted F1, overall, eq. 7 weights (a boundary error is half a TP; LE and "
              "LBE half FP, half FN); F1 is the same under eq. 6", reported=("weighted", "micro", "f"),
              settings=(("weights", "eq7"),))),
    result, extras, display=Display(
        "fair error types", (
            ResultColumn("fair_precision", "fair P", ("fair", "micro", "precision"), counts=FAIR_COUNTS),
            ResultColumn("fair_recall", "fair R", ("fair", "micro", "recall"), counts=FAIR_COUNTS),
            ResultColumn("fair_f", "fair F1", ("fair", "micro", "f"), counts=FAIR_COUNTS),
            ResultColumn("weighted_f", "wtd F1", ("weighted", "micro", "f"), counts=FAIR_COUNTS)),
        ResultColumn("fair", "fair F1", ("fair", "micro", "f")),
        ResultColumn("fair", "weighted F1", ("weighted", "micro", "f")),
        other_title=" and the fair model's weighted F1",
        gloss="fair counts Ortmann's labelling and boundary errors once each",
        tables=("fair-labels", "fair-bars"), details=("fair-confusion", "target-stats")),
    split=fair_split, counts=code_sums, count_names=tuple(c.lower() for c in OUTCOME_NAMES)))
