"""A model family's per-sentence statistics split by span, so that spans can be put in buckets.

Every statistic of a registered family is a count made from spans: the segment models count gold
spans, system spans and the hits among them; TS counts the units of spans; fair counts one outcome
per gold span and one per system span counted on its own; SemEval one category per system span and
one per missed gold span.  A splitter lists each of those contributions with the span it belongs
to (:class:`Contributions`), read from what the family itself reads (the shared matcher's pairs,
fair's outcomes, nervaluate's choices), so that the contributions of one bucket's spans are that
bucket's statistics, in the family's own layout, and the family's score functions score them.

Where a contribution belongs (the rule of every family):

- **segment models** (exact, overlap, constrained, contain): a gold span brings "gold" and, when some
  system span is an acceptable match, "gold hit"; a system span brings "system" and "system hit".
  Recall in a bucket is over its gold spans, precision over its system spans (as InterpretEval).
- **TS**: a gold span brings its TP and FN units, a system span its FP units (a TP unit is counted
  where the gold span falls).  The number of units of a bucket (for true negatives) is not defined:
  models that read it (kappa) have no value for span attributes.
- **fair error types**: each outcome where the family files it: a gold span's outcome under the gold
  span, a system span counted on its own (FP, or one that joined an already matched gold span)
  under the system span.
- **SemEval categories**: COR, INC and PAR where the gold span the system span took falls, SPU
  where the system span falls, MIS where the gold span falls.

:func:`splitter` finds the splitter of a model's statistics function; a family without one is
available for sentence attributes only (they sum whole sentences' statistics).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np

from ..core.corpus import SpanSet
from ..fair.tally import _counted
from ..fair.types import OUTCOME_NAMES
from ..models import fair as fair_model
from ..models import segment as segment_model
from ..models import semeval as semeval_model
from ..models import ts as ts_model
from ..models.context import SystemData


@dataclass
class Contributions:
    """The statistics of one system under one family as contributions of spans: entry i adds
    ``weight[i]`` to column ``col[i]`` of the sentence of gold span ``span[i]`` (``side`` 0) or of
    system span ``span[i]`` (``side`` 1).  ``whole``: columns no span contributes to (a bucket of
    spans has no value there)."""

    side: np.ndarray
    span: np.ndarray
    col: np.ndarray
    weight: np.ndarray
    k: int
    whole: Tuple[int, ...] = ()


Splitter = Callable[[SystemData], Contributions]


def _entries(parts: List[Tuple[int, np.ndarray, np.ndarray, np.ndarray]], k: int,
             whole: Tuple[int, ...] = ()) -> Contributions:
    """(side, spans, columns, weights) parts -> one :class:`Contributions` (zero weights dropped)."""
    side = np.concatenate([np.full(len(s), sd, np.int8) for sd, s, _, _ in parts]) if parts else np.zeros(0, np.int8)
    span = np.concatenate([np.asarray(s, np.int64) for _, s, _, _ in parts]) if parts else np.zeros(0, np.int64)
    col = np.concatenate([np.asarray(c, np.int64) for _, _, c, _ in parts]) if parts else np.zeros(0, np.int64)
    w = np.concatenate([np.asarray(x, float) for _, _, _, x in parts]) if parts else np.zeros(0)
    keep = w != 0
    return Contributions(side[keep], span[keep], col[keep], w[keep], k, whole)


# ---------------------------------------------------------------------------
# segment models


def segment_split(sd: SystemData, limits: Tuple[Optional[int], Optional[int]]) -> Contributions:
    """Per label gold, system, gold hit, system hit (:func:`ts_eval.models.segment.segment_stats`)."""
    gold, system = sd.cd.corpus.gold, sd.spans
    ok = segment_model.acceptable(sd.pairs, *limits)
    g_hit = np.zeros(len(gold), bool)
    g_hit[sd.pairs.gold[ok]] = True
    s_hit = np.zeros(len(system), bool)
    s_hit[sd.pairs.system[ok]] = True
    gi, si = np.arange(len(gold)), np.arange(len(system))
    gl, sl = gold.label.astype(np.int64) * 4, system.label.astype(np.int64) * 4
    return _entries([(0, gi, gl, np.ones(len(gi))), (0, gi, gl + 2, g_hit),
                     (1, si, sl + 1, np.ones(len(si))), (1, si, sl + 3, s_hit)], 4 * sd.cd.n_labels)


# ---------------------------------------------------------------------------
# TS


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
    representative: np.ndarray = order[pos]
    return representative


def ts_split(sd: SystemData) -> Contributions:
    """Per label token and separator TP, FP, FN (:func:`ts_eval.models.ts.sentence_counts`): TP and
    FN units of a (merged) gold span, FP units of a (merged) system span; the first two columns
    (tokens, separators of the sentence) belong to no span."""
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
    return _entries([(0, gi, gb, shared), (0, gi, gb + 3, shared_sep), (0, gi, gb + 2, glen - shared),
                     (0, gi, gb + 5, glen - 1 - shared_sep),
                     (1, si, sb + 1, slen - s_shared), (1, si, sb + 4, slen - 1 - s_shared_sep)],
                    2 + 6 * sd.cd.n_labels, whole=(0, 1))


# ---------------------------------------------------------------------------
# fair error types


def fair_split(sd: SystemData, focus: str = "target", mode: str = "paper") -> Contributions:
    """Per label the eight outcome codes (:func:`ts_eval.fair.tally.sentence_outcomes`)."""
    res = fair_model.fair_result(sd, focus, mode)
    gold, system = sd.cd.corpus.gold, sd.spans
    lab, code, only = _counted(res.span_outcomes, gold, system, focus)
    ng = len(gold)
    cols = lab * len(OUTCOME_NAMES) + code
    return _entries([(0, np.arange(ng), cols[:ng], np.ones(ng)), (1, only, cols[ng:], np.ones(len(only)))],
                    len(OUTCOME_NAMES) * sd.cd.n_labels)


# ---------------------------------------------------------------------------
# SemEval


def semeval_split(sd: SystemData, labels: bool = False) -> Contributions:
    """nervaluate's categories per scheme: the overall row (``labels``: then one row per label, the
    layout of :func:`ts_eval.models.semeval.stats`; else :func:`~ts_eval.models.semeval.overall_stats`)."""
    gold, system = sd.cd.corpus.gold, sd.spans
    S, K = len(semeval_model.SCHEMES), len(semeval_model.COUNTS)
    R = 1 + sd.cd.n_labels if labels else 1
    parts = []
    for k, scheme in enumerate(semeval_model.SCHEMES):
        for by_label in ((False, True) if labels else (False,)):
            o = semeval_model.span_outcomes(gold, system, sd.pairs, scheme=scheme, by_label=by_label)
            s_row = 1 + system.label.astype(np.int64) if by_label else np.zeros(len(system), np.int64)
            g_row = 1 + gold.label.astype(np.int64) if by_label else np.zeros(len(gold), np.int64)
            took = o.system_gold >= 0
            sys_idx = np.flatnonzero(took)
            partner = o.system_gold[took]
            parts.append((0, partner, (k * R + s_row[sys_idx]) * K + o.system[took], np.ones(len(partner))))
            spu = np.flatnonzero(~took)
            parts.append((1, spu, (k * R + s_row[spu]) * K + o.system[spu], np.ones(len(spu))))
            mis = np.flatnonzero(o.gold == semeval_model.MIS)
            parts.append((0, mis, (k * R + g_row[mis]) * K + semeval_model.MIS, np.ones(len(mis))))
    return _entries(parts, S * R * K)


# ---------------------------------------------------------------------------
# the table


SPLITTERS: Dict[object, Splitter] = {
    ts_model.ts_stats: ts_split,
    fair_model.fair_stats: fair_split,
    semeval_model.overall_stats: semeval_split,
    semeval_model.stats: partial(semeval_split, labels=True),
}


def splitter(stats_fn: object) -> Optional[Splitter]:
    """The splitter of a statistics family (None: the family cannot be split by span)."""
    if stats_fn in SPLITTERS:
        return SPLITTERS[stats_fn]
    if isinstance(stats_fn, partial) and stats_fn.func is segment_model.segment_stats:
        kw = stats_fn.keywords
        limits = segment_model.model_limits(kw.get("model", "exact"), kw.get("k1"), kw.get("k2"))
        return partial(segment_split, limits=limits)
    return None


FAMILY_NAMES: Dict[object, str] = {
    segment_model.EXACT_STATS: "exact", segment_model.OVERLAP_STATS: "overlap",
    segment_model.CONSTRAINED_STATS: "constrained", segment_model.CONTAIN_STATS: "contain",
    ts_model.ts_stats: "ts", fair_model.fair_stats: "fair", semeval_model.overall_stats: "semeval",
    semeval_model.stats: "semeval",
}
