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

**Two or more references** (:func:`rank_several`): an original test set and its corrections, or several
annotators of the same text.  Every system is ranked under every reference as ``rank`` ranks it, all with the
same resamples (:func:`rank_under`), so any two rankings can be compared as :func:`rank_references` compares
two: each system's paired bootstrap difference, Spearman and Kendall, the flips and the sensitivity per model.
``pairs="consecutive"`` compares each reference with the next (from one reference to the next: ``A -> B``,
``B -> C``, ...), ``"all"`` every pair in the order given.  Each compared pair (a *step*) also gives what changed
from its first reference to its second (:func:`ts_eval.comparison.changes.reference_changes`) and, with
``suspects``, the first reference's gold suspects (as the error analysis finds them from the systems:
:func:`ts_eval.analysis.gold_suspects.gold_suspects`) checked against that change
(:func:`ts_eval.analysis.suspects_checked.check_suspects`): the second reference taken as a correction of the
first.  With ``annotators``, the references are annotators of the same text: each is also scored against the
others, beside the systems (:func:`ts_eval.comparison.ceiling.human_ceiling`).

With two references, ``steps[0]`` is exactly :func:`rank_references`'s result, and
the JSON holds its keys unchanged, the new parts beside them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

import numpy as np

from ..analysis.gold_suspects import gold_suspects
from ..analysis.suspects_checked import SuspectCheck, check_suspects
from ..comparison.ceiling import HumanCeiling, human_ceiling, with_gold_as_side
from ..comparison.changes import (
    CHANGE_KINDS,
    ReferenceChanges,
    as_gold,
    reference_changes,
    reference_sides,
    reference_systems,
)
from ..core.corpus import Corpus
from ..core.matching import ThresholdLike
from ..errors import OptionError
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
    name_a = a or corpus.gold_info.name or "gold"
    rankings, stats = rank_under(corpus, [a, b], names, models=models, reference=reference, bootstrap=bootstrap,
                                 permutations=permutations, unit=unit, seed=seed, confidence=confidence, alpha=alpha,
                                 min_overlap=min_overlap, assignment=assignment, partial_weight=partial_weight,
                                 progress=progress)
    return compare_rankings(corpus, changes, (name_a, rankings[name_a], stats[name_a]),
                            (b, rankings[b], stats[b]), unit=unit, confidence=confidence, alpha=alpha)


def rank_under(corpus: Corpus, references: Sequence[Optional[str]], names: Sequence[str], *,
               models: Optional[Sequence[str]], reference: str, bootstrap: int, permutations: int, unit: str,
               seed: int, confidence: float, alpha: float, min_overlap: ThresholdLike, assignment: str,
               partial_weight: float, progress: Optional[Progress]) -> Tuple[Dict[str, RankingResult],
                                                                             Dict[str, Any]]:
    """The systems ``names`` ranked under each reference (a side of ``corpus``; None: its gold) as ``rank``
    ranks them, all with the same resamples: per reference name, its ranking and its per-unit statistics."""
    rankings, stats = {}, {}
    for ref in references:
        name = ref or corpus.gold_info.name or "gold"
        under = corpus if ref is None else as_gold(corpus, ref, names)
        plan = _Plan.of(under, list(names), models, reference, bootstrap, permutations, seed, confidence, alpha,
                        None, min_overlap, assignment, partial_weight)
        sm, info, elapsed = plan_statistics(under, plan, unit)
        rankings[name] = _ranked(sm, info, plan, elapsed, task=name, bootstrap=bootstrap, permutations=permutations,
                                 unit=unit, seed=seed, confidence=confidence, alpha=alpha, progress=progress)
        stats[name] = sm
    return rankings, stats


def compare_rankings(corpus: Corpus, changes: Any, first: Tuple[str, RankingResult, Any],
                     second: Tuple[str, RankingResult, Any], *, unit: str, confidence: float,
                     alpha: float) -> ReferenceRanking:
    """Two references' rankings (of :func:`rank_under`: name, ranking, per-unit statistics) compared, with
    ``changes`` from the first to the second (:func:`ts_eval.comparison.changes.reference_changes`)."""
    (name_a, ra, sm_a), (name_b, rb, sm_b) = first, second
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
    by_kind = _by_kind(sm_a, sm_b, groups, ra.scores)
    rs = ra.settings
    settings = {"models": list(ra.models), "bootstrap": rs.get("bootstrap"), "permutations": rs.get("permutations"),
                "unit": unit, "seed": rs.get("seed"), "confidence": confidence, "alpha": alpha,
                "difference_interval": "paired bootstrap: the same resamples of units under both references, "
                                       "percentile"}
    return ReferenceRanking(name_a, name_b, {name_a: ra, name_b: rb}, difference, low, high, rho, tied, tau,
                            flipped, by_kind, {g: len(u) for g, u in groups.items()}, settings)


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


#: which pairs of references are compared
PAIRS = ("consecutive", "all")
#: the first suspects whose precision is given
SUSPECT_KS = (20, 50)


@dataclass
class SeveralReferences:
    """:func:`rank_several`'s result: every reference's ranking and the compared pairs (steps)."""

    references: List[str]
    rankings: Dict[str, RankingResult]             # reference name -> its ranking
    steps: List[ReferenceRanking]                  # per compared pair (see ``pairs``)
    changes: List[ReferenceChanges]                # per step: from its first reference to its second
    suspects: List[Optional[SuspectCheck]]         # per step: the first one's suspects checked (None: not asked)
    ceiling: Optional[HumanCeiling] = None         # the references as annotators
    settings: Dict[str, Any] = field(default_factory=dict)

    @property
    def first(self) -> RankingResult:
        return self.rankings[self.references[0]]

    @property
    def systems(self) -> List[str]:
        return self.first.systems

    @property
    def models(self) -> List[str]:
        return self.first.models

    def step(self, a: str, b: str) -> ReferenceRanking:
        """The step from reference ``a`` to ``b``."""
        for s in self.steps:
            if (s.reference_a, s.reference_b) == (a, b):
                return s
        raise KeyError((a, b))

    def to_dict(self) -> Dict[str, Any]:
        steps = []
        for s, ch, sus in zip(self.steps, self.changes, self.suspects):
            d = s.to_dict()
            for k in ("layout", "rankings", "settings", "model_names"):
                d.pop(k)
            d["changes"] = ch.to_dict()
            if sus is not None:
                d["suspects_checked"] = sus.to_dict()
            steps.append(d)
        out: Dict[str, Any] = self.steps[0].to_dict() if len(self.references) == 2 else _clean({
            "layout": layout("references"), "model_names": list(self.models),
            "rankings": {n: r.to_dict() for n, r in self.rankings.items()}, "settings": self.settings})
        out["settings"] = _clean({**out["settings"], **self.settings})
        out.update(references=list(self.references), steps=steps)
        if self.ceiling is not None:
            out["ceiling"] = _clean(self.ceiling.to_dict())
        return out


def rank_several(corpus: Corpus, references: Sequence[str], *, systems: Optional[Sequence[str]] = None,
                 models: Optional[Sequence[str]] = None, reference: str = REFERENCE_MODEL, pairs: str = "consecutive",
                 annotators: bool = False, suspects: bool = True, ks: Sequence[int] = SUSPECT_KS,
                 bootstrap: int = 1000, permutations: int = 1000, unit: str = "sentence", seed: int = 0,
                 confidence: float = 0.95, alpha: float = 0.05, min_overlap: ThresholdLike = None,
                 assignment: str = "many-to-many", partial_weight: float = 0.5,
                 progress: Optional[Progress] = None) -> SeveralReferences:
    """Rank the systems under every reference of ``references`` (two or more side names; the gold's,
    ``corpus.gold_info.name``, is one when the gold is a reference) and compare them (module docstring).
    ``systems``: default every side but the references; the other options are
    :func:`ts_eval.ranking.study.rank_corpus`'s."""
    refs, names = _check(corpus, references, systems, pairs)
    gold = corpus.gold_info.name or "gold"
    sides = [None if r == gold else r for r in refs]
    rankings, stats = rank_under(corpus, sides, names, models=models, reference=reference, bootstrap=bootstrap,
                                 permutations=permutations, unit=unit, seed=seed, confidence=confidence, alpha=alpha,
                                 min_overlap=min_overlap, assignment=assignment, partial_weight=partial_weight,
                                 progress=progress)
    steps, changes = [], []
    checked: List[Optional[SuspectCheck]] = []
    analyses: Dict[str, Any] = {}
    work = with_gold_as_side(corpus)            # any reference can be either side of a step
    for a, b in _pairs(refs, pairs):
        ch = reference_changes(work, b, a)
        steps.append(compare_rankings(corpus, ch, (a, rankings[a], stats[a]), (b, rankings[b], stats[b]), unit=unit,
                                      confidence=confidence, alpha=alpha))
        changes.append(ch)
        if suspects:
            if a not in analyses:
                under = corpus if a == gold else as_gold(work, a, names)
                analyses[a] = gold_suspects(under, names, min_overlap=min_overlap)
            checked.append(check_suspects(analyses[a], ch, ks=tuple(ks)))
        else:
            checked.append(None)
    ceiling = human_ceiling(corpus, refs, names, models=list(rankings[refs[0]].models)) if annotators else None
    settings = {"references": list(refs), "pairs": pairs, "annotators": annotators, "suspects": suspects}
    return SeveralReferences(list(refs), rankings, steps, changes, checked, ceiling, settings)


def _pairs(refs: Sequence[str], pairs: str) -> List[Tuple[str, str]]:
    if pairs == "all":
        return [(a, b) for i, a in enumerate(refs) for b in refs[i + 1:]]
    return list(zip(refs, refs[1:]))


def _check(corpus: Corpus, references: Sequence[str], systems: Optional[Sequence[str]],
           pairs: str) -> Tuple[List[str], List[str]]:
    """The references (two or more distinct sides, the gold's name among them anywhere) and the systems
    (:func:`ts_eval.comparison.changes.reference_sides`), and ``pairs`` checked."""
    if pairs not in PAIRS:
        raise OptionError(f"pairs {pairs!r}: expected one of {', '.join(PAIRS)}", option="pairs", value=pairs)
    return reference_sides(corpus, references, systems, gold_first=False)
