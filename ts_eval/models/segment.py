"""Segment-level models from the matcher's pairs: exact match (conlleval.pl's model),
overlap, constrained overlap and contain (Esuli & Sebastiani 2010, section 3).

A gold span is *hit* when some system span of the same label is an acceptable
match for it, and a system span is hit when it is an acceptable match for some gold
span.  Acceptable:

``exact``        same first token, last token and label;
``overlap``      shares at least one token;
``constrained``  shares a token, with at most k1 spurious tokens (system span only)
                 and at most k2 missing tokens (gold span only);
``contain``      constrained with k2 = 0: the system span contains the gold span
                 (k1 unbounded unless given).

The matcher's settings (:class:`~ts_eval.core.matching.MatchSettings`) apply on top: with a
minimum overlap a pair must also overlap enough (``overlap``: that is the whole test;
``constrained`` and ``contain``: both tests; ``exact``: always met, exact pairs share every
token); with ``one-to-one`` only the pairs of a maximum matching count, so one system span
hits at most one gold span and the hit counts are equal (``exact`` pairs are one-to-one
already: a side never holds the same span twice).  A system's unplaced spans (generated
strings found nowhere in the text, :class:`~ts_eval.core.corpus.Unplaced`) are system spans
that hit nothing.

Precision = hit system spans / system spans, recall = hit gold spans / gold spans
(for exact match both hit counts are conlleval's "correct").  Token accuracy is
conlleval's: every ``-DOCSTART-`` line counts as a correctly tagged O token.

Statistics (:func:`segment_stats`): per sentence and label the gold spans, system spans, gold
spans hit and system spans hit; ``score``'s are their totals (the same count keyed by label), and
:func:`segment_prf` gives P, R and F of any sums of them, for ``score``'s result and for ``rank``'s
scores alike.  :func:`segment_counts` is the same count for a pair of span sets.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple

import numpy as np

from ..core import measures
from ..core.corpus import Corpus, SpanSet, span_shape
from ..core.matching import DEFAULT_MATCHING, MatchSettings, Pairs, accept
from .context import RANK_SETTINGS, Contributions, ScoreSettings, SystemData, iob2_codes
from .registry import Display, ModelSpec, ResultColumn, Score, register
from .tally import Tally, Totals, over_labels

SEGMENT_MODELS = ("exact", "overlap", "constrained", "contain")


@dataclass(eq=False)   # (arrays: a field-wise == has no truth value)
class SegmentCounts:
    """A segment model's counts per label."""

    gold: np.ndarray       # per label: gold spans
    found: np.ndarray      # per label: system spans
    gold_hit: np.ndarray   # per label: gold spans with an acceptable system span
    found_hit: np.ndarray  # per label: system spans acceptable for some gold span


def acceptable(pairs: Pairs, max_spurious: Optional[int] = None, max_missing: Optional[int] = None) -> np.ndarray:
    """Mask of pairs that match: same label, sharing a token, within the k1/k2 limits.

    With both limits 0 this is the matcher's exact flag (for the conlleval scheme: the
    chunks conlleval.pl counts correct)."""
    if max_spurious == 0 and max_missing == 0:
        return pairs.exact
    ok: np.ndarray = pairs.same_label.copy()
    if max_spurious is not None:
        ok &= pairs.system_only <= max_spurious
    if max_missing is not None:
        ok &= pairs.gold_only <= max_missing
    return ok


def hit_counts(gold_key: np.ndarray, system_key: np.ndarray, pairs: Pairs, size: int,
               max_spurious: Optional[int] = None, max_missing: Optional[int] = None,
               matching: MatchSettings = DEFAULT_MATCHING) -> np.ndarray:
    """(size, 4) gold, system, gold hit, system hit counts per bincount key (sentence * labels
    + label, or just the label): the one place segment models count."""
    g_hit, s_hit = hit_masks(len(gold_key), len(system_key), pairs, max_spurious, max_missing, matching)
    idx = np.concatenate([gold_key * 4, system_key * 4 + 1, gold_key[g_hit] * 4 + 2, system_key[s_hit] * 4 + 3])
    return np.bincount(idx, minlength=size * 4)[:size * 4].reshape(size, 4)


def hit_masks(n_gold: int, n_system: int, pairs: Pairs, max_spurious: Optional[int] = None,
              max_missing: Optional[int] = None, matching: MatchSettings = DEFAULT_MATCHING
              ) -> Tuple[np.ndarray, np.ndarray]:
    """(gold spans hit, system spans hit): masks of the ``n_gold`` and ``n_system`` spans in a pair the segment
    model with these limits accepts (a span hit by several pairs is hit once)."""
    ok = accept(pairs, acceptable(pairs, max_spurious, max_missing), matching)
    g_hit = np.zeros(n_gold, bool)
    g_hit[pairs.gold[ok]] = True
    s_hit = np.zeros(n_system, bool)
    s_hit[pairs.system[ok]] = True
    return g_hit, s_hit


def segment_counts(gold: SpanSet, system: SpanSet, pairs: Pairs, n_labels: int,
                   max_spurious: Optional[int] = None, max_missing: Optional[int] = None,
                   matching: MatchSettings = DEFAULT_MATCHING) -> SegmentCounts:
    """Per-label counts of a segment model given by its k1 (spurious) and k2 (missing) limits."""
    c = hit_counts(gold.label.astype(np.int64), system.label.astype(np.int64), pairs, n_labels,
                   max_spurious, max_missing, matching)
    return SegmentCounts(*(c[:, i] for i in range(4)))


def model_limits(model: str, k1: Optional[int] = None, k2: Optional[int] = None) -> Tuple[Optional[int], Optional[int]]:
    """(max_spurious, max_missing) of a named segment model."""
    if model == "exact":
        return 0, 0
    if model == "overlap":
        return None, None
    if model == "constrained":
        return (1 if k1 is None else k1), (1 if k2 is None else k2)
    if model == "contain":
        return k1, 0
    raise ValueError(f"unknown segment model {model!r}; expected one of {', '.join(SEGMENT_MODELS)}")


def conlleval_tag_key(tag: str) -> Tuple[str, str]:
    """A tag as conlleval.pl compares it: (prefix, type) split at the first hyphen, type 0 = ''."""
    head, sep, kind = tag.partition("-")
    return (head, "" if kind == "0" else kind) if sep else (tag, "")


def token_accuracy(gold_tags: Optional[np.ndarray], system_tags: Optional[np.ndarray],
                   docstart_lines: int = 0, tag_vocab: Optional[Sequence[str]] = None) -> Optional[Tuple[int, int]]:
    """(correct tags, tokens counted) as conlleval.pl counts them, or None without tags.

    Tags are compared as conlleval.pl compares them (so ``B-0`` equals ``B-`` and ``B``)."""
    if gold_tags is None or system_tags is None:
        return None
    if tag_vocab:
        keys: Dict[Tuple[str, str], int] = {}
        canon = np.array([keys.setdefault(conlleval_tag_key(t), len(keys)) for t in tag_vocab], np.int32)
        if len(keys) < len(tag_vocab):  # some tags compare equal (B-0, B-, B): compare their keys
            gold_tags, system_tags = canon[gold_tags], canon[system_tags]
    correct = int(np.count_nonzero(gold_tags == system_tags)) + docstart_lines
    return correct, len(gold_tags) + docstart_lines


def iob2_undefined(spans: SpanSet, side: str) -> Optional[str]:
    """Why ``spans`` have no IOB2 encoding (one tag per token), or None when they have one."""
    return undefined_reason(span_shape(spans.start, spans.last), side)


def undefined_reason(shape: Mapping[str, int], side: str) -> Optional[str]:
    """Why spans with ``shape`` (their nested and crossing counts) have no IOB2 encoding, or None."""
    if not (shape["nested"] or shape["crossing"]):
        return None
    return (f"undefined: the {side} side has {shape['nested']} nested and {shape['crossing']} crossing spans, "
            "which IOB2 tags (one per token) cannot encode")


def span_token_accuracy(corpus: Corpus, gold: np.ndarray, system: np.ndarray) -> Tuple[int, int]:
    """(correct tags, tokens counted) of conlleval's token accuracy over the IOB2 encodings
    (:func:`iob2_codes`) of gold's and a system's spans; ``-DOCSTART-`` lines count as correct O
    tokens, as conlleval.pl counts them.  On a column file that is well-formed IOB2 these are the
    tags of the file, so the count equals :func:`token_accuracy`'s."""
    n = corpus.docstart_lines
    return int(np.count_nonzero(gold == system)) + n, len(gold) + n


def segment_stats(sd: SystemData, settings: ScoreSettings = RANK_SETTINGS, sentences: bool = True,
                  model: str = "exact") -> np.ndarray:
    """(sentences, 4 * labels): per label gold spans, system spans, gold spans hit, system spans hit
    under a segment model (exact, overlap, constrained, contain); ``sentences`` False: (1, 4 * labels),
    their totals (counted per label)."""
    cd = sd.cd
    if sentences:
        gold_key, system_key, rows = cd.gold_key, sd.key, cd.n_sentences
    else:
        gold_key, system_key, rows = cd.corpus.gold.label.astype(np.int64), sd.spans.label.astype(np.int64), 1
    size = rows * cd.n_labels
    c = hit_counts(gold_key, system_key, sd.pairs, size, *model_limits(model, settings.k1, settings.k2),
                   cd.matching)
    u = sd.unplaced
    if u is not None:     # spans on no token: system spans that hit nothing
        key = u.label.astype(np.int64) + (u.sentence * cd.n_labels if sentences else 0)
        c[:, 1] += np.bincount(key, minlength=size)[:size]
    return c.reshape(rows, -1)


def accuracy_extras(sd: SystemData, settings: ScoreSettings) -> Tally:
    """conlleval's token accuracy (tags correct, tags counted) and the runs where the spans have no IOB2
    encoding (nested or crossing spans; ``undefined``): exact match's figures beside its sums."""
    acc = accuracy_counts(sd)
    return Tally({"accuracy": np.array(acc or (0, 0), np.int64), "undefined": np.array(int(acc is None))},
                 {"accuracy": (".", "sum"), "undefined": ("", "sum")})


def accuracy_counts(sd: SystemData) -> Optional[Tuple[int, int]]:
    """conlleval's token accuracy of one system, (tags correct, tags counted); None when the spans of
    either side have no IOB2 encoding (see :func:`accuracy_result`)."""
    cd = sd.cd
    corpus = cd.corpus
    info = corpus.system_info[sd.name]
    acc = token_accuracy(corpus.gold_info.tags, info.tags, corpus.docstart_lines, corpus.tag_vocab)
    if acc is not None:
        return acc
    if iob2_undefined(corpus.gold, "gold") or iob2_undefined(sd.spans, "system"):
        return None
    return span_token_accuracy(corpus, cd.gold_iob2, iob2_codes(corpus, sd.spans))


def accuracy_result(tally: Tally, totals: Totals) -> Dict[str, Any]:
    """conlleval's token accuracy of one system: ``token_accuracy``, ``tags_correct`` and ``tags_counted``.

    Column files on both sides: their tags as read, compared as conlleval.pl compares them (its own
    number, in any scheme).  Any other input (spans from JSON Lines, CoNLL-U, brat, Python span lists,
    or a column file beside one of them): the spans' IOB2 encoding.  Nested or crossing spans on
    either side have no IOB2 encoding: ``token_accuracy`` is None and ``token_accuracy_undefined``
    says why (no number is made up)."""
    if not (totals.gold.tags and totals.system.tags):
        why = (undefined_reason(totals.gold.shape, "gold")
               or undefined_reason(totals.system.shape, f"system {totals.system.name!r}"))
        if why is not None:
            return {"token_accuracy": None, "token_accuracy_undefined": why}
    correct, counted = (int(x) for x in tally["accuracy"])
    return {"token_accuracy": correct / counted if counted else 0.0, "tags_correct": correct, "tags_counted": counted}


# ---------------------------------------------------------------------------
# scores of summed statistics: score's full dict, rank's single numbers


def segment_prf(x: np.ndarray, beta: float = 1.0) -> Tuple[Tuple[Any, Any, Any], Tuple[Any, Any, Any], np.ndarray]:
    """((P, R, F) per label, (P, R, F) micro, labels present) of summed statistics (..., 4 * labels):
    precision counts system spans hit, recall gold spans hit."""
    per = _per_label(x)
    p, r, f, present = _label_prf(per, beta)
    return (p, r, f), _micro_prf(per, beta), present


def _per_label(x: np.ndarray) -> np.ndarray:
    """(..., labels, 4): gold, found, gold hit, found hit."""
    return np.asarray(x, float).reshape(np.shape(x)[:-1] + (-1, 4))


def _label_prf(per: np.ndarray, beta: float) -> Tuple[Any, Any, Any, np.ndarray]:
    """P, R, F per label and the labels present."""
    gold, found, g_hit, f_hit = (per[..., i] for i in range(4))
    p, r = measures.precision(f_hit, found - f_hit), measures.recall(g_hit, gold - g_hit)
    return p, r, measures.f_from_pr(p, r, beta), (gold + found) > 0


def _micro_prf(per: np.ndarray, beta: float) -> Tuple[Any, Any, Any]:
    """P, R, F of the sums over labels."""
    G, F, GH, FH = over_labels(per)
    P, R = measures.precision(FH, F - FH), measures.recall(GH, G - GH)
    return P, R, measures.f_from_pr(P, R, beta)


def segment_f1(x: np.ndarray, average: str = "micro", beta: float = 1.0) -> np.ndarray:
    """F-beta of summed segment statistics, micro or macro (a ranking model's score): only the scores the
    average reads are computed."""
    per = _per_label(x)
    if average == "micro":
        return np.asarray(_micro_prf(per, beta)[2])
    _, _, f, present = _label_prf(per, beta)
    return measures.masked_mean(f, present)


def segment_result(x: np.ndarray, labels: Sequence[str], beta: float, exact: bool) -> Dict[str, Any]:
    """Per-label, micro and macro counts and scores of summed statistics (4 * labels)."""
    (p, r, f), micro, present = segment_prf(x, beta)
    c = np.asarray(x).reshape(-1, 4)

    def counts(row: np.ndarray) -> Dict[str, int]:
        out = {"gold": int(row[0]), "system": int(row[1])}
        if exact:   # one hit count: tp (fp = system - tp, fn = gold - tp)
            out["tp"] = int(row[2])
        else:
            out["gold_hit"], out["system_hit"] = int(row[2]), int(row[3])
        return out

    rows = {lab: {**counts(c[k]), "precision": float(p[k]), "recall": float(r[k]), "f": float(f[k]),
                  "present": bool(present[k])} for k, lab in enumerate(labels)}
    return {"labels": rows, "micro": {**counts(c.sum(0)), **dict(zip(("precision", "recall", "f"), map(float, micro)))},
            "macro": {**measures.macro({"precision": p, "recall": r, "f": f}, present),
                      "labels_averaged": int(present.sum())}}


def result(tally: Tally, totals: Totals, model: str = "exact") -> Dict[str, Any]:
    """``score``'s result of a segment model for one system, from its tally over the corpus."""
    st = totals.settings
    out = segment_result(tally.sums, totals.labels, st.beta, model == "exact")
    if model != "exact":
        lim = model_limits(model, st.k1, st.k2)
        out["limits"] = {"max_spurious": lim[0], "max_missing": lim[1]}
        return out
    out.update(accuracy_result(tally, totals))
    return out


# ---------------------------------------------------------------------------
# analyze: the statistics as contributions of spans


def segment_split(sd: SystemData, model: str = "exact") -> Contributions:
    """Per label gold, system, gold hit, system hit: a gold span brings "gold" and, when some system
    span is an acceptable match, "gold hit"; a system span brings "system" and "system hit" (recall in
    a bucket is over its gold spans, precision over its system spans, as InterpretEval)."""
    gold, system = sd.cd.corpus.gold, sd.spans
    ok = acceptable(sd.pairs, *model_limits(model))
    g_hit = np.zeros(len(gold), bool)
    g_hit[sd.pairs.gold[ok]] = True
    s_hit = np.zeros(len(system), bool)
    s_hit[sd.pairs.system[ok]] = True
    gi, si = np.arange(len(gold)), np.arange(len(system))
    gl, sl = gold.label.astype(np.int64) * 4, system.label.astype(np.int64) * 4
    return Contributions.of([(0, gi, gl, np.ones(len(gi))), (0, gi, gl + 2, g_hit),
                             (1, si, sl + 1, np.ones(len(si))), (1, si, sl + 3, s_hit)], 4 * sd.cd.n_labels)


def label_sums(block: np.ndarray, keep: int = 4) -> np.ndarray:
    """The first ``keep`` of the four counts, summed over labels (the counts ``analyze`` shows)."""
    sums: np.ndarray = block.reshape(block.shape[:-1] + (-1, 4)).sum(-2)[..., :keep]
    return sums


# ---------------------------------------------------------------------------
# the declarations

HITS = ("gold", "system", "gold_hit", "system_hit")


def _spec(name: str, description: str, scores: Tuple[Score, ...], display: Display, **more: Any) -> ModelSpec:
    return ModelSpec(name, description, partial(segment_stats, model=name), (0, 4), scores,
                     partial(result, model=name), split=partial(segment_split, model=name), **more, display=display)


def _f1(name: str, title: str, average: str, description: str) -> Score:
    return Score(f"{name}-f1-{average}", title, partial(segment_f1, average=average), description,
                 reported=(average, "f"))


def _other(name: str, short: str, gloss: str, scores: Tuple[Score, ...], description: str) -> ModelSpec:
    """overlap, constrained, contain: the same columns under the model's name."""
    return _spec(name, description, scores, Display(
        name, (ResultColumn(f"{name}_micro_f", f"{short} µF", ("micro", "f"), counts=HITS),
               ResultColumn(f"{name}_macro_f", f"{short} MF", ("macro", "f"))),
        ResultColumn(name, f"{name} micro F", ("micro", "f")), ResultColumn(name, f"{name} macro F", ("macro", "f")),
        gloss=gloss, tables=("segment",)),
        matched=True, counts=label_sums, count_names=HITS)


EXACT = register(_spec("exact", "segment exact match (conlleval)", (
    _f1("exact", "Seg-F1µ", "micro", "segment exact match F1, micro (conlleval; the official CoNLL score)"),
    _f1("exact", "Seg-F1M", "macro", "segment exact match F1, macro over labels")), Display(
    "segment exact match", (
        ResultColumn("exact_precision", "ex P", ("micro", "precision")),
        ResultColumn("exact_recall", "ex R", ("micro", "recall")),
        ResultColumn("exact_f", "ex F", ("micro", "f")),
        ResultColumn("exact_macro_f", "ex MF", ("macro", "f")),
        ResultColumn("token_accuracy", "acc", ("token_accuracy",), counts=("tags_correct", "tags_counted"),
                     note="token_accuracy_undefined")),
    ResultColumn("exact", "exact micro F", ("micro", "f")), ResultColumn("exact", "exact macro F", ("macro", "f")),
    gloss="exact counts whole spans as conlleval does", tables=("labels",)),
    extras=accuracy_extras, counts=partial(label_sums, keep=3), count_names=("gold", "system", "tp")))
register(_other("overlap", "ov", "overlap counts spans that share a token", (
    _f1("overlap", "Ov-F1µ", "micro", "segment overlap model F1, micro (a same-label span sharing a token is a hit)"),
    _f1("overlap", "Ov-F1M", "macro", "segment overlap model F1, macro")), "segment overlap"))
register(_other("constrained", "co", "constrained overlap allows k1 spurious and k2 missing tokens", (
    _f1("constrained", "Co-F1µ", "micro", "constrained overlap F1, micro (k1 = k2 = 1)"),),
    "constrained overlap (k1 spurious, k2 missing tokens at most)"))
register(_other("contain", "ct", "contain needs the gold span inside the system's", (
    _f1("contain", "Ct-F1µ", "micro", "contain model F1, micro (system span contains the gold span)"),),
    "system span contains the gold span"))
#: exact match's per-sentence statistics, as ``rank`` reads them
EXACT_STATS = EXACT.models[0].stats
