"""The systems ranked under two references of the same tokens (an original test set and its correction):
how much of a ranking is the gold's noise.

Every system is ranked under reference A and under reference B as ``rank`` ranks it
(:func:`ts_eval.ranking.study.rank_corpus`'s statistics and ranking, with the same models, seed and
resamples): scores, ranks, their bootstrap intervals and the permutation tests per reference.  The two
rankings draw the same bootstrap resamples (the draws depend on the seed and the number of units only,
:mod:`ts_eval.ranking.rows`), so resample r sums the same sentences under A and under B: each system's
difference B - A on resample r is exact, and its percentile interval is the *paired* bootstrap interval
of the difference.  A reference against itself gives differences of 0 on every resample; swapping the
references negates every difference.

Per model: Spearman's rho and Kendall's tau-b between the two rankings (:mod:`ts_eval.ranking.statistics`),
the system pairs the two references order differently (:func:`ts_eval.ranking.uncertainty.flips`), and the
*sensitivity* to the gold's changes: the mean and largest absolute difference, the systems whose rank
moves and by how much, and the mean absolute difference when only one kind of change is made
(``by_kind``): reference A with B's annotation on the units (sentences or documents) whose changes are
all of that kind (:data:`ts_eval.comparison.changes.CHANGE_KINDS`; units with several kinds count
under ``mixed``).  Those sums are exact: A's summed statistics plus the units' B - A rows.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Set

import numpy as np

from ..comparison.changes import CHANGE_KINDS, as_gold, reference_changes, reference_systems
from ..core.corpus import Corpus
from ..core.matching import ThresholdLike
from ..results.vocabulary import layout
from .runs import RunScores
from .statistics import Permutation, Progress, _clean, kendall_tau_b, spearman
from .study import RankingResult, _Plan, _ranked, plan_statistics
from .sufficient import REFERENCE_MODEL, unit_ids
from .uncertainty import Flips, RankUncertainty, flips

#: the groups of units by the kinds of their changes (``by_kind``)
KIND_GROUPS = (*CHANGE_KINDS, "mixed")


@dataclass
class _TwoRankings:
    """Two references' scores of one model as a ranking of two "models" (what :func:`flips` reads)."""

    systems: List[str]
    models: List[str]
    scores: np.ndarray
    order: np.ndarray
    permutation: Optional[Permutation] = None
    uncertainty: Optional[RankUncertainty] = None
    runs: Optional[RunScores] = None


@dataclass
class ReferenceRanking:
    """:func:`rank_references`'s result: the two rankings and what moved between them (arrays systems x models
    in the rankings' order of systems and models)."""

    reference_a: str
    reference_b: str
    rankings: Dict[str, RankingResult]      # reference name -> its ranking
    difference: np.ndarray                  # B - A
    difference_low: Optional[np.ndarray]    # paired bootstrap interval (None without a bootstrap)
    difference_high: Optional[np.ndarray]
    spearman: np.ndarray                    # (models,) rho between the two rankings
    spearman_tied: np.ndarray               # (models,) ties made it Pearson on average ranks
    kendall: np.ndarray                     # (models,) tau-b
    flips: Dict[str, Flips]                 # model -> the pairs the references order differently
    by_kind: Dict[str, np.ndarray]          # kind -> (models,) mean |difference| with that kind's changes only
    kind_units: Dict[str, int]              # kind -> units whose changes are all of it
    settings: Dict[str, Any] = field(default_factory=dict)

    @property
    def a(self) -> RankingResult:
        return self.rankings[self.reference_a]

    @property
    def b(self) -> RankingResult:
        return self.rankings[self.reference_b]

    @property
    def systems(self) -> List[str]:
        return self.a.systems

    @property
    def models(self) -> List[str]:
        return self.a.models

    def sensitivity(self) -> List[Dict[str, Any]]:
        """Per model (most sensitive first: largest mean |difference|): how much the scores and ranks move."""
        rows = []
        moves = self.b.ranks - self.a.ranks
        for k, m in enumerate(self.models):
            d = np.abs(self.difference[:, k])
            excluded = None
            if self.difference_low is not None and self.difference_high is not None:
                excluded = int(np.count_nonzero((self.difference_low[:, k] > 0) | (self.difference_high[:, k] < 0)))
            rows.append({"model": m, "mean_abs_difference": float(np.nanmean(d)) if np.isfinite(d).any() else None,
                         "max_abs_difference": float(np.nanmax(d)) if np.isfinite(d).any() else None,
                         "rank_moves": int(np.count_nonzero(moves[:, k])),
                         "rank_shift": float(np.abs(moves[:, k]).sum()),
                         "spearman": float(self.spearman[k]), "kendall_tau_b": float(self.kendall[k]),
                         "changed": self.flips[m].changed, "interval_excludes_zero": excluded,
                         "by_kind": {g: float(v[k]) for g, v in self.by_kind.items()}})
        return sorted(rows, key=lambda r: (-(r["mean_abs_difference"] or 0.0), r["model"]))

    def to_dict(self) -> Dict[str, Any]:
        low, high = self.difference_low, self.difference_high
        systems = []
        for i, name in enumerate(self.systems):
            per = {}
            for k, m in enumerate(self.models):
                per[m] = {"score_a": self.a.scores[i, k], "score_b": self.b.scores[i, k],
                          "difference": self.difference[i, k],
                          "difference_low": None if low is None else low[i, k],
                          "difference_high": None if high is None else high[i, k],
                          "rank_a": self.a.ranks[i, k], "rank_b": self.b.ranks[i, k]}
            systems.append({"name": name, "models": per})
        out: Dict[str, Any] = _clean({
            "layout": layout("references"), "reference_a": self.reference_a, "reference_b": self.reference_b,
            "model_names": list(self.models), "systems": systems,
            "sensitivity": self.sensitivity(), "kind_units": self.kind_units,
            "flips": {m: f.to_dict() for m, f in self.flips.items()},
            "rankings": {n: r.to_dict() for n, r in self.rankings.items()}, "settings": self.settings})
        return out


def rank_references(corpus: Corpus, b: str, a: Optional[str] = None, *, systems: Optional[Sequence[str]] = None,
                    models: Optional[Sequence[str]] = None, reference: str = REFERENCE_MODEL, bootstrap: int = 1000,
                    permutations: int = 1000, unit: str = "sentence", seed: int = 0, confidence: float = 0.95,
                    alpha: float = 0.05, min_overlap: ThresholdLike = None, assignment: str = "many-to-many",
                    partial_weight: float = 0.5, progress: Optional[Progress] = None) -> ReferenceRanking:
    """Rank the systems under reference A (``a``: a side of ``corpus``; None: its gold) and reference B (the
    side ``b``, e.g. from :func:`ts_eval.comparison.references.read_references`) and compare the rankings
    (see the module docstring).  ``systems``: default every side but the references; the other options are
    :func:`ts_eval.ranking.study.rank_corpus`'s."""
    changes = reference_changes(corpus, b, a)
    names = reference_systems(corpus, a, b, systems)
    name_a, name_b = a or corpus.gold_info.name or "gold", b
    sides = {name_a: corpus if a is None else as_gold(corpus, a, names), name_b: as_gold(corpus, b, names)}
    rankings, stats = {}, []
    for name, under in sides.items():
        plan = _Plan.of(under, names, models, reference, bootstrap, permutations, seed, confidence, alpha, None,
                        min_overlap, assignment, partial_weight)
        sm, info, elapsed = plan_statistics(under, plan, unit)
        rankings[name] = _ranked(sm, info, plan, elapsed, task=name, bootstrap=bootstrap, permutations=permutations,
                                 unit=unit, seed=seed, confidence=confidence, alpha=alpha, progress=progress)
        stats.append(sm)
    ra, rb = rankings[name_a], rankings[name_b]
    difference = rb.scores - ra.scores
    low = high = None
    boots = [r.bootstrap.resample_scores if r.bootstrap else None for r in (ra, rb)]
    if boots[0] is not None and boots[1] is not None:
        paired = boots[1] - boots[0]            # the same resamples of units under both: paired
        q = (1.0 - confidence) / 2
        low, high = np.quantile(paired, [q, 1 - q], axis=0)
    m = len(ra.models)
    rho, tied, tau = np.full(m, np.nan), np.zeros(m, bool), np.full(m, np.nan)
    flipped = {}
    for k, model in enumerate(ra.models):
        rho[k], tied[k] = spearman(ra.scores[:, k], rb.scores[:, k])
        tau[k] = kendall_tau_b(ra.scores[:, k], rb.scores[:, k])
        view = _TwoRankings(ra.systems, [name_a, name_b], np.stack([ra.scores[:, k], rb.scores[:, k]], 1),
                            np.stack([ra.order[k], rb.order[k]]))
        flipped[model] = flips(view, name_a, name_b, alpha)
    groups = _kind_groups(corpus, changes.changes, unit)
    by_kind = _by_kind(stats[0], stats[1], groups, ra.scores)
    settings = {"models": list(ra.models), "bootstrap": bootstrap, "permutations": permutations, "unit": unit,
                "seed": seed, "confidence": confidence, "alpha": alpha,
                "difference_interval": "paired bootstrap: the same resamples of units under both references, "
                                       "percentile"}
    return ReferenceRanking(name_a, name_b, rankings, difference, low, high, rho, tied, tau, flipped, by_kind,
                            {g: len(u) for g, u in groups.items()}, settings)


def _kind_groups(corpus: Corpus, changes: Sequence[Any], unit: str) -> Dict[str, np.ndarray]:
    """Per group of :data:`KIND_GROUPS`, the units whose changes are all of that kind (``mixed``: of several)."""
    ids = unit_ids(corpus, unit)
    kinds: Dict[int, Set[str]] = {}
    for c in changes:
        kinds.setdefault(int(ids[c.sentence]), set()).add(c.kind)
    out = {g: [] for g in KIND_GROUPS}  # type: Dict[str, List[int]]
    for u, ks in sorted(kinds.items()):
        out[next(iter(ks)) if len(ks) == 1 else "mixed"].append(u)
    return {g: np.asarray(v, np.int64) for g, v in out.items()}


def _by_kind(sm_a: Any, sm_b: Any, groups: Dict[str, np.ndarray], scores_a: np.ndarray) -> Dict[str, np.ndarray]:
    """Per group, (models,) the mean over systems of |score under A with B's rows on the group's units - under A|."""
    dense_a, dense_b = sm_a.dense(), sm_b.dense()
    out = {}
    for g, units in groups.items():
        moved = (dense_b[units].astype(np.float64) - dense_a[units]).sum(0)
        with np.errstate(divide="ignore", invalid="ignore"):
            d = np.abs(sm_a.scores(sm_a.totals + moved) - scores_a)
        with np.errstate(all="ignore"):
            out[g] = np.array([float(np.nanmean(d[:, k])) if np.isfinite(d[:, k]).any() else np.nan
                               for k in range(d.shape[1])])
    return out
