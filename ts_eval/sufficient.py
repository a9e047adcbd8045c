"""Per-sentence sufficient statistics and the registry of evaluation models for ranking.

A *model* is a name, a function that turns one system's annotation into a matrix of
per-sentence statistics (sentences x k counts, e.g. per label TS token/separator
TP/FP/FN, or exact-match gold/found/correct), and a function that turns statistics
*summed* over any multiset of sentences into a score.  Every score in this module is
such a function of sums, so a bootstrap resample or a permutation of sentences is a
matrix product of weight counts with the statistics, never a re-evaluation.

Statistics are computed for the whole corpus at once (``bincount`` on the sentence
ids of spans and of the matcher's pairs); nothing loops over sentences.  The span
models read the pairs of the shared matcher (:func:`ts_eval.matching.match`); the TS
counts read the matcher's pairs of the per-label *merged* spans (merged spans of one
label are disjoint, so the shared tokens of same-label pairs are exactly the TP
tokens, and a pair sharing t tokens shares t-1 separators).

Fair and weighted F1 are per-sentence tallies of the per-span outcomes of
:func:`ts_eval.fair.fair_errors`; GermEval Metric 1 is :data:`ts_eval.germeval.RANK_MODEL`.
When one of those modules is missing its models are listed in :data:`UNAVAILABLE` with
the reason, and :func:`get_model` says it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Callable, Dict, Hashable, List, Optional, Sequence, Tuple

import numpy as np

from .arrays import unique

from . import measures
from .corpus import Corpus, SpanSet
from .errors import UsageError
from .events import merge_overlaps
from .matching import Pairs, match
from .segment import acceptable, model_limits

# ---------------------------------------------------------------------------
# per-corpus / per-system context (shared intermediate results, computed lazily)


class CorpusData:
    """A corpus with the per-sentence facts every statistics function needs."""

    def __init__(self, corpus: Corpus):
        self.corpus = corpus
        self.n_sentences = corpus.n_sentences
        self.n_labels = len(corpus.labels)
        self.sentence_lengths = np.diff(corpus.sent_offsets).astype(float)
        self._merged_gold: Optional[Tuple[SpanSet, np.ndarray]] = None
        self._gold_key: Optional[np.ndarray] = None
        self._systems: Dict[str, SystemData] = {}

    def key(self, spans: SpanSet) -> np.ndarray:
        """sentence * labels + label of every span (the bincount key of per-sentence per-label counts)."""
        return self.corpus.sentence_of(spans.start) * self.n_labels + spans.label.astype(np.int64)

    def bincount(self, key: np.ndarray, weights=None) -> np.ndarray:
        """Counts per (sentence, label) as a (sentences, labels) array."""
        size = self.n_sentences * self.n_labels
        out = np.bincount(key, weights=weights, minlength=size)[:size]
        return out.reshape(self.n_sentences, self.n_labels).astype(float)

    @property
    def gold_key(self) -> np.ndarray:
        if self._gold_key is None:
            self._gold_key = self.key(self.corpus.gold)
        return self._gold_key

    @property
    def merged_gold(self) -> Tuple[SpanSet, np.ndarray]:
        if self._merged_gold is None:
            g = merge_overlaps(self.corpus.gold)
            self._merged_gold = (g, self.key(g))
        return self._merged_gold

    def system(self, name: str) -> "SystemData":
        if name not in self._systems:
            self._systems[name] = SystemData(self, name)
        return self._systems[name]


class SystemData:
    """One system of a corpus: its spans, the matcher's pairs, and cached statistics."""

    def __init__(self, cd: CorpusData, name: str):
        self.cd = cd
        self.name = name
        self.spans = cd.corpus.systems[name]
        self._pairs: Optional[Pairs] = None
        self._key: Optional[np.ndarray] = None
        self.cache: Dict[Hashable, np.ndarray] = {}

    @property
    def pairs(self) -> Pairs:
        """The shared matcher's gold x system pairs (computed once per system)."""
        if self._pairs is None:
            self._pairs = match(self.cd.corpus.gold, self.spans)
        return self._pairs

    @property
    def key(self) -> np.ndarray:
        if self._key is None:
            self._key = self.cd.key(self.spans)
        return self._key

    def stats(self, fn: "StatsFn") -> np.ndarray:
        if fn not in self.cache:
            out = np.asarray(fn(self), float)
            if out.ndim != 2 or out.shape[0] != self.cd.n_sentences:
                raise ValueError(f"statistics function {fn!r} returned shape {out.shape}, "
                                 f"expected ({self.cd.n_sentences}, k)")
            self.cache[fn] = out
        return self.cache[fn]


StatsFn = Callable[[SystemData], np.ndarray]      # -> (sentences, k)
ScoreFn = Callable[[np.ndarray], np.ndarray]      # (..., k) summed statistics -> (...) scores

# ---------------------------------------------------------------------------
# statistics

TS_FIELDS = ("tok_tp", "tok_fp", "tok_fn", "sep_tp", "sep_fp", "sep_fn")
SEGMENT_FIELDS = ("gold", "found", "gold_hit", "found_hit")


def ts_stats(sd: SystemData) -> np.ndarray:
    """(sentences, 2 + 6 * labels): tokens, separators, then per label the token and
    separator TP, FP, FN (unit counts; any separator weight is applied when scoring)."""
    cd = sd.cd
    g, gkey = cd.merged_gold
    s = merge_overlaps(sd.spans)
    skey = cd.key(s)
    p = match(g, s)
    same = p.same_label
    pkey = gkey[p.gold[same]]
    shared = p.overlap[same].astype(float)
    tp_tok, tp_sep = cd.bincount(pkey, shared), cd.bincount(pkey, shared - 1)
    glen, slen = (g.end - g.start + 1).astype(float), (s.end - s.start + 1).astype(float)
    g_tok, g_sep = cd.bincount(gkey, glen), cd.bincount(gkey, glen - 1)
    s_tok, s_sep = cd.bincount(skey, slen), cd.bincount(skey, slen - 1)
    per = np.stack([tp_tok, s_tok - tp_tok, g_tok - tp_tok, tp_sep, s_sep - tp_sep, g_sep - tp_sep], axis=-1)
    n = cd.sentence_lengths
    return np.column_stack([n, n - 1, per.reshape(cd.n_sentences, -1)])


def segment_stats(sd: SystemData, model: str = "exact", k1: Optional[int] = None,
                  k2: Optional[int] = None) -> np.ndarray:
    """(sentences, 4 * labels): per label gold spans, system spans, gold spans hit, system
    spans hit under a segment model (exact, overlap, constrained, contain), from the
    matcher's pairs exactly as :func:`ts_eval.segment.segment_counts` counts them."""
    cd = sd.cd
    pairs = sd.pairs
    ok = acceptable(pairs, *model_limits(model, k1, k2))
    g_hit = unique(pairs.gold[ok])
    s_hit = unique(pairs.system[ok])
    per = np.stack([cd.bincount(cd.gold_key), cd.bincount(sd.key),
                    cd.bincount(cd.gold_key[g_hit]), cd.bincount(sd.key[s_hit])], axis=-1)
    return per.reshape(cd.n_sentences, -1)


# one object per statistics family: models that share it share one computation
TS_STATS: StatsFn = ts_stats
EXACT_STATS: StatsFn = partial(segment_stats, model="exact")
OVERLAP_STATS: StatsFn = partial(segment_stats, model="overlap")
CONSTRAINED_STATS: StatsFn = partial(segment_stats, model="constrained")
CONTAIN_STATS: StatsFn = partial(segment_stats, model="contain")

# ---------------------------------------------------------------------------
# scores of summed statistics (vectorised over any leading axes)


def _masked_mean(values: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Mean over the last axis of the present entries; 0.0 where none is present (measures.macro)."""
    k = present.sum(-1)
    total = np.where(present, values, 0.0).sum(-1)
    return np.where(k > 0, total / np.maximum(k, 1), 0.0)


def ts_table(x: np.ndarray, separator_weight: float = 1.0):
    """Per-label weighted tp, fp, fn, tn (each (..., labels)) from summed TS statistics."""
    x = np.asarray(x, float)
    per = x[..., 2:].reshape(x.shape[:-1] + (-1, 6))
    w = float(separator_weight)
    tp = per[..., 0] + w * per[..., 3]
    fp = per[..., 1] + w * per[..., 4]
    fn = per[..., 2] + w * per[..., 5]
    return tp, fp, fn, ts_units(x, w)[..., None] - tp - fp - fn


def ts_units(x: np.ndarray, separator_weight: float = 1.0) -> np.ndarray:
    """Weighted number of units (...,) of summed TS statistics: tokens + w * separators."""
    x = np.asarray(x, float)
    return x[..., 0] + float(separator_weight) * x[..., 1]


def ts_f1(x: np.ndarray, separator_weight: float = 1.0, average: str = "macro", beta: float = 1.0) -> np.ndarray:
    tp, fp, fn, _ = ts_table(x, separator_weight)
    if average == "micro":
        return np.asarray(measures.fbeta(tp.sum(-1), fp.sum(-1), fn.sum(-1), beta))
    return _masked_mean(measures.fbeta(tp, fp, fn, beta), (tp + fp + fn) > 0)


def ts_kappa(x: np.ndarray, separator_weight: float = 1.0, average: str = "macro") -> np.ndarray:
    tp, fp, fn, tn = ts_table(x, separator_weight)
    if average == "micro":   # over the labels present in the (resampled) sums, as score's micro table
        return np.asarray(measures.kappa(*measures.micro_table(tp, fp, fn, ts_units(x, separator_weight))))
    return _masked_mean(np.asarray(measures.kappa(tp, fp, fn, tn)), (tp + fp + fn) > 0)


def segment_f1(x: np.ndarray, average: str = "micro", beta: float = 1.0) -> np.ndarray:
    per = np.asarray(x, float).reshape(np.shape(x)[:-1] + (-1, 4))
    gold, found, g_hit, f_hit = (per[..., i] for i in range(4))
    if average == "micro":
        gold, found, g_hit, f_hit = (a.sum(-1) for a in (gold, found, g_hit, f_hit))
    p = measures.precision(f_hit, found - f_hit)
    r = measures.recall(g_hit, gold - g_hit)
    f = measures.f_from_pr(p, r, beta)
    if average == "micro":
        return np.asarray(f)
    return _masked_mean(np.asarray(f), (gold + found) > 0)


# ---------------------------------------------------------------------------
# the registry


@dataclass(frozen=True)
class Model:
    """An evaluation model for ranking: per-sentence statistics + a score of their sums."""

    name: str
    title: str                 # short column header (paper notation)
    stats: StatsFn
    score: ScoreFn
    description: str = ""


REGISTRY: Dict[str, Model] = {}
UNAVAILABLE: Dict[str, str] = {}   # name -> why it cannot be used here


def register(model: Model) -> Model:
    """Add a model (a later registration under the same name replaces the earlier one)."""
    REGISTRY[model.name] = model
    UNAVAILABLE.pop(model.name, None)
    return model


for _m in (
    Model("exact-f1-micro", "Seg-F1µ", EXACT_STATS, partial(segment_f1, average="micro"),
          "segment exact match F1, micro (conlleval; the official CoNLL score)"),
    Model("exact-f1-macro", "Seg-F1M", EXACT_STATS, partial(segment_f1, average="macro"),
          "segment exact match F1, macro over labels"),
    Model("ts-f1-micro", "TS-F1µ", TS_STATS, partial(ts_f1, separator_weight=1.0, average="micro"),
          "token & separator F1, micro"),
    Model("ts-f1-macro", "TS-F1M", TS_STATS, partial(ts_f1, separator_weight=1.0, average="macro"),
          "token & separator F1, macro (Esuli & Sebastiani's proposed model)"),
    Model("t-f1-micro", "T-F1µ", TS_STATS, partial(ts_f1, separator_weight=0.0, average="micro"),
          "token-only F1, micro (separator weight 0)"),
    Model("t-f1-macro", "T-F1M", TS_STATS, partial(ts_f1, separator_weight=0.0, average="macro"),
          "token-only F1, macro (separator weight 0)"),
    Model("ts-kappa-micro", "TS-κµ", TS_STATS, partial(ts_kappa, separator_weight=1.0, average="micro"),
          "token & separator Cohen's kappa, micro (summed tables)"),
    Model("ts-kappa-macro", "TS-κM", TS_STATS, partial(ts_kappa, separator_weight=1.0, average="macro"),
          "token & separator Cohen's kappa, macro over labels"),
    Model("overlap-f1-micro", "Ov-F1µ", OVERLAP_STATS, partial(segment_f1, average="micro"),
          "segment overlap model F1, micro (a same-label span sharing a token is a hit)"),
    Model("overlap-f1-macro", "Ov-F1M", OVERLAP_STATS, partial(segment_f1, average="macro"),
          "segment overlap model F1, macro"),
    Model("constrained-f1-micro", "Co-F1µ", CONSTRAINED_STATS, partial(segment_f1, average="micro"),
          "constrained overlap F1, micro (k1 = k2 = 1)"),
    Model("contain-f1-micro", "Ct-F1µ", CONTAIN_STATS, partial(segment_f1, average="micro"),
          "contain model F1, micro (system span contains the gold span)"),
):
    register(_m)


DEFAULT_MODELS: Tuple[str, ...] = (
    "exact-f1-micro", "exact-f1-macro", "ts-f1-micro", "ts-f1-macro", "t-f1-macro",
    "ts-kappa-micro", "ts-kappa-macro", "fair-f1", "weighted-f1", "overlap-f1-micro",
)
PAPER_MODELS: Tuple[str, ...] = ("exact-f1-micro", "ts-f1-macro", "t-f1-macro")
REFERENCE_MODEL = "exact-f1-micro"


def default_models(corpus: Optional[Corpus] = None) -> List[str]:
    """The default model list, leaving out those whose modules are not available; with a
    corpus read from GermEval-layout files, GermEval Metric 1 (the official score) too."""
    out = [m for m in DEFAULT_MODELS if m in REGISTRY]
    if corpus is not None and "germeval-m1" in REGISTRY and corpus.system_info and all(
            getattr(i, "metric1", None) is not None for i in corpus.system_info.values()):
        out.append("germeval-m1")
    return out


def get_model(name: str) -> Model:
    if name in REGISTRY:
        return REGISTRY[name]
    if name in UNAVAILABLE:
        raise UsageError(f"model {name!r} is not available: {UNAVAILABLE[name]}")
    raise UsageError(f"unknown model {name!r}; available: {', '.join(REGISTRY)}")


def resolve_models(names: Optional[Sequence[str]], corpus: Optional[Corpus] = None) -> List[Model]:
    names = default_models(corpus) if names is None else [n for g in names for n in GROUPS.get(g, (g,))]
    if not names:
        raise UsageError("no model given")
    seen = set()
    for n in names:
        if n in seen:
            raise UsageError(f"model {n!r} is given twice")
        seen.add(n)
    return [get_model(n) for n in names]


# ---------------------------------------------------------------------------
# the statistics of many systems x models as one matrix


@dataclass
class StatsMatrix:
    """Per-unit statistics of every system and statistics family, side by side.

    ``data`` has one row per unit (sentence or document) and, for each statistics
    family f, ``n_systems * k_f`` columns (system-major inside the family), so a
    model's summed statistics of all systems are ``sums[..., cols].reshape(..., n, k_f)``.
    """

    systems: List[str]
    models: List[Model]
    data: np.ndarray                        # (units, K)
    family_cols: Dict[Hashable, Tuple[int, int]]  # family -> (first column, k per system)
    unit: str = "sentence"
    unit_sizes: Optional[np.ndarray] = None  # sentences per unit
    _totals: Optional[np.ndarray] = field(default=None, repr=False)

    @property
    def n_units(self) -> int:
        return self.data.shape[0]

    @property
    def totals(self) -> np.ndarray:
        if self._totals is None:
            self._totals = self.data.sum(0)
        return self._totals

    def block(self, sums: np.ndarray, model: Model) -> np.ndarray:
        """(..., systems, k) summed statistics of one model's family."""
        first, k = self.family_cols[model.stats]
        n = len(self.systems)
        return sums[..., first:first + n * k].reshape(sums.shape[:-1] + (n, k))

    def scores(self, sums: np.ndarray) -> np.ndarray:
        """(..., systems, models) scores of summed statistics ``sums`` (..., K)."""
        return np.stack([np.asarray(m.score(self.block(sums, m)), float) for m in self.models], axis=-1)


def unit_ids(corpus: Corpus, unit: str = "sentence") -> np.ndarray:
    """The resampling unit of every sentence: itself, or its document (from -DOCSTART-)."""
    if unit == "sentence":
        return np.arange(corpus.n_sentences)
    if unit == "document":
        if corpus.doc_offsets is None or len(corpus.doc_offsets) < 2:
            raise UsageError("--unit document needs documents, but the gold file has no -DOCSTART- lines")
        doc = np.searchsorted(np.asarray(corpus.doc_offsets), corpus.sent_offsets[:-1], side="right") - 1
        return np.unique(doc, return_inverse=True)[1].reshape(-1)   # drop empty documents
    raise UsageError(f"unknown unit {unit!r}; expected sentence or document")


def sentence_statistics(corpus: Corpus, models: Sequence[Model], systems: Optional[Sequence[str]] = None,
                        cd: Optional[CorpusData] = None) -> Tuple[np.ndarray, Dict[Hashable, Tuple[int, int]]]:
    """(sentences, K) statistics of every system for the families of ``models``."""
    cd = cd or CorpusData(corpus)
    systems = list(corpus.systems) if systems is None else list(systems)
    families: List[StatsFn] = []
    for m in models:
        if m.stats not in families:
            families.append(m.stats)
    blocks, cols, first = [], {}, 0
    for fam in families:
        per = [cd.system(name).stats(fam) for name in systems]
        k = per[0].shape[1]
        if any(p.shape[1] != k for p in per):
            raise ValueError(f"statistics family {fam!r} gives different widths for different systems")
        blocks.extend(per)
        cols[fam] = (first, k)
        first += k * len(systems)
    data = np.concatenate(blocks, axis=1) if blocks else np.zeros((corpus.n_sentences, 0))
    return data, cols


def statistics(corpus: Corpus, models: Sequence[Model], unit: str = "sentence",
               systems: Optional[Sequence[str]] = None) -> StatsMatrix:
    """The :class:`StatsMatrix` of a corpus, per sentence or per document."""
    systems = list(corpus.systems) if systems is None else list(systems)
    data, cols = sentence_statistics(corpus, models, systems)
    ids = unit_ids(corpus, unit)
    sizes = np.bincount(ids).astype(float)
    if unit != "sentence":
        starts = np.flatnonzero(np.diff(ids, prepend=-1) != 0)
        if np.all(np.diff(ids) >= 0):
            data = np.add.reduceat(data, starts, axis=0) if len(data) else data
        else:  # not contiguous (cannot happen for -DOCSTART- documents): general sum
            out = np.zeros((ids.max() + 1, data.shape[1]))
            np.add.at(out, ids, data)
            data = out
    return StatsMatrix(systems, list(models), data, cols, unit, sizes)


# ---------------------------------------------------------------------------
# models of modules written elsewhere: registered when they are importable


FAIR_CODES = ("TP", "FP", "FN", "LE", "BES", "BEL", "BEO", "LBE")   # ts_eval.fair.OUTCOME_NAMES


def fair_stats(sd: SystemData) -> np.ndarray:
    """(sentences, 8 * labels): per label the counts of Ortmann's outcomes TP, FP, FN, LE,
    BES, BEL, BEO, LBE (focus on the target label, the paper's mode).

    :func:`ts_eval.fair.fair_errors` (on the matcher's pairs) says what every span was
    counted as; every error is counted once: each gold span's outcome, plus the outcome
    of each system span that was not counted together with a gold span (FP, or a span
    that joined an already matched gold span).  An error is filed under the sentence of
    its span and the label the reference files it under (the system label for FP, the
    gold label otherwise), so the sums are :attr:`ts_eval.fair.FairResult.fair`.
    """
    from . import fair

    cd = sd.cd
    corpus = cd.corpus
    res = fair.fair_errors(corpus.gold, sd.spans, sd.pairs, corpus.labels, corpus, "target")
    o = res.outcomes
    gold, system = corpus.gold, sd.spans
    L = cd.n_labels
    only = ~o.system_shared
    s_idx = np.flatnonzero(only)
    s_code = o.system_type[only].astype(np.int64)
    partner = o.system_partner[only]
    s_label = np.where(s_code == fair.FP, system.label[s_idx],
                       gold.label[np.maximum(partner, 0)] if len(gold) else 0).astype(np.int64)
    g_key = cd.gold_key * 8 + o.gold_type.astype(np.int64)
    s_key = (corpus.sentence_of(system.start[s_idx]) * L + s_label) * 8 + s_code
    size = cd.n_sentences * L * 8
    counts = np.bincount(np.concatenate([g_key, s_key]), minlength=size)[:size]
    return counts.reshape(cd.n_sentences, L * 8).astype(float)


def _fair_weight_matrix(weights) -> np.ndarray:
    """(8 outcomes, 3) weights of TP, FP, FN for each outcome code (BE weights cover BES/BEL/BEO)."""
    w = np.zeros((8, 3))
    for c, name in enumerate(FAIR_CODES):
        terms = weights.get(name)
        if terms is None and name in ("BES", "BEL", "BEO"):
            terms = weights.get("BE")
        if terms:
            w[c] = [terms.get("TP", 0), terms.get("FP", 0), terms.get("FN", 0)]
    return w


def fair_f1(x: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Overall (label-summed) F1 of weighted fair counts: TP, FP, FN = counts @ weights."""
    per = np.asarray(x, float).reshape(np.shape(x)[:-1] + (-1, 8)).sum(-2)
    tp, fp, fn = np.moveaxis(per @ weights, -1, 0)
    p = measures.precision(tp, fp)
    r = measures.recall(tp, fn)
    return np.asarray(measures.f_from_pr(p, r))


FAIR_STATS: StatsFn = fair_stats


def _register_optional() -> None:
    try:
        from . import fair
    except ImportError as err:
        for name in ("fair-f1", "weighted-f1"):
            UNAVAILABLE[name] = f"needs ts_eval.fair (Ortmann's fair and weighted F1), which is missing ({err})"
    else:
        eq5 = _fair_weight_matrix(fair.parse_weights("eq5"))
        eq7 = _fair_weight_matrix(fair.parse_weights("eq7"))
        register(Model("fair-f1", "Fair-F1", FAIR_STATS, partial(fair_f1, weights=eq5),
                       "Ortmann's fair F1, overall: LE, BE, LBE count half FP and half FN (eq. 5)"))
        register(Model("weighted-f1", "W-F1", FAIR_STATS, partial(fair_f1, weights=eq7),
                       "Ortmann's weighted F1, overall, eq. 7 weights (a boundary error is half a TP; LE and "
                       "LBE half FP, half FN); F1 is the same under eq. 6"))
    try:
        from . import germeval
    except ImportError as err:
        UNAVAILABLE["germeval-m1"] = f"needs ts_eval.germeval (GermEval 2014 Metric 1), which is missing ({err})"
    else:
        spec = getattr(germeval, "RANK_MODEL", None)
        if spec is None:
            UNAVAILABLE["germeval-m1"] = "ts_eval.germeval has no RANK_MODEL entry"
        else:
            register(Model(**spec))


_register_optional()


# nervaluate's SemEval-2013 schemes (ts_eval.semeval); the name "semeval" stands for all four
from . import semeval as _semeval  # noqa: E402

for _spec in _semeval.RANK_MODELS:
    register(Model(**_spec))
GROUPS: Dict[str, Tuple[str, ...]] = {"semeval": tuple(_spec["name"] for _spec in _semeval.RANK_MODELS)}
