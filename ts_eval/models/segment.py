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

Statistics (:func:`segment_stats`): per sentence and label the gold spans, system spans,
gold spans hit and system spans hit; ``score`` counts their totals (:func:`count`, per label
without the sentences) and builds its result from them (:func:`result`), and :func:`segment_counts`
is the same count for a pair of span sets.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple

import numpy as np

from ..core import measures
from ..core.corpus import Corpus, SpanSet, span_shape
from ..core.matching import DEFAULT_MATCHING, MatchSettings, Pairs, accept
from .context import SystemData, iob2_codes
from .registry import Family, Model, ScoreSettings, register, register_family
from .tally import Tally, Totals

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
    ok = pairs.same_label.copy()
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
    ok = accept(pairs, acceptable(pairs, max_spurious, max_missing), matching)
    g_hit = np.zeros(len(gold_key), bool)   # a mask: a span hit by several pairs counts once
    g_hit[pairs.gold[ok]] = True
    s_hit = np.zeros(len(system_key), bool)
    s_hit[pairs.system[ok]] = True
    idx = np.concatenate([gold_key * 4, system_key * 4 + 1, gold_key[g_hit] * 4 + 2, system_key[s_hit] * 4 + 3])
    return np.bincount(idx, minlength=size * 4)[:size * 4].reshape(size, 4)


def segment_counts(gold: SpanSet, system: SpanSet, pairs: Pairs, n_labels: int,
                   max_spurious: Optional[int] = None, max_missing: Optional[int] = None,
                   matching: MatchSettings = DEFAULT_MATCHING) -> SegmentCounts:
    """Per-label counts of a segment model given by its k1 (spurious) and k2 (missing) limits."""
    c = hit_counts(gold.label.astype(np.int64), system.label.astype(np.int64), pairs, n_labels,
                   max_spurious, max_missing, matching)
    return SegmentCounts(*(c[:, i] for i in range(4)))


def segment_stats(sd: SystemData, model: str = "exact", k1: Optional[int] = None,
                  k2: Optional[int] = None) -> np.ndarray:
    """(sentences, 4 * labels): per label gold spans, system spans, gold spans hit, system
    spans hit under a segment model (exact, overlap, constrained, contain)."""
    cd = sd.cd
    max_spurious, max_missing = model_limits(model, k1, k2)
    c = hit_counts(cd.gold_key, sd.key, sd.pairs, cd.n_sentences * cd.n_labels, max_spurious, max_missing,
                   cd.matching)
    if sd.unplaced is not None:     # spans on no token: system spans that hit nothing
        c = c.astype(float)
        c[:, 1] += sd.unplaced_counts().reshape(-1)
    return c.reshape(cd.n_sentences, -1)


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


def conlleval_tag_key(tag: str) -> tuple:
    """A tag as conlleval.pl compares it: (prefix, type) split at the first hyphen, type 0 = ''."""
    head, sep, kind = tag.partition("-")
    return (head, "" if kind == "0" else kind) if sep else (tag, "")


def token_accuracy(gold_tags: Optional[np.ndarray], system_tags: Optional[np.ndarray],
                   docstart_lines: int = 0, tag_vocab: Optional[Sequence[str]] = None):
    """(correct tags, tokens counted) as conlleval.pl counts them, or None without tags.

    Tags are compared as conlleval.pl compares them (so ``B-0`` equals ``B-`` and ``B``)."""
    if gold_tags is None or system_tags is None:
        return None
    if tag_vocab:
        keys: dict = {}
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


# ---------------------------------------------------------------------------
# results: score's full dict, rank's single numbers


def segment_result(c: SegmentCounts, labels: Sequence[str], beta: float, exact: bool) -> Dict[str, Any]:
    """Per-label, micro and macro counts and scores of segment counts."""
    p = measures.precision(c.found_hit, c.found - c.found_hit)
    r = measures.recall(c.gold_hit, c.gold - c.gold_hit)
    f = measures.f_from_pr(p, r, beta)
    present = (c.gold + c.found) > 0

    def counts(k=None):
        pick = (lambda a: int(a.sum())) if k is None else (lambda a: int(a[k]))
        out = {"gold": pick(c.gold), "system": pick(c.found)}
        if exact:   # one hit count: tp (fp = system - tp, fn = gold - tp)
            out["tp"] = pick(c.gold_hit)
        else:
            out["gold_hit"], out["system_hit"] = pick(c.gold_hit), pick(c.found_hit)
        return out

    rows = {lab: {**counts(k), "precision": float(p[k]), "recall": float(r[k]), "f": float(f[k]),
                  "present": bool(present[k])} for k, lab in enumerate(labels)}
    G, F, GH, FH = (int(a.sum()) for a in (c.gold, c.found, c.gold_hit, c.found_hit))
    P, R = measures.precision(FH, F - FH), measures.recall(GH, G - GH)
    micro = {**counts(), "precision": float(P), "recall": float(R), "f": float(measures.f_from_pr(P, R, beta))}
    macro = {**measures.macro({"precision": p, "recall": r, "f": f}, present), "labels_averaged": int(present.sum())}
    return {"labels": rows, "micro": micro, "macro": macro}


#: a segment family's tally: per label gold, system, gold hit, system hit spans; for ``exact`` also
#: conlleval's token accuracy (tags correct, tags counted) and the runs where the spans have no IOB2
#: encoding (nested or crossing spans; ``undefined``)
LAYOUT = {"spans": ("L.", "sum")}
EXACT_LAYOUT = {**LAYOUT, "accuracy": (".", "sum"), "undefined": ("", "sum")}


def count(sd: SystemData, settings: ScoreSettings, model: str = "exact") -> Tally:
    """``score``'s counts of a segment model for one system (the totals of :func:`segment_stats`)."""
    cd = sd.cd
    gold = cd.corpus.gold
    c = hit_counts(gold.label.astype(np.int64), sd.spans.label.astype(np.int64), sd.pairs, cd.n_labels,
                   *model_limits(model, settings.k1, settings.k2), cd.matching)
    if sd.unplaced is not None:     # spans on no token: system spans that hit nothing
        c[:, 1] += np.bincount(sd.unplaced.label, minlength=cd.n_labels)[:cd.n_labels].astype(c.dtype)
    if model != "exact":
        return Tally({"spans": c}, LAYOUT)
    acc = accuracy_counts(sd)
    return Tally({"spans": c, "accuracy": np.array(acc or (0, 0), np.int64), "undefined": np.array(int(acc is None))},
                 EXACT_LAYOUT)


def result(tally: Tally, totals: Totals, model: str = "exact") -> Dict[str, Any]:
    """``score``'s result of a segment model for one system, from its tally over the corpus."""
    c = tally["spans"]
    st = totals.settings
    out = segment_result(SegmentCounts(*(c[:, i] for i in range(4))), totals.labels, st.beta, model == "exact")
    if model != "exact":
        lim = model_limits(model, st.k1, st.k2)
        out["limits"] = {"max_spurious": lim[0], "max_missing": lim[1]}
        return out
    out.update(accuracy_result(tally, totals))
    return out


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


_STATS: Dict[tuple, Any] = {}


def _family_stats(model: str, k1: Optional[int], k2: Optional[int]):
    """One statistics function object per (model, limits): models sharing it share one computation."""
    key = (model, k1, k2)
    if key not in _STATS:
        _STATS[key] = partial(segment_stats, model=model, k1=k1, k2=k2)
    return _STATS[key]


def segment_f1(x: np.ndarray, average: str = "micro", beta: float = 1.0) -> np.ndarray:
    """F-beta of summed segment statistics (P and R count different hits), micro or macro."""
    per = np.asarray(x, float).reshape(np.shape(x)[:-1] + (-1, 4))
    gold, found, g_hit, f_hit = (per[..., i] for i in range(4))
    if average == "micro":
        gold, found, g_hit, f_hit = (a.sum(-1) for a in (gold, found, g_hit, f_hit))
    p = measures.precision(f_hit, found - f_hit)
    r = measures.recall(g_hit, gold - g_hit)
    f = measures.f_from_pr(p, r, beta)
    if average == "micro":
        return np.asarray(f)
    return measures.masked_mean(np.asarray(f), (gold + found) > 0)


EXACT_STATS = _family_stats("exact", *model_limits("exact"))
OVERLAP_STATS = _family_stats("overlap", *model_limits("overlap"))
CONSTRAINED_STATS = _family_stats("constrained", *model_limits("constrained"))
CONTAIN_STATS = _family_stats("contain", *model_limits("contain"))

for _name, _text in (("exact", "segment exact match (conlleval)"), ("overlap", "segment overlap"),
                     ("constrained", "constrained overlap (k1 spurious, k2 missing tokens at most)"),
                     ("contain", "system span contains the gold span")):
    register_family(Family(_name, partial(count, model=_name), partial(result, model=_name), _text))

for _m in (
    Model("exact-f1-micro", "Seg-F1µ", EXACT_STATS, partial(segment_f1, average="micro"),
          "segment exact match F1, micro (conlleval; the official CoNLL score)"),
    Model("exact-f1-macro", "Seg-F1M", EXACT_STATS, partial(segment_f1, average="macro"),
          "segment exact match F1, macro over labels"),
    Model("overlap-f1-micro", "Ov-F1µ", OVERLAP_STATS, partial(segment_f1, average="micro"),
          "segment overlap model F1, micro (a same-label span sharing a token is a hit)", matched=True),
    Model("overlap-f1-macro", "Ov-F1M", OVERLAP_STATS, partial(segment_f1, average="macro"),
          "segment overlap model F1, macro", matched=True),
    Model("constrained-f1-micro", "Co-F1µ", CONSTRAINED_STATS, partial(segment_f1, average="micro"),
          "constrained overlap F1, micro (k1 = k2 = 1)", matched=True),
    Model("contain-f1-micro", "Ct-F1µ", CONTAIN_STATS, partial(segment_f1, average="micro"),
          "contain model F1, micro (system span contains the gold span)", matched=True),
):
    register(replace(_m, columns=(0, 4)))     # per label: gold, system, gold hit, system hit
