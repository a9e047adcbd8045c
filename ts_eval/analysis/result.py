"""What ``analyze`` returns: per attribute and bucket, every model's score of every system with its
counts and bootstrap interval, the rankings and rank correlations within the bucket, which
buckets account for the pairs two models order differently, and (two systems) the difference
per bucket with its paired test."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence

import numpy as np

from ..ranking.statistics import _clean
from ..results.display import Displayed, listing, number
from ..results.vocabulary import layout

if TYPE_CHECKING:   # types only: the error analysis is made in errors.py, which loads the models
    from .errors import ErrorAnalysis
    from .reference_steps import ReferenceSteps

FLIP_RULE = (
    "a system pair flips between models A and B when A puts one system strictly above the other and B the "
    "other way round (scores to 12 decimals); its gap is d_A - d_B, where d_M is the score of the system A "
    "puts higher minus the other's under model M (so the gap is > 0); removing a bucket (its spans, or its "
    "sentences, from both systems' statistics under both models, the other buckets' unchanged) changes the "
    "gap; the bucket that accounts for the flip is the bucket of the attribute whose removal shrinks the "
    "gap most (none when no removal shrinks it); a removal resolves the flip when without the bucket the two "
    "models no longer order the pair in opposite ways")


@dataclass
class PairFlip:
    """One system pair that two models order differently, and where it differs most."""

    better_under_a: str
    better_under_b: str
    gap: float                       # d_A - d_B > 0
    shrink: np.ndarray               # per bucket: gap - gap without the bucket
    resolved: np.ndarray             # per bucket: without it the flip is gone (bool)

    @cached_property
    def bucket(self) -> int:
        """The bucket that accounts for the flip (-1: none shrinks the gap)."""
        if not len(self.shrink) or not np.any(np.nan_to_num(self.shrink, nan=-np.inf) > 0):
            return -1
        return int(np.nanargmax(self.shrink))


@dataclass
class FlipAttribution:
    """The pairs models A and B order differently, attributed to the buckets of one attribute."""

    model_a: str
    model_b: str
    pairs_compared: int
    pairs: List[PairFlip]
    buckets: List[str]
    defined: bool = True             # False: a model has no value on this attribute's buckets

    @property
    def accounted(self) -> np.ndarray:
        """Per bucket, how many flips it accounts for."""
        out = np.zeros(len(self.buckets), np.int64)
        for p in self.pairs:
            if p.bucket >= 0:
                out[p.bucket] += 1
        return out

    @property
    def resolved(self) -> np.ndarray:
        """Per bucket, how many flips its removal alone resolves."""
        if not self.pairs:
            return np.zeros(len(self.buckets), np.int64)
        resolved: np.ndarray = np.sum([p.resolved for p in self.pairs], axis=0).astype(np.int64)
        return resolved

    def summary(self, attribute: str) -> str:
        n = len(self.pairs)
        if not self.defined:
            return f"{attribute}: not defined for {self.model_a} or {self.model_b} on these buckets"
        if not n:
            return f"no pair flips between {self.model_a} and {self.model_b}"
        acc = self.accounted
        k = int(np.argmax(acc))
        return (f"of the {n} pair{'s that flip' if n != 1 else ' that flips'} between {self.model_a} and "
                f"{self.model_b}, {int(acc[k])} differ{'s' if int(acc[k]) == 1 else ''} most on {attribute} "
                f"{self.buckets[k]}")

    def to_dict(self) -> Dict[str, Any]:
        acc, res = self.accounted, self.resolved
        return {"model_a": self.model_a, "model_b": self.model_b, "pairs_compared": self.pairs_compared,
                "changed": len(self.pairs), "defined": self.defined,
                "buckets": [{"name": b, "accounted": int(acc[k]), "resolved": int(res[k])}
                            for k, b in enumerate(self.buckets)],
                "pairs": [{"better_under_a": p.better_under_a, "better_under_b": p.better_under_b, "gap": p.gap,
                           "bucket": self.buckets[p.bucket] if p.bucket >= 0 else None,
                           "shrink": p.shrink, "resolved_by": [self.buckets[k] for k in np.flatnonzero(p.resolved)]}
                          for p in self.pairs]}


@dataclass
class PairDifference:
    """Two systems per bucket: B - A under every model, its paired bootstrap interval and the paired
    permutation test's p-value."""

    a: str
    b: str
    difference: np.ndarray           # (buckets, models)
    low: Optional[np.ndarray] = None
    high: Optional[np.ndarray] = None
    p: Optional[np.ndarray] = None


@dataclass
class AttributeResult:
    """One attribute: its buckets and, per bucket, everything measured there."""

    name: str
    level: str                       # span or sentence
    kind: str                        # numeric or categorical
    description: str
    source: str
    rule: str
    buckets: List[str]
    ranges: List[Optional[List[float]]]
    gold: np.ndarray                 # (buckets,) gold spans
    system: np.ndarray               # (buckets, systems) system spans
    sentences: Optional[np.ndarray]  # (buckets,) sentences (sentence attributes)
    outside: np.ndarray              # (systems + 1,) spans in no bucket: gold, then each system
    scores: np.ndarray               # (buckets, systems, models); nan: empty or undefined
    low: Optional[np.ndarray]
    high: Optional[np.ndarray]
    ranks: np.ndarray                # (buckets, systems, models)
    spearman: np.ndarray             # (buckets, models, models)
    kendall: np.ndarray
    counts: Dict[str, np.ndarray]    # model -> (buckets, systems, k) summed counts
    count_names: Dict[str, List[str]]
    undefined: List[str]             # models with no value on these buckets
    flips: List[FlipAttribution] = field(default_factory=list)
    pair: Optional[PairDifference] = None
    count_groups: Dict[str, List[str]] = field(default_factory=dict)   # model -> the rows its counts come in

    def empty(self, k: int, i: int) -> bool:
        """Bucket k holds no gold span and no span of system i."""
        return bool(self.gold[k] == 0 and self.system[k, i] == 0)

    def to_dict(self, systems: Sequence[str], models: Sequence[str]) -> Dict[str, Any]:
        out_buckets = []
        for k, name in enumerate(self.buckets):
            per = {}
            for i, s in enumerate(systems):
                ms = {}
                for j, m in enumerate(models):
                    d: Dict[str, Any] = {"score": self.scores[k, i, j], "rank": self.ranks[k, i, j]}
                    if self.low is not None and self.high is not None:
                        d.update(score_low=self.low[k, i, j], score_high=self.high[k, i, j])
                    ms[m] = d
                counts = {}
                for fam, arr in self.counts.items():
                    names, groups = self.count_names[fam], self.count_groups.get(fam)
                    if groups:
                        counts[fam] = {g: dict(zip(names, row)) for g, row in
                                       zip(groups, arr[k, i].reshape(-1, len(names)))}
                    else:
                        counts[fam] = dict(zip(names, arr[k, i]))
                per[s] = {"system": int(self.system[k, i]), "empty": self.empty(k, i), "models": ms,
                          "counts": counts}
            b: Dict[str, Any] = {"name": name, "range": self.ranges[k] if self.ranges else None,
                                 "gold": int(self.gold[k]), "systems": per,
                                 "spearman": self.spearman[k], "kendall_tau_b": self.kendall[k]}
            if self.sentences is not None:
                b["sentences"] = int(self.sentences[k])
            if self.pair is not None:
                pr = self.pair
                b["pair"] = {"a": pr.a, "b": pr.b, "models": {m: {
                    "difference": pr.difference[k, j],
                    **({"difference_low": pr.low[k, j], "difference_high": pr.high[k, j]} if pr.low is not None
                       and pr.high is not None else {}),
                    **({"p_value": pr.p[k, j]} if pr.p is not None else {})} for j, m in enumerate(models)}}
            out_buckets.append(b)
        return {"name": self.name, "level": self.level, "kind": self.kind, "description": self.description,
                "source": self.source, "rule": self.rule, "undefined_models": list(self.undefined),
                "outside": {"gold": int(self.outside[0]),
                            "systems": {s: int(self.outside[i + 1]) for i, s in enumerate(systems)}},
                "buckets": out_buckets, "flips": [f.to_dict() for f in self.flips]}


@dataclass
class Analysis(Displayed):
    """Where systems are strong or weak and which spans move their ranks: every attribute's buckets
    scored under every model (:func:`ts_eval.analyze`).

    ``str``: the summary page (terminal table); ``repr``: one line per attribute with its buckets;
    ``_repr_html_``: the HTML page."""

    summary_sections = 2

    systems: List[str] = field(default_factory=list)
    models: List[str] = field(default_factory=list)
    titles: List[str] = field(default_factory=list)
    descriptions: List[str] = field(default_factory=list)
    reference: str = ""
    overall: Optional[np.ndarray] = None          # (systems, models)
    attributes: List[AttributeResult] = field(default_factory=list)
    corpus: Dict[str, Any] = field(default_factory=dict)
    training: Optional[Dict[str, Any]] = None
    left_out: List[str] = field(default_factory=list)
    settings: Dict[str, Any] = field(default_factory=dict)
    timings: Dict[str, float] = field(default_factory=dict)
    flips: List[Dict[str, Any]] = field(default_factory=list)    # overall flips per model pair
    errors: Optional[ErrorAnalysis] = None
    #: with several references: what changes from one to the next (the analysis is under the first)
    references: Optional[ReferenceSteps] = None

    def attribute(self, name: str) -> AttributeResult:
        for a in self.attributes:
            if a.name == name:
                return a
        raise KeyError(f"no attribute {name!r}; attributes: {', '.join(a.name for a in self.attributes)}")

    def score(self, attribute: str, bucket: str, system: str, model: str) -> float:
        a = self.attribute(attribute)
        return float(a.scores[a.buckets.index(bucket), self.systems.index(system), self.models.index(model)])

    def to_dict(self) -> Dict[str, Any]:
        overall = None
        if self.overall is not None:
            overall = {s: {"models": {m: {"score": self.overall[i, j]} for j, m in enumerate(self.models)}}
                       for i, s in enumerate(self.systems)}
        out: Dict[str, Any] = _clean({
            "layout": layout("analyze"),
            "systems": list(self.systems),
            "models": [{"name": m, "title": t, "description": d}
                       for m, t, d in zip(self.models, self.titles, self.descriptions)],
            "reference": self.reference,
            "corpus": self.corpus,
            "training": self.training,
            "left_out": list(self.left_out),
            "scores": {"systems": overall} if overall is not None else None,
            "flips": {"rule": FLIP_RULE, "pairs": self.flips},
            "attributes": [a.to_dict(self.systems, self.models) for a in self.attributes],
            "errors": self.errors.to_dict() if self.errors is not None else None,
            "settings": self.settings,
            "timings": self.timings,
        })
        if self.references is not None:     # (only with several references: one gold's JSON is as it was)
            out["references"] = self.references.to_dict()
        return out

    def __repr__(self) -> str:
        head = (f"<Analysis: {len(self.systems)} system{'s' if len(self.systems) != 1 else ''} x "
                f"{len(self.models)} models, {len(self.attributes)} attributes; buckets>")
        k = self.models.index(self.reference) if self.reference in self.models else 0
        lines = []
        for a in self.attributes:
            parts = []
            for b, name in enumerate(a.buckets):
                v = a.scores[b, 0, k] if len(self.systems) else float("nan")
                parts.append(f"{name} {number(v)}")
            lines.append(f"{a.name}: " + ", ".join(parts))
        return listing(head, lines)
