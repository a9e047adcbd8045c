"""SemEval-2013 task 9.1 categories (Segura-Bedmar et al. 2013) as nervaluate counts them, as a model
family: per-sentence counts (:func:`semeval_stats`, from the shared matcher's pairs), ``score``'s result
from their column sums, and one ranking model per scheme (overall F1); ``models=["semeval"]`` (and
``resolve_models(["semeval"])``) stands for the four.

Four schemes -- ``strict``, ``exact``, ``partial``, ``ent_type`` -- sort every system
span into correct (COR), incorrect (INC), partial (PAR) or spurious (SPU) and every
gold span left over into missed (MIS); possible = COR + INC + PAR + MIS (the gold
spans), actual = COR + INC + PAR + SPU (the system spans); precision = COR / actual
and recall = COR / possible, with (COR + 0.5 PAR) in place of COR for ``partial`` and
``ent_type``.  ``overall`` is one evaluation of all spans (a system span may be
incorrect for a gold span of another label), each label row an evaluation of that
label's spans only, as nervaluate 1.2.1 reports them: the label rows need not sum to
``overall``.

nervaluate's algorithm, reproduced exactly (per sentence, system spans in order, each
taking one gold span that no earlier system span took):

``strict``    the first untaken gold span with the same bounds and label -> COR;
              else the first untaken gold span it overlaps enough -> INC; else SPU.
``exact``     the same with "same bounds" (any label) -> COR, else INC / SPU.
``partial``   identical choices to ``exact``; its INC are counted as PAR.
``ent_type``  among untaken same-label gold spans it overlaps enough, the one with the
              smallest |start difference| + |end difference| (the first on ties) -> COR;
              else the first untaken other-label one it overlaps enough -> INC; else SPU.

"Overlaps enough": the matcher's minimum overlap (:class:`~ts_eval.core.matching.Threshold`);
by default nervaluate's ``min_overlap_percentage`` 1.0 (shared tokens / gold span tokens * 100
>= 1.0: any shared token for gold spans of up to 100 tokens); ``nervaluate:P`` is its
``min_overlap_percentage=P``, and ``gold:R``, ``system:R``, ``iou:R`` put other thresholds in
its place, for every scheme (a pair below it is no candidate: the system span may end up
spurious and the gold span missed, as nervaluate counts them).  ``partial_weight`` (default
0.5, nervaluate's) is the credit of a partial match in ``partial``'s precision and recall.
The candidates are the shared matcher's pairs (:func:`ts_eval.core.matching.match`); "order"
is SpanSet order (start, end, label), the order nervaluate's tag loaders produce, so no count
depends on the order spans are given in.

Assignment ``one-to-one`` (:func:`ts_eval.core.matching.one_to_one`) replaces the greedy choice
in order by a maximum matching over the same candidates: the most first-class pairs (what a
system span prefers: same bounds and label for ``strict``, same bounds for ``exact`` and
``partial``, same label for ``ent_type``), then the most pairs, the most shared tokens, the
closest boundaries.  nervaluate's choice is one-to-one too (each gold span is taken once), but
greedy: an early system span may take the gold span a later one needed.  A system's unplaced
spans (generated strings found nowhere in the text) are spurious in every scheme.  The
greedy choice is inherently sequential (a span taken early changes what later spans
can take), but almost every choice is uncontested: :func:`_serial_choice` settles all
uncontested choices of the corpus per round in numpy and needs one round per link of
the longest chain of contested choices; only chains longer than :data:`MAX_ROUNDS`
are finished by a loop over their remaining system spans.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any, Dict, Optional, Sequence, Tuple

import numpy as np

from ..core import measures
from ..core.corpus import Corpus, SpanSet, Unplaced
from ..core.matching import MatchSettings, Pairs, Threshold, match, meets, one_to_one
from ..errors import OptionError
from .context import RANK_SETTINGS, Contributions, ScoreSettings, SystemData
from .registry import Display, ModelSpec, ResultColumn, Score, check_partial_weight, register
from .tally import Tally, Totals

SCHEMES = ("strict", "exact", "partial", "ent_type")
COUNTS = ("correct", "incorrect", "partial", "missed", "spurious")
PARTIAL_CREDIT = {"strict": False, "exact": False, "partial": True, "ent_type": True}
MAX_ROUNDS = 64
COR, INC, PAR, MIS, SPU = range(5)
#: SemEval's default: nervaluate's min_overlap_percentage 1.0
NERVALUATE_DEFAULT = Threshold("nervaluate", Fraction(1))


def check_min_overlap(pct: float) -> float:
    """nervaluate's ``min_overlap_percentage`` as a float; OptionError (a ValueError) outside 1..100."""
    v = float(pct)
    if not 1.0 <= v <= 100.0:
        raise OptionError(f"min_overlap_percentage must be between 1.0 and 100.0, got {pct}")
    return v


def threshold_of(matching: Optional[MatchSettings], min_overlap_percentage: Optional[float] = None) -> Threshold:
    """The threshold SemEval uses: ``min_overlap_percentage`` (nervaluate's keyword) if given, else the
    matcher's minimum overlap, else nervaluate's default (1.0 percent of the gold span)."""
    if min_overlap_percentage is not None:
        if matching is not None and matching.min_overlap is not None:
            raise OptionError("give min_overlap or min_overlap_percentage, not both")
        return Threshold("nervaluate", Fraction(repr(check_min_overlap(min_overlap_percentage))))
    if matching is not None and matching.min_overlap is not None:
        return matching.min_overlap
    return NERVALUATE_DEFAULT


# ---------------------------------------------------------------------------
# the greedy choice


def _serial_choice(p: np.ndarray, g: np.ndarray, n_system: int, n_gold: int) -> np.ndarray:
    """The pair each system span takes when system spans, in index order, each take their
    first listed pair whose gold span no earlier system span took (-1: none left).

    ``p, g`` are candidate pairs sorted by system index, then by the system span's own
    preference.  Each round accepts every system span whose first remaining pair's gold
    span is held by no earlier undecided system span (nothing earlier can take it, and
    everything it prefers is gone for good), removes the taken gold spans and decided
    system spans, and repeats; the earliest undecided span always succeeds.
    """
    chosen = np.full(n_system, -1, np.int64)
    taken = np.zeros(n_gold, bool)
    idx = np.arange(len(p))
    big = np.iinfo(np.int64).max
    for _ in range(MAX_ROUNDS):
        if not len(idx):
            return chosen
        pp, gg = p[idx], g[idx]
        first = np.ones(len(idx), bool)
        np.not_equal(pp[1:], pp[:-1], out=first[1:])
        owner = np.full(n_gold, big, np.int64)
        np.minimum.at(owner, gg, pp)
        win = idx[first & (owner[gg] == pp)]
        chosen[p[win]] = win
        taken[g[win]] = True
        keep = ~taken[gg]
        keep &= chosen[pp] < 0
        idx = idx[keep]
    # a chain of more than MAX_ROUNDS contested choices: the rest one system span at a time
    pp = p[idx]
    starts = np.flatnonzero(np.r_[True, pp[1:] != pp[:-1]]).tolist() + [len(idx)]
    for a, b in zip(starts[:-1], starts[1:]):
        for k in idx[a:b].tolist():
            if not taken[g[k]]:
                chosen[p[k]] = k
                taken[g[k]] = True
                break
    return chosen


def _outcomes(p: np.ndarray, g: np.ndarray, first_class: np.ndarray, rank: np.ndarray,
              n_system: int, n_gold: int) -> Tuple[np.ndarray, np.ndarray]:
    """(system outcome: 0 first class, 1 second class, -1 spurious; the gold span each system
    span took, -1 for none) of one scheme over candidate pairs: a system span prefers
    first-class pairs, then lower ``rank``, then the earlier gold span."""
    order = np.lexsort((g, rank, ~first_class, p))
    p, g, first_class = p[order], g[order], first_class[order]
    chosen = _serial_choice(p, g, n_system, n_gold)
    outcome = np.full(n_system, -1, np.int8)
    partner = np.full(n_system, -1, np.int64)
    hit = chosen >= 0
    outcome[hit] = np.where(first_class[chosen[hit]], 0, 1)
    partner[hit] = g[chosen[hit]]
    return outcome, partner


# what a system span prefers: same bounds and label / same bounds / same label, closest bounds
RULE = {"strict": "bounds+label", "exact": "bounds", "partial": "bounds", "ent_type": "closest"}


class _Candidates:
    """The matcher's pairs that overlap enough, with what the schemes' preferences read."""

    def __init__(self, pairs: Pairs, n_system: int, n_gold: int, threshold: Threshold = NERVALUATE_DEFAULT,
                 assignment: str = "many-to-many"):
        self.enough = meets(pairs, threshold)
        self.one_to_one = assignment == "one-to-one"
        self.bounds = (pairs.gold_only == 0) & (pairs.system_only == 0)
        self.same = pairs.same_label
        self.dist = pairs.distance       # |start diff| + |end diff| of overlapping spans
        self.pairs, self.n_system, self.n_gold = pairs, n_system, n_gold
        self._memo: Dict[Tuple[str, bool], Tuple[np.ndarray, np.ndarray]] = {}

    def choose(self, scheme: str, by_label: bool) -> Tuple[np.ndarray, np.ndarray]:
        """:func:`_outcomes` of a scheme, over all spans or (``by_label``) each label's spans alone."""
        rule = RULE[scheme]
        if by_label and rule == "bounds+label":
            rule = "bounds"                    # one label: strict is exact
        if (rule, by_label) not in self._memo:
            mask = self.enough & self.same if by_label else self.enough
            if rule == "closest":
                first, rank = self.same, np.where(self.same, self.dist, 0)
            else:
                first = self.bounds & self.same if rule == "bounds+label" else self.bounds
                rank = np.zeros(len(first), np.int64)
            if self.one_to_one:
                self._memo[rule, by_label] = self._matched(mask, first)
            else:
                self._memo[rule, by_label] = _outcomes(self.pairs.system[mask], self.pairs.gold[mask], first[mask],
                                                       rank[mask], self.n_system, self.n_gold)
        return self._memo[rule, by_label]

    def _matched(self, mask: np.ndarray, first: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """:func:`_outcomes`'s arrays from a maximum matching of the candidates (assignment one-to-one)."""
        chosen = np.flatnonzero(one_to_one(self.pairs, mask, first))
        outcome = np.full(self.n_system, -1, np.int8)
        partner = np.full(self.n_system, -1, np.int64)
        sys_ = self.pairs.system[chosen]
        outcome[sys_] = np.where(first[chosen], 0, 1)
        partner[sys_] = self.pairs.gold[chosen]
        return outcome, partner

    def codes(self, scheme: str, by_label: bool) -> SpanOutcomes:
        outcome, partner = self.choose(scheme, by_label)
        second = PAR if scheme == "partial" else INC
        system = np.where(outcome == 0, COR, np.where(outcome == 1, second, SPU)).astype(np.int8)
        gold_system = np.full(self.n_gold, -1, np.int64)
        hit = np.flatnonzero(partner >= 0)
        gold_system[partner[hit]] = hit
        gold = np.where(gold_system >= 0, system[np.maximum(gold_system, 0)] if len(system) else MIS,
                        MIS).astype(np.int8)
        return SpanOutcomes(system, partner, gold, gold_system)


@dataclass(eq=False)   # (arrays: a field-wise == has no truth value)
class SpanOutcomes:
    """Every span's category under one scheme, as codes into :data:`COUNTS` (0 correct,
    1 incorrect, 2 partial, 3 missed, 4 spurious), with the span it was matched to."""

    system: np.ndarray        # per system span: correct / incorrect / partial / spurious
    system_gold: np.ndarray   # the gold span it took (-1: spurious)
    gold: np.ndarray          # per gold span: the category of the system span that took it, or missed
    gold_system: np.ndarray   # that system span (-1: missed)


def _candidates(gold: SpanSet, system: SpanSet, pairs: Optional[Pairs], matching: Optional[MatchSettings],
                min_overlap_percentage: Optional[float]) -> _Candidates:
    if pairs is None:
        pairs = match(gold, system)
    assignment = matching.assignment if matching is not None else "many-to-many"
    return _Candidates(pairs, len(system), len(gold), threshold_of(matching, min_overlap_percentage), assignment)


def span_outcomes(gold: SpanSet, system: SpanSet, pairs: Optional[Pairs] = None, *, scheme: str = "strict",
                  by_label: bool = False, matching: Optional[MatchSettings] = None,
                  min_overlap_percentage: Optional[float] = None) -> SpanOutcomes:
    """Each span's category under ``scheme``: in the ``overall`` evaluation, or (``by_label``)
    in its label's own evaluation (the label rows).  nervaluate's ``*_indices``, per span.
    ``matching``: the matcher's settings (threshold, assignment); ``min_overlap_percentage``:
    nervaluate's keyword (the threshold ``nervaluate:P``)."""
    if scheme not in SCHEMES:
        raise OptionError(f"unknown scheme {scheme!r}; expected one of {', '.join(SCHEMES)}")
    return _candidates(gold, system, pairs, matching, min_overlap_percentage).codes(scheme, by_label)


def scheme_outcomes(gold: SpanSet, system: SpanSet, pairs: Optional[Pairs] = None, by_label: bool = False,
                    matching: Optional[MatchSettings] = None,
                    min_overlap_percentage: Optional[float] = None) -> Dict[str, SpanOutcomes]:
    """:func:`span_outcomes` of every scheme of :data:`SCHEMES` (one reading of the matcher's pairs)."""
    cand = _candidates(gold, system, pairs, matching, min_overlap_percentage)
    return {scheme: cand.codes(scheme, by_label) for scheme in SCHEMES}


# ---------------------------------------------------------------------------
# per-sentence counts


def semeval_stats(corpus: Corpus, gold: SpanSet, system: SpanSet, pairs: Optional[Pairs] = None,
                  min_overlap_percentage: Optional[float] = None, per_sentence: bool = True,
                  matching: Optional[MatchSettings] = None, unplaced: Optional[Unplaced] = None) -> np.ndarray:
    """(sentences, (1 + labels) x 4 schemes x 5) counts: the overall row then one row per label, each for
    every scheme of :data:`SCHEMES` COR, INC, PAR, MIS, SPU of :data:`COUNTS`.  Sums over any set of
    sentences are that set's counts (:func:`scores_of_sums` turns them into scores).
    ``per_sentence=False``: one row, the corpus totals (what a report needs, without the sentences x k
    matrix)."""
    cand = _candidates(gold, system, pairs, matching, min_overlap_percentage)
    L = len(corpus.labels)
    if per_sentence:
        S, g_sent, s_sent = corpus.n_sentences, corpus.sentence_of(gold.start), corpus.sentence_of(system.start)
    else:
        S, g_sent, s_sent = 1, np.zeros(len(gold), np.int64), np.zeros(len(system), np.int64)
    R, K = 1 + L, len(COUNTS)
    out = np.zeros((S, R, len(SCHEMES), K))
    for k, scheme in enumerate(SCHEMES):
        for by_label in (False, True):
            o = cand.codes(scheme, by_label)
            s_row = 1 + system.label.astype(np.int64) if by_label else 0
            g_row = 1 + gold.label.astype(np.int64) if by_label else 0
            miss = o.gold == MIS
            key = np.concatenate([(s_sent * R + s_row) * K + o.system,
                                  ((g_sent * R + g_row) * K + MIS)[miss]])
            out[:, :, k] += np.bincount(key, minlength=S * R * K).reshape(S, R, K)
    if unplaced is not None and len(unplaced):    # spans on no token: spurious in every scheme and row
        u_sent = unplaced.sentence if per_sentence else np.zeros(len(unplaced), np.int64)
        for row in (np.zeros(len(unplaced), np.int64), 1 + unplaced.label.astype(np.int64)):
            out[..., SPU] += np.bincount(u_sent * R + row, minlength=S * R).reshape(S, R, 1)
    return out.reshape(S, -1)


# ---------------------------------------------------------------------------
# scores of summed counts


def scores_of_sums(x: np.ndarray, n_labels: Optional[int] = None, beta: float = 1.0,
                   partial_weight: float = 0.5) -> Dict[str, np.ndarray]:
    """Counts and scores, each (..., 4 schemes, 1 + labels), of summed :func:`semeval_stats`
    columns (any leading axes, e.g. bootstrap resamples; labels inferred from the width: the overall
    rows alone are a width of no label); a partial match counts ``partial_weight`` of a correct one."""
    if n_labels is None:
        n_labels = np.shape(x)[-1] // (len(SCHEMES) * len(COUNTS)) - 1
    c = np.asarray(x, float).reshape(np.shape(x)[:-1] + (1 + n_labels, len(SCHEMES), len(COUNTS))).swapaxes(-3, -2)
    cor, inc, par, mis, spu = (c[..., k] for k in range(len(COUNTS)))
    possible = cor + inc + par + mis
    actual = cor + inc + par + spu
    credit = np.array([PARTIAL_CREDIT[s] for s in SCHEMES])[:, None] * float(partial_weight)
    hits = cor + credit * par
    p, r, f = measures.prf(hits, actual - hits, possible - hits, beta)
    out = {name: c[..., k] for k, name in enumerate(COUNTS)}
    out.update(possible=possible, actual=actual, precision=np.asarray(p), recall=np.asarray(r), f=np.asarray(f))
    return out


def scheme_f(x: np.ndarray, scheme: str, beta: float = 1.0, partial_weight: float = 0.5) -> np.ndarray:
    """Overall F-beta of one scheme from summed statistics (a ranking model's score): :func:`scores_of_sums`'
    numbers (each element its own), computed for that scheme's overall row alone."""
    n_labels = np.shape(x)[-1] // (len(SCHEMES) * len(COUNTS)) - 1
    k = SCHEMES.index(scheme)
    c = np.asarray(x, float).reshape(np.shape(x)[:-1] + (1 + n_labels, len(SCHEMES), len(COUNTS)))[..., 0, k, :]
    cor, inc, par, mis, spu = (c[..., j] for j in range(len(COUNTS)))
    hits = cor + PARTIAL_CREDIT[scheme] * float(partial_weight) * par
    _, _, f = measures.prf(hits, cor + inc + par + spu - hits, cor + inc + par + mis - hits, beta)
    return np.asarray(f)


def semeval_result(totals: np.ndarray, labels: Sequence[str], beta: float = 1.0,
                   min_overlap_percentage: Optional[float] = None, *, matching: Optional[MatchSettings] = None,
                   partial_weight: float = 0.5) -> Dict[str, Any]:
    """The report entry of summed counts: per scheme ``overall`` and ``labels`` rows with
    correct, incorrect, partial, missed, spurious, possible, actual (also under the
    shared names ``gold`` and ``system``), precision, recall, f; label rows say whether
    the label has gold or system spans (``present``: the labels nervaluate lists); then the
    settings: ``min_overlap`` (the threshold), ``min_overlap_percentage`` (nervaluate's, when the
    threshold is one), ``assignment`` and ``partial_weight``."""
    sc = scores_of_sums(totals, len(labels), beta, partial_weight)

    def row(k: int, j: int) -> Dict[str, Any]:
        r: Dict[str, Any] = {name: int(sc[name][k, j]) for name in COUNTS + ("possible", "actual")}
        r["gold"], r["system"] = r["possible"], r["actual"]
        r.update({name: float(sc[name][k, j]) for name in ("precision", "recall", "f")})
        return r

    out: Dict[str, Any] = {}
    for k, scheme in enumerate(SCHEMES):
        rows = {}
        for j, lab in enumerate(labels, start=1):
            r = row(k, j)
            r["present"] = r["possible"] + r["actual"] > 0
            rows[lab] = r
        out[scheme] = {"overall": row(k, 0), "labels": rows}
    threshold = threshold_of(matching, min_overlap_percentage)
    out["min_overlap"] = str(threshold)
    out["min_overlap_percentage"] = float(threshold.value) if threshold.kind == "nervaluate" else None
    out["assignment"] = matching.assignment if matching is not None else "many-to-many"
    out["partial_weight"] = float(partial_weight)
    return out


def semeval_model(corpus: Corpus, system: SpanSet, beta: float = 1.0, pairs: Optional[Pairs] = None,
                  min_overlap_percentage: Optional[float] = None, *, matching: Optional[MatchSettings] = None,
                  partial_weight: float = 0.5) -> Dict[str, Any]:
    """The four schemes for one system of ``corpus`` (see :func:`semeval_result`)."""
    totals = semeval_stats(corpus, corpus.gold, system, pairs, min_overlap_percentage, per_sentence=False,
                           matching=matching)[0]
    return semeval_result(totals, corpus.labels, beta, min_overlap_percentage, matching=matching,
                          partial_weight=check_partial_weight(partial_weight))


# ---------------------------------------------------------------------------
# the declaration


def stats(sd: SystemData, settings: ScoreSettings = RANK_SETTINGS, sentences: bool = True) -> np.ndarray:
    """(sentences, (1 + labels) x 4 schemes x 5 counts) of one system (:func:`semeval_stats`; ``sentences``
    False: their totals)."""
    corpus = sd.cd.corpus
    return semeval_stats(corpus, corpus.gold, sd.spans, sd.pairs, per_sentence=sentences, matching=sd.cd.matching,
                         unplaced=sd.unplaced)


def result(tally: Tally, totals: Totals) -> Dict[str, Any]:
    """``score``'s result: per scheme ``overall`` and per-label rows (see :func:`semeval_result`)."""
    return semeval_result(tally.sums, totals.labels, totals.settings.beta, matching=totals.settings.matching,
                          partial_weight=totals.settings.partial_weight)


def semeval_split(sd: SystemData) -> Contributions:
    """nervaluate's categories of the overall row per scheme: COR, INC and PAR where the gold span the
    system span took falls, SPU where the system span falls, MIS where the gold span falls."""
    gold, system = sd.cd.corpus.gold, sd.spans
    K = len(COUNTS)
    parts = []
    for k, scheme in enumerate(SCHEMES):
        o = span_outcomes(gold, system, sd.pairs, scheme=scheme)
        took = o.system_gold >= 0
        parts.append((0, o.system_gold[took], k * K + o.system[took], np.ones(int(took.sum()))))
        spu = np.flatnonzero(~took)
        parts.append((1, spu, k * K + o.system[spu], np.ones(len(spu))))
        mis = np.flatnonzero(o.gold == MIS)
        parts.append((0, mis, np.full(len(mis), k * K + MIS), np.ones(len(mis))))
    return Contributions.of(parts, len(SCHEMES) * K)


_TEXT = {
    "strict": "exact bounds and label (COR / actual, COR / possible)",
    "exact": "exact bounds, any label",
    "partial": "bounds overlap, any label; a partial match counts half (partial_weight)",
    "ent_type": "same label, bounds overlap",
}
SHOWN = COUNTS + ("possible", "actual")     # the counts beside a score
register(ModelSpec(
    "semeval", "nervaluate's SemEval-2013 schemes strict, exact, partial, ent_type", stats,
    (len(SCHEMES) * len(COUNTS), len(SCHEMES) * len(COUNTS)),
    tuple(Score(f"semeval-{s.replace('_', '-')}-f1", f"SE-{s.replace('_', '-')}", partial(scheme_f, scheme=s),
                f"SemEval-2013 {s} F1 as nervaluate counts it, overall: {_TEXT[s]}",
                options=("partial_weight",) if PARTIAL_CREDIT[s] else (), reported=(s, "overall", "f"))
          for s in SCHEMES),
    result, rank_whole=True, matched=True, group=True, display=Display(
        "SemEval-2013 (nervaluate), overall F",
        tuple(ResultColumn(f"semeval_{k}_f", f"SE {k} F", (k, "overall", "f"), counts=SHOWN) for k in SCHEMES),
        ResultColumn("semeval", "SemEval strict F", ("strict", "overall", "f")),
        ResultColumn("semeval", "SemEval partial F", ("partial", "overall", "f")),
        gloss="SemEval is nervaluate's strict and partial schemes", tables=("semeval",)),
    split=semeval_split, counts=lambda block: block[..., :len(SCHEMES) * len(COUNTS)], count_names=COUNTS,
    count_groups=SCHEMES))
