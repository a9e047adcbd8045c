"""Token-and-separator (TS) models (Esuli & Sebastiani): TS and token-only T F-scores, kappa.

A sentence of n tokens has 2n-1 units: n tokens and n-1 separators (none crosses a
sentence boundary).  A span over tokens b..e covers tokens b..e and the e-b separators
between them.  Every label has its own vector over all units, so a unit may carry
several labels; spans of one label that overlap are merged first (a unit is positive
for a label once, however many of its spans cover it).

The counts are read from the shared matcher's pairs of the merged spans: merged spans
of one label are disjoint, so the tokens shared by same-label pairs are exactly the TP
tokens, and a pair sharing t tokens shares t-1 separators.  Counts are kept apart for
tokens and separators, so any separator weight w gives the weighted table
TP = TP_tok + w * TP_sep (w = 0 is the token-only T model) without recounting.

Statistics (:func:`ts_stats`): per sentence the tokens, the separators, then per label
the token and separator TP, FP, FN.  ``score``'s TS result is built from their column
sums with the table ``rank``'s scores read (:func:`ts_table`); the multi-class confusion
matrix (for the multi-class kappa) is its own corpus-level figure from the same pairs
(:func:`confusion`).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Dict, Optional, Sequence, SupportsFloat, Tuple

import numpy as np

from ..core import measures
from ..core.corpus import Corpus, SpanSet
from ..core.matching import Pairs, match
from ..core.units import merge_overlaps
from .context import RANK_SETTINGS, Contributions, ScoreSettings, SystemData
from .registry import Display, ModelSpec, ResultColumn, Score, register
from .tally import Tally, Totals, over_labels

# ---------------------------------------------------------------------------
# counting (the one place TS units are counted)


def unit_counts(g: SpanSet, s: SpanSet, p: Pairs, gkey: np.ndarray, skey: np.ndarray, size: int) -> np.ndarray:
    """(size, 6): per bincount key (a label, or sentence * labels + label) the token and separator TP, FP,
    FN of merged spans ``g`` and ``s`` and their pairs ``p = match(g, s)``; ``gkey`` and ``skey`` are the
    spans' keys.  One ``bincount`` of the TP, system and gold unit counts; FP and FN are then system and
    gold units minus TP: the one place TS units are counted."""
    same = p.same_label
    shared = p.overlap[same].astype(float)
    glen, slen = (g.last - g.start + 1).astype(float), (s.last - s.start + 1).astype(float)
    pkey = 6 * gkey[p.gold[same]]
    gbase, sbase = 6 * gkey, 6 * skey
    idx = np.concatenate([pkey, pkey + 3, sbase + 1, sbase + 4, gbase + 2, gbase + 5])
    w = np.concatenate([shared, shared - 1, slen, slen - 1, glen, glen - 1])
    out = np.bincount(idx, weights=w, minlength=size * 6)[:size * 6].reshape(size, 6)
    out[:, 1:3] -= out[:, 0:1]     # system, gold tokens -> FP, FN
    out[:, 4:6] -= out[:, 3:4]     # the same for separators
    return out


def sentence_counts(corpus: Corpus, g: SpanSet, s: SpanSet, p: Pairs, n_labels: int,
                    keys: Optional[Tuple[np.ndarray, np.ndarray]] = None) -> np.ndarray:
    """(sentences, 2 + 6 * labels): tokens, separators, then per label the token and separator
    TP, FP, FN (:func:`unit_counts` per sentence and label); ``g`` and ``s`` are merged per label
    and ``p`` is ``match(g, s)`` (``keys``: their sentence * labels + label, when already known)."""
    S = corpus.n_sentences
    if keys is None:
        gkey, skey = (corpus.sentence_of(x.start) * n_labels + x.label.astype(np.int64) for x in (g, s))
    else:
        gkey, skey = keys
    per = unit_counts(g, s, p, gkey, skey, S * n_labels).reshape(S, 6 * n_labels)
    n = np.diff(corpus.sent_offsets).astype(float)
    return np.column_stack([n, n - 1, per])


def _single_label(spans: SpanSet) -> bool:
    """No unit carries two labels: the (merged) spans are pairwise token-disjoint."""
    if len(spans) < 2:
        return True
    order = np.argsort(spans.start, kind="stable")
    run = np.maximum.accumulate(spans.last[order])
    return bool(np.all(spans.start[order][1:] > run[:-1]))


def confusion(corpus: Corpus, g: SpanSet, s: SpanSet, p: Pairs,
              n_labels: int) -> Tuple[Optional[np.ndarray], Optional[np.ndarray]]:
    """Token and separator (labels+1)^2 confusion matrices (row gold, column system, 0 =
    outside), or (None, None) when a unit carries two labels on one side."""
    return unit_confusion(g, s, p, n_labels, corpus.n_tokens, corpus.n_separators)


def unit_confusion(g: SpanSet, s: SpanSet, p: Pairs, n_labels: int, n_tokens: int,
                   n_separators: int) -> Tuple[Optional[np.ndarray], Optional[np.ndarray]]:
    """:func:`confusion` of spans over ``n_tokens`` tokens and ``n_separators`` separators."""
    if not (_single_label(g) and _single_label(s)):
        return None, None
    L1 = n_labels + 1
    key = (g.label[p.gold].astype(np.int64) + 1) * L1 + s.label[p.system].astype(np.int64) + 1
    shared = p.overlap.astype(float)
    glen, slen = (g.last - g.start + 1).astype(float), (s.last - s.start + 1).astype(float)
    out = []
    for d, n_units in ((0.0, n_tokens), (1.0, n_separators)):
        c = np.bincount(key, weights=shared - d, minlength=L1 * L1)[:L1 * L1].reshape(L1, L1)
        c[1:, 0] = np.bincount(g.label, weights=glen - d, minlength=n_labels)[:n_labels] - c[1:, 1:].sum(1)
        c[0, 1:] = np.bincount(s.label, weights=slen - d, minlength=n_labels)[:n_labels] - c[1:, 1:].sum(0)
        c[0, 0] = n_units - c.sum()
        out.append(c)
    return out[0], out[1]


@dataclass(eq=False)   # (arrays: a field-wise == has no truth value)
class TSCounts:
    """Per-label TP/FP/FN over tokens and over separators (unweighted unit counts)."""

    tok: np.ndarray       # shape (labels, 3): tp, fp, fn over tokens
    sep: np.ndarray       # shape (labels, 3): tp, fp, fn over separators
    n_tokens: int
    n_separators: int
    confusion: Optional[np.ndarray] = None  # (labels+1)^2 unit counts, row gold, col system; 0 = outside
    confusion_sep: Optional[np.ndarray] = None

    @classmethod
    def from_sums(cls, sums: np.ndarray, conf: Tuple[Optional[np.ndarray], Optional[np.ndarray]] = (None, None)
                  ) -> TSCounts:
        """The counts of column sums of :func:`sentence_counts`."""
        per = np.asarray(sums, float)[2:].reshape(-1, 6)
        return cls(per[:, :3].copy(), per[:, 3:].copy(), int(sums[0]), int(sums[1]), *conf)

    @property
    def sums(self) -> np.ndarray:
        """The column sums of :func:`sentence_counts` these counts are."""
        return np.concatenate(([self.n_tokens, self.n_separators], np.hstack([self.tok, self.sep]).reshape(-1)))

    def micro(self, separator_weight: float = 1.0) -> Tuple[measures.Values, measures.Values, measures.Values,
                                                            measures.Values]:
        """Micro tp, fp, fn, tn over the labels present for this system (measures.micro_table)."""
        tp, fp, fn, _ = ts_table(self.sums, separator_weight)
        return measures.micro_table(tp, fp, fn, ts_units(self.sums, separator_weight))

    def weighted_confusion(self, separator_weight: float = 1.0) -> Optional[np.ndarray]:
        if self.confusion is None or self.confusion_sep is None:
            return None
        return self.confusion + float(separator_weight) * self.confusion_sep


def ts_counts(corpus: Corpus, gold: SpanSet, system: SpanSet, n_labels: Optional[int] = None) -> TSCounts:
    """Per-label token and separator counts of one system against gold (column sums of
    :func:`sentence_counts`, with the confusion matrices)."""
    k = len(corpus.labels) if n_labels is None else n_labels
    g, s = merge_overlaps(gold), merge_overlaps(system)
    p = match(g, s)
    return TSCounts.from_sums(sentence_counts(corpus, g, s, p, k).sum(0), confusion(corpus, g, s, p, k))


def ts_totals(gold: SpanSet, system: SpanSet, n_labels: int, n_tokens: int, n_separators: int) -> TSCounts:
    """:func:`ts_counts` of spans that cross no sentence boundary over ``n_tokens`` tokens and ``n_separators``
    separators, counted per label at once (no per-sentence table: the same whole numbers)."""
    g, s = merge_overlaps(gold), merge_overlaps(system)
    p = match(g, s)
    units = unit_counts(g, s, p, g.label.astype(np.int64), s.label.astype(np.int64), n_labels)
    sums = np.concatenate(([n_tokens, n_separators], units.reshape(-1)))
    return TSCounts.from_sums(sums, unit_confusion(g, s, p, n_labels, n_tokens, n_separators))


def ts_stats(sd: SystemData, settings: ScoreSettings = RANK_SETTINGS, sentences: bool = True) -> np.ndarray:
    """The TS statistics of one system: :func:`sentence_counts` of its merged spans (any separator weight
    is applied when scoring); ``sentences`` False: (1, k), their totals (counted per label).  The system's
    unplaced spans (generated strings found nowhere, :class:`~ts_eval.core.corpus.Unplaced`) add their own
    units: t tokens and t - 1 separators each, false positives of their label, in their sentence."""
    corpus, L = sd.cd.corpus, sd.cd.n_labels
    g, s, p = sd.merged
    if sentences:
        out = sentence_counts(corpus, g, s, p, L, sd.merged_keys)
    else:
        units = unit_counts(g, s, p, g.label.astype(np.int64), s.label.astype(np.int64), L)
        out = np.concatenate(([corpus.n_tokens, corpus.n_separators], units.reshape(-1))).astype(float)[None]
    u = sd.unplaced
    if u is not None:
        size = len(out) * L
        key = u.label.astype(np.int64) + (u.sentence * L if sentences else 0)
        toks = np.bincount(key, weights=u.tokens.astype(float), minlength=size)[:size].reshape(len(out), L)
        seps = toks - np.bincount(key, minlength=size)[:size].reshape(len(out), L)
        out[:, 0] += toks.sum(1)
        out[:, 1] += seps.sum(1)
        per = out[:, 2:].reshape(len(out), L, 6)
        per[..., 1] += toks
        per[..., 4] += seps
    return out


def _with_unplaced(conf: Tuple[Optional[np.ndarray], Optional[np.ndarray]], sd: SystemData
                   ) -> Tuple[Optional[np.ndarray], Optional[np.ndarray]]:
    """The confusion matrices with the unplaced spans' units: gold outside, system their label."""
    u = sd.unplaced
    if u is None or conf[0] is None or conf[1] is None:
        return conf
    n = sd.cd.n_labels
    toks = np.bincount(u.label, weights=u.tokens.astype(float), minlength=n)[:n]
    spans = np.bincount(u.label, minlength=n)[:n].astype(float)
    tok, sep = conf[0].astype(float), conf[1].astype(float)    # (np.bincount of no pairs gives integers)
    tok[0, 1:] += toks
    sep[0, 1:] += toks - spans
    return tok, sep


def _one_label(spans: SpanSet) -> SpanSet:
    return SpanSet(spans.start, spans.last, np.zeros(len(spans), np.int32))


def extras(sd: SystemData, settings: ScoreSettings) -> Tally:
    """TS figures that are not sums over sentences: the token and separator confusion matrices (outside
    first) unless some run had a unit with two labels (``multi``); the all-labels-as-one row's six counts."""
    corpus, L = sd.cd.corpus, sd.cd.n_labels
    conf = _with_unplaced(confusion(corpus, *sd.merged, L), sd)
    zero = np.zeros((L + 1, L + 1))
    everything = np.zeros(6)
    if settings.all_labels_row:
        g1, s1 = merge_overlaps(_one_label(corpus.gold)), merge_overlaps(_one_label(sd.spans))
        none_g, none_s = np.zeros(len(g1), np.int64), np.zeros(len(s1), np.int64)
        everything = unit_counts(g1, s1, match(g1, s1), none_g, none_s, 1)[0]
    return Tally({"confusion": zero if conf[0] is None else conf[0],
                  "confusion_sep": zero if conf[1] is None else conf[1],
                  "multi": np.array(int(conf[0] is None)), "all_labels": everything},
                 {"confusion": ("OO", "sum"), "confusion_sep": ("OO", "sum"), "multi": ("", "sum"),
                  "all_labels": (".", "sum")})


# ---------------------------------------------------------------------------
# scores of summed statistics: score's full dict, rank's single numbers


def ts_table(x: np.ndarray, separator_weight: float = 1.0) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per-label weighted tp, fp, fn, tn (each (..., labels)) from summed TS statistics."""
    pos = _ts_positives(x, separator_weight)
    tn = ts_units(x, separator_weight)[..., None] - pos.sum(-1)
    return pos[..., 0], pos[..., 1], pos[..., 2], tn


def _ts_positives(x: np.ndarray, separator_weight: float) -> np.ndarray:
    """(..., labels, 3): per-label weighted tp, fp, fn of summed TS statistics (:func:`ts_table` without tn)."""
    x = np.asarray(x, float)
    per = x[..., 2:].reshape(x.shape[:-1] + (-1, 6))
    w = float(separator_weight)
    out: np.ndarray = per[..., :3] + per[..., 3:] if w == 1.0 else per[..., :3] + w * per[..., 3:]   # (x * 1.0 is x)
    return out


def ts_units(x: np.ndarray, separator_weight: float = 1.0) -> np.ndarray:
    """Weighted number of units (...,) of summed TS statistics: tokens + w * separators."""
    x = np.asarray(x, float)
    return x[..., 0] + float(separator_weight) * x[..., 1]


def ts_f1(x: np.ndarray, separator_weight: float = 1.0, average: str = "macro", beta: float = 1.0) -> np.ndarray:
    """TS (T with weight 0) F-beta of summed statistics, micro or macro over the present labels."""
    pos = _ts_positives(x, separator_weight)        # tn is not read
    tp, fp, fn = pos[..., 0], pos[..., 1], pos[..., 2]
    if average == "micro":
        tps, fps, fns = over_labels(pos)
        return np.asarray(measures.fbeta(tps, fps, fns, beta))
    return measures.masked_mean(measures.fbeta(tp, fp, fn, beta), (tp + fp + fn) > 0)


def ts_kappa(x: np.ndarray, separator_weight: float = 1.0, average: str = "macro") -> np.ndarray:
    """TS Cohen's kappa of summed statistics: of the micro table, or the mean over present labels."""
    tp, fp, fn, tn = ts_table(x, separator_weight)
    if average == "micro":   # over the labels present in the (resampled) sums, as score's micro table
        return np.asarray(measures.kappa(*measures.micro_table(tp, fp, fn, ts_units(x, separator_weight))))
    return measures.masked_mean(np.asarray(measures.kappa(tp, fp, fn, tn)), (tp + fp + fn) > 0)


def _table_dict(tp: SupportsFloat, fp: SupportsFloat, fn: SupportsFloat, tn: SupportsFloat) -> Dict[str, float]:
    return {"tp": float(tp), "fp": float(fp), "fn": float(fn), "tn": float(tn)}


def ts_result(counts: TSCounts, labels: Sequence[str], separator_weight: float, beta: float,
              extra_row: Optional[TSCounts] = None) -> Dict[str, Any]:
    """Per-label, micro and macro counts and scores (and the multi-class kappa) of TS counts."""
    tp, fp, fn, tn = ts_table(counts.sums, separator_weight)
    sc = measures.scores(tp, fp, fn, tn, beta)
    present = (tp + fp + fn) > 0
    rows = {}
    for k, lab in enumerate(labels):
        rows[lab] = {
            **_table_dict(tp[k], fp[k], fn[k], tn[k]),
            "token": dict(zip(("tp", "fp", "fn"), counts.tok[k].astype(int).tolist())),
            "separator": dict(zip(("tp", "fp", "fn"), counts.sep[k].astype(int).tolist())),
            **{name: float(v[k]) for name, v in sc.items()},
            "present": bool(present[k]),
        }
    tot = counts.micro(separator_weight)
    micro = {**_table_dict(*tot), **{k: float(v) for k, v in measures.scores(*tot, beta=beta).items()}}
    out: Dict[str, Any] = {
        "labels": rows,
        "micro": micro,
        "macro": {**measures.macro(sc, present), "labels_averaged": int(present.sum())},
    }
    conf = counts.weighted_confusion(separator_weight)
    out["multiclass_kappa"] = measures.multiclass_kappa(conf) if conf is not None else None
    out["confusion"] = confusion_dict(conf, labels) if conf is not None else None
    if extra_row is not None:
        tp, fp, fn, tn = (a[0] for a in ts_table(extra_row.sums, separator_weight))
        et = (tp, fp, fn, tn)
        out["all_labels"] = {**_table_dict(*et), **{k: float(v) for k, v in measures.scores(*et, beta=beta).items()}}
    return out


OUTSIDE = "O"   # the confusion matrix's name for units outside every span


def confusion_dict(conf: np.ndarray, labels: Sequence[str]) -> Dict[str, Dict[str, float]]:
    """``{gold label: {system label: units}}`` of a weighted (labels+1)^2 confusion matrix (tokens +
    separator weight x separators), ``O`` (outside) first, then the labels with units on either side."""
    used = [0] + [k + 1 for k in range(len(labels)) if conf[k + 1].any() or conf[:, k + 1].any()]
    outside = OUTSIDE if OUTSIDE not in labels else "(outside)"
    names = [outside] + list(labels)
    return {names[i]: {names[j]: float(conf[i, j]) for j in used} for i in used}


def result(tally: Tally, totals: Totals) -> Dict[str, Any]:
    """``score``'s TS result of one system from its tally over the corpus."""
    st = totals.settings
    conf = (None, None) if int(tally["multi"]) else (tally["confusion"], tally["confusion_sep"])
    extra = TSCounts.from_sums(np.concatenate((tally["whole"], tally["all_labels"]))) if st.all_labels_row else None
    return ts_result(TSCounts.from_sums(tally.sums, conf), totals.labels, st.separator_weight, st.beta, extra)


# ---------------------------------------------------------------------------
# analyze: the statistics as contributions of spans


def _representatives(original: SpanSet, merged: SpanSet) -> np.ndarray:
    """For each merged span, the original span of its label that starts where it starts and reaches
    furthest (the one it grew from)."""
    if merged is original:
        return np.arange(len(original))
    order = np.lexsort((-original.last, original.start, original.label))
    lab, st = original.label[order].astype(np.int64), original.start[order]
    big = int(max(int(original.start.max(initial=0)), int(merged.start.max(initial=0)))) + 1
    keys = lab * big + st
    pos = np.searchsorted(keys, merged.label.astype(np.int64) * big + merged.start, side="left")
    reps: np.ndarray = order[pos]
    return reps


def ts_split(sd: SystemData) -> Contributions:
    """Per label token and separator TP, FP, FN: TP and FN units of a (merged) gold span, FP units of a
    (merged) system span (a TP unit is counted where the gold span falls); the first two columns
    (tokens, separators of the sentence) belong to no span, so models that read the number of units
    (kappa) have no value for buckets of spans."""
    g, s, p = sd.merged
    same = p.same_label
    shared = np.bincount(p.gold[same], weights=p.overlap[same], minlength=len(g))[:len(g)]
    shared_sep = np.bincount(p.gold[same], weights=p.overlap[same] - 1, minlength=len(g))[:len(g)]
    s_shared = np.bincount(p.system[same], weights=p.overlap[same], minlength=len(s))[:len(s)]
    s_shared_sep = np.bincount(p.system[same], weights=p.overlap[same] - 1, minlength=len(s))[:len(s)]
    glen, slen = (g.last - g.start + 1).astype(float), (s.last - s.start + 1).astype(float)
    gi = _representatives(sd.cd.corpus.gold, g)
    si = _representatives(sd.spans, s)
    gb = 2 + 6 * g.label.astype(np.int64)
    sb = 2 + 6 * s.label.astype(np.int64)
    return Contributions.of([(0, gi, gb, shared), (0, gi, gb + 3, shared_sep), (0, gi, gb + 2, glen - shared),
                             (0, gi, gb + 5, glen - 1 - shared_sep),
                             (1, si, sb + 1, slen - s_shared), (1, si, sb + 4, slen - 1 - s_shared_sep)],
                            2 + 6 * sd.cd.n_labels, whole=(0, 1))


def unit_sums(block: np.ndarray) -> np.ndarray:
    """TP, FP, FN units (tokens and separators), summed over labels: the counts ``analyze`` shows."""
    per = block[..., 2:].reshape(block.shape[:-1] + (-1, 6)).sum(-2)
    sums: np.ndarray = per[..., :3] + per[..., 3:]
    return sums


# ---------------------------------------------------------------------------
# the declaration


def _score(name: str, title: str, fn: Any, weight: float, average: str, what: str, description: str) -> Score:
    return Score(name, title, partial(fn, separator_weight=weight, average=average), description,
                 reported=(average, what), settings=(("separator_weight", weight),) if weight != 1.0 else ())


TS = register(ModelSpec(
    "ts", "token & separator units (Esuli & Sebastiani)", ts_stats, (2, 6), (
        _score("ts-f1-micro", "TS-F1µ", ts_f1, 1.0, "micro", "f", "token & separator F1, micro"),
        _score("ts-f1-macro", "TS-F1M", ts_f1, 1.0, "macro", "f",
               "token & separator F1, macro (Esuli & Sebastiani's proposed model)"),
        _score("t-f1-micro", "T-F1µ", ts_f1, 0.0, "micro", "f", "token-only F1, micro (separator weight 0)"),
        _score("t-f1-macro", "T-F1M", ts_f1, 0.0, "macro", "f", "token-only F1, macro (separator weight 0)"),
        _score("ts-kappa-micro", "TS-κµ", ts_kappa, 1.0, "micro", "kappa",
               "token & separator Cohen's kappa, micro (summed tables)"),
        _score("ts-kappa-macro", "TS-κM", ts_kappa, 1.0, "macro", "kappa",
               "token & separator Cohen's kappa, macro over labels")),
    result, extras, display=Display(
        "token & separator",
        tuple(ResultColumn(f"ts_{avg}_{m}", f"TS {'µ' if avg == 'micro' else 'M'}{t}", (avg, m),
                           *(("corr", ()) if m == "kappa" else ()))
              for avg in ("micro", "macro")
              for m, t in (("precision", "P"), ("recall", "R"), ("f", "F"), ("kappa", "κ"))),
        ResultColumn("ts", "TS micro F", ("micro", "f")), ResultColumn("ts", "TS macro F", ("macro", "f")),
        gloss="TS counts token and separator units (a partly found span earns part)", tables=("labels",),
        details=("units", "ts-confusion")),
    split=ts_split, counts=unit_sums, count_names=("tp", "fp", "fn")))
#: the TS per-sentence statistics, as ``rank`` reads them
TS_STATS = TS.models[0].stats
