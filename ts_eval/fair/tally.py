"""Fair outcome events -> per-span outcomes -> counts: the one place fair errors are tallied.

:func:`sentence_outcomes` gives the per-sentence, per-label counts of the eight outcome
codes (the sufficient statistics of every fair score); the totals of a
:class:`~ts_eval.fair.types.FairResult` are its column sums.
"""
from __future__ import annotations

from typing import Sequence, Tuple, Union

import numpy as np

from ..core.corpus import Corpus, SpanSet
from .types import (
    BEL,
    BEO,
    BES,
    BOTH,
    ERROR_TYPES,
    FN,
    FP,
    GOLD_ONLY,
    LBE,
    LE,
    OUTCOME_NAMES,
    SYSTEM_ONLY,
    TP,
    FairResult,
    SpanOutcomes,
)

N_CODES = len(OUTCOME_NAMES)


def _sent_offsets(sentences: Union[Corpus, np.ndarray, Sequence[int]]) -> np.ndarray:
    """Sentence token offsets from a Corpus or the offsets themselves."""
    if isinstance(sentences, Corpus):
        return np.asarray(sentences.sent_offsets, np.int64)
    return np.asarray(sentences, np.int64)


def _sentence_of(sentences: Union[Corpus, np.ndarray, Sequence[int]], starts: np.ndarray) -> np.ndarray:
    """The sentence of each span start (the Corpus's own map when there is one)."""
    if isinstance(sentences, Corpus):
        return sentences.sentence_of(starts)
    return np.searchsorted(_sent_offsets(sentences), starts, side="right") - 1


def _counted(outcomes: SpanOutcomes, gold: SpanSet, system: SpanSet,
             focus: str) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The counting rule, once: every counted outcome as (label, code), gold spans first,
    then the system spans counted on their own, and the indices of those system spans.

    Every error is counted once: each gold span's outcome, plus the outcome of each
    system span that was not counted together with a gold span (FP, or a span that
    joined an already matched gold span).  It is filed under the label the reference
    files it under: the system label for FP (and for LE and LBE when ``focus`` is
    ``system``), the gold label otherwise.
    """
    g_code = np.asarray(outcomes.gold_type, np.int64)
    g_lab = gold.label.astype(np.int64)
    only = np.flatnonzero(~np.asarray(outcomes.system_shared, bool))
    s_code = np.asarray(outcomes.system_type, np.int64)[only]
    s_part = np.asarray(outcomes.system_partner, np.int64)[only]
    use = s_code == FP
    if focus == "system":
        by_sys = (g_code == LE) | (g_code == LBE)
        g_part = np.asarray(outcomes.gold_partner, np.int64)
        g_lab = np.where(by_sys, system.label[np.maximum(g_part, 0)] if len(system) else 0, g_lab)
        use |= (s_code == LE) | (s_code == LBE)
    s_lab = np.where(use, system.label[only], gold.label[np.maximum(s_part, 0)] if len(gold) else 0)
    return np.concatenate((g_lab, s_lab.astype(np.int64))), np.concatenate((g_code, s_code)), only


def sentence_outcomes(outcomes: SpanOutcomes, gold: SpanSet, system: SpanSet, n_labels: int,
                      sentences: Union[Corpus, np.ndarray, Sequence[int]], focus: str = "target") -> np.ndarray:
    """(sentences, labels, 8) int64: per sentence and label the number of each outcome code
    (columns in :data:`OUTCOME_NAMES` order: TP, FP, FN, LE, BES, BEL, BEO, LBE), each
    filed under the sentence of its span.

    These are the sufficient statistics of every fair score: their column sums are
    :attr:`FairResult.fair` (without the BE column), which :func:`_tally` builds from them.
    """
    offsets = _sent_offsets(sentences)
    n_sent = max(len(offsets) - 1, 0)
    lab, code, only = _counted(outcomes, gold, system, focus)
    sent = np.concatenate((_sentence_of(sentences, gold.start), _sentence_of(sentences, system.start[only])))
    key = (sent * n_labels + lab) * N_CODES + code
    size = n_sent * n_labels * N_CODES
    if len(key) and (int(key.min()) < 0 or int(key.max()) >= size):
        raise ValueError("a span lies outside the sentences or has a label beyond the label list")
    return np.bincount(key, minlength=size).reshape(n_sent, n_labels, N_CODES)


def label_outcomes(outcomes: SpanOutcomes, gold: SpanSet, system: SpanSet, n_labels: int,
                   focus: str = "target") -> np.ndarray:
    """(labels, 8) int64: the column sums of :func:`sentence_outcomes`, counted without the sentences."""
    lab, code, _ = _counted(outcomes, gold, system, focus)
    return np.bincount(lab * N_CODES + code, minlength=n_labels * N_CODES)[:n_labels * N_CODES].reshape(
        n_labels, N_CODES).astype(np.int64)


def outcomes_of_events(ng: int, ns: int, eg: np.ndarray, es: np.ndarray, ec: np.ndarray,
                       ek: np.ndarray) -> SpanOutcomes:
    """Events -> each span's outcome, counterpart and whether the event counted both spans."""
    gt = np.full(ng, -1, np.int8)
    gp = np.full(ng, -1, np.int64)
    gsh = np.zeros(ng, bool)
    st = np.full(ns, -1, np.int8)
    sp = np.full(ns, -1, np.int64)
    ssh = np.zeros(ns, bool)
    gm = (ek == BOTH) | (ek == GOLD_ONLY)
    gt[eg[gm]] = ec[gm]
    gp[eg[gm]] = es[gm]
    gsh[eg[gm]] = ek[gm] == BOTH
    sm = (ek == BOTH) | (ek == SYSTEM_ONLY)
    st[es[sm]] = ec[sm]
    sp[es[sm]] = eg[sm]
    ssh[es[sm]] = ek[sm] == BOTH
    if (gt < 0).any() or (st < 0).any() or int(gm.sum()) != ng or int(sm.sum()) != ns:
        raise AssertionError("fair_errors: a span was not counted exactly once (internal error)")
    return SpanOutcomes(gt, gp, gsh, st, sp, ssh)


def _fair_columns(c8: np.ndarray) -> np.ndarray:
    """(L, 8) outcome counts -> (L, 9) columns of ERROR_TYPES (BE = BES + BEL + BEO)."""
    fair = np.zeros((len(c8), len(ERROR_TYPES)), np.int64)
    fair[:, 0], fair[:, 1], fair[:, 2], fair[:, 3] = c8[:, TP], c8[:, FP], c8[:, FN], c8[:, LE]
    fair[:, 5], fair[:, 6], fair[:, 7], fair[:, 8] = c8[:, BES], c8[:, BEL], c8[:, BEO], c8[:, LBE]
    fair[:, 4] = fair[:, 5] + fair[:, 6] + fair[:, 7]
    return fair


def _tally(gold: SpanSet, system: SpanSet, labels: Sequence[str], focus: str, mode: str,
           sentences: Union[Corpus, np.ndarray, Sequence[int]],
           eg: np.ndarray, es: np.ndarray, ec: np.ndarray, ek: np.ndarray,
           trad_g: np.ndarray, trad_s: np.ndarray, g_order: np.ndarray, per_sentence: bool = True) -> FairResult:
    """Events -> per-span outcomes, per-sentence (unless ``per_sentence`` is False) and per-label counts
    (the label counts are the column sums of the sentence counts), confusion matrix."""
    L = len(labels)
    ng, ns = len(gold), len(system)
    outcomes = outcomes_of_events(ng, ns, eg, es, ec, ek)
    sentence_counts = sentence_outcomes(outcomes, gold, system, L, sentences, focus) if per_sentence else None
    fair = _fair_columns(sentence_counts.sum(axis=0) if sentence_counts is not None
                         else label_outcomes(outcomes, gold, system, L, focus))
    glab = np.where(eg >= 0, gold.label[np.maximum(eg, 0)] if ng else 0, L).astype(np.int64)
    slab = np.where(es >= 0, system.label[np.maximum(es, 0)] if ns else 0, L).astype(np.int64)
    errs = ec != TP
    conf = np.bincount(glab[errs] * (L + 1) + slab[errs], minlength=(L + 1) ** 2).reshape(L + 1, L + 1)

    trad = np.zeros((L, 3), np.int64)
    trad[:, 0] = np.bincount(gold.label[trad_g], minlength=L)[:L]
    trad[:, 1] = np.bincount(system.label[~trad_s], minlength=L)[:L]
    trad[:, 2] = np.bincount(gold.label[~trad_g], minlength=L)[:L]

    gold_count = np.bincount(gold.label, minlength=L)[:L].astype(np.int64)
    system_count = np.bincount(system.label, minlength=L)[:L].astype(np.int64)
    first = np.full(L, np.iinfo(np.int64).max, np.int64)
    if ng:
        np.minimum.at(first, gold.label.astype(np.int64), g_order)
    return FairResult(list(labels), focus, mode, fair, trad, conf, gold_count, system_count, first, outcomes,
                      sentence_counts)
