"""Many systems x many evaluation models: scores, ranks, rank correlations, and how sure we are.

Everything is computed from per-unit sufficient statistics (:mod:`ts_eval.ranking.sufficient`):
the observed scores from the summed statistics, a bootstrap resample as the matrix
product of resample weight counts (resamples x units) with the statistics (units x
all systems' and models' columns), and a paired approximate-randomisation test as the
product of a 0/1 swap matrix with the same statistics (swapping two systems' outputs
on a unit moves that unit's statistics from one to the other, so the permuted sums are
``total_A + Z @ (X_B - X_A)``).  The same resamples serve every system and every
model, so the intervals and rank distributions are paired.

Ranks: 1 is best (highest score); tied scores (equal to 12 decimals) share the average
of their positions.  Spearman's rho is the paper's formula
``1 - 6 sum d^2 / (p (p^2 - 1))`` when neither ranking has ties, else Pearson's r on
the average ranks (the two agree when there are no ties); Kendall's tau is tau-b.

Seeds: the bootstrap and the permutation test draw from two independent streams
spawned from ``numpy.random.SeedSequence(seed)``; the same seed, number of resamples
and units give the same numbers.
"""
from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ..core.corpus import Corpus
from ..core.matching import ThresholdLike, match_settings
from ..core.sequences import from_sequences
from ..errors import OptionError
from ..models.registry import check_matching, check_partial_weight, configure
from ..results.display import Displayed, listing, number, require_pandas
from ..results.report import versions
from ..results.vocabulary import layout as result_layout
from . import memory
from .rows import bootstrap_weights as bootstrap_weights  # (re-exported: its callers import it from here)
from .rows import distinct, integral
from .runs import TWO_LEVEL, Runs, RunScores, compare_runs
from .statistics import (
    TIE_DECIMALS,
    Bootstrap,
    Permutation,
    Progress,
    _better_tied,
    _chunks,
    _clean,
    average_ranks,
    correlation_matrices,
)
from .sufficient import REFERENCE_MODEL, Model, StatsMatrix, get_model, resolve_models, statistics
from .uncertainty import (
    Flips,
    RankUncertainty,
    analyse,
    check_flip_pairs,
    contested_pairs,
    flips,
    mean_intervals,
    pair_pvalues,
)
from .uncertainty import to_dict as uncertainty_dict

# ---------------------------------------------------------------------------
# results


@dataclass
class RankingResult(Displayed):
    """Systems x models: scores, ranks, orders, correlations, intervals and tests of one task.

    ``str``: the data and the leaderboard under the reference model (terminal table);
    ``repr``: one line per system, best first, with its reference score and rank;
    ``_repr_html_``: the HTML page (:mod:`ts_eval.results.display`)."""

    summary_sections = 2

    task: str
    systems: List[str]
    models: List[str]
    titles: List[str]
    reference: str
    scores: np.ndarray            # systems x models
    ranks: np.ndarray             # systems x models, 1 = best, ties averaged
    order: np.ndarray             # models x systems: system indices best first (ties: reference rank, name)
    spearman: np.ndarray          # models x models
    spearman_tied: np.ndarray     # models x models: True where ties made it Pearson on average ranks
    kendall: np.ndarray           # models x models, tau-b
    corpus: Dict[str, Any] = field(default_factory=dict)
    bootstrap: Optional[Bootstrap] = None
    permutation: Optional[Permutation] = None
    settings: Dict[str, Any] = field(default_factory=dict)
    timings: Dict[str, float] = field(default_factory=dict)
    uncertainty: Optional[RankUncertainty] = None
    runs: Optional[RunScores] = None   # the systems' runs and their scores (systems given as several runs)

    @property
    def reference_index(self) -> int:
        return self.models.index(self.reference)

    def score(self, system: str, model: str) -> float:
        return float(self.scores[self.systems.index(system), self.models.index(model)])

    def rank(self, system: str, model: str) -> float:
        return float(self.ranks[self.systems.index(system), self.models.index(model)])

    def ranking(self, model: str) -> List[str]:
        """System names in ``model``'s order, best first."""
        return [self.systems[i] for i in self.order[self.models.index(model)]]

    def rank_table(self) -> Dict[str, List[float]]:
        """The paper's Table 2 layout: per model, the reference ranks of the systems in that model's order."""
        ref = self.ranks[:, self.reference_index]
        return {m: ref[self.order[k]].tolist() for k, m in enumerate(self.models)}


    def flips(self, model_a: str, model_b: str, alpha: Optional[float] = None) -> Flips:
        """The system pairs ``model_a`` and ``model_b`` order differently
        (:func:`ts_eval.ranking.uncertainty.flips`)."""
        return flips(self, model_a, model_b, alpha)

    @property
    def spearman_note(self) -> str:
        if not self.spearman_tied.any():
            return "Spearman: the paper's formula 1 - 6 sum d^2 / (p (p^2 - 1)) (no ties)"
        pairs = [f"{self.models[i]}/{self.models[j]}" for i, j in zip(*np.nonzero(np.triu(self.spearman_tied, 1)))]
        return ("Spearman: tied scores get average ranks and rho is Pearson's r on the ranks for "
                + ", ".join(pairs) + "; the paper's formula elsewhere")

    def to_dict(self) -> Dict[str, Any]:
        systems = []
        for i, name in enumerate(self.systems):
            per = {}
            for k, model in enumerate(self.models):
                d: Dict[str, Any] = {"score": self.scores[i, k], "rank": self.ranks[i, k]}
                if self.bootstrap is not None:
                    b = self.bootstrap
                    d.update(score_low=b.score_low[i, k], score_high=b.score_high[i, k], score_se=b.score_se[i, k],
                             rank_low=b.rank_low[i, k], rank_high=b.rank_high[i, k], keep_rank=b.keep[i, k],
                             rank_distribution=b.rank_dist[i, k])
                if self.permutation is not None:
                    d["p_next"] = self.permutation.p_next[i, k]
                u = self.uncertainty       # (groups and Holm's p-values are set together)
                if u is not None and u.groups is not None and u.p_next_holm is not None:
                    d.update(group=u.groups[i, k], p_next_holm=u.p_next_holm[i, k])
                per[model] = d
            systems.append({"name": name, "models": per})
        out = {
            "layout": result_layout("rank"),
            "task": self.task,
            "models": [{"name": mo, "title": t} for mo, t in zip(self.models, self.titles)],
            "reference": self.reference,
            "systems": systems,
            "rankings": {mo: self.ranking(mo) for mo in self.models},
            "rank_table": self.rank_table(),
            "spearman": self.spearman,
            "spearman_tied": self.spearman_tied,
            "spearman_note": self.spearman_note,
            "kendall_tau_b": self.kendall,
            "corpus": self.corpus,
            "bootstrap": None if self.bootstrap is None else {
                "resamples": self.bootstrap.resamples, "unit": self.bootstrap.unit, "units": self.bootstrap.units,
                "confidence": self.bootstrap.confidence, "interval": "percentile"},
            "permutation": None if self.permutation is None else {
                "permutations": self.permutation.permutations, "unit": self.permutation.unit,
                "test": "paired approximate randomisation, two-sided, p = (1 + #{|d*| >= |d|}) / (1 + R)"},
            "settings": self.settings,
            "timings": self.timings,
        }
        out.update(uncertainty_dict(self))
        if self.runs is not None:
            out["runs"] = self.runs.to_dict()
        plain: Dict[str, Any] = _clean(out)
        return plain

    def __repr__(self) -> str:
        k = self.reference_index
        head = (f"<RankingResult {self.task!r}: {len(self.systems)} systems x {len(self.models)} models; "
                f"{self.reference} (rank), best first>")
        return listing(head, (f"{self.systems[i]}: {number(self.scores[i, k])} ({self.ranks[i, k]:g})"
                              for i in self.order[k]))

    def to_frame(self) -> Any:
        """pandas DataFrame: one row per system, columns (model, quantity). Needs pandas."""
        pd = _pandas()
        d = self.to_dict()
        rows = {}
        for s in d["systems"]:
            row = {}
            for model, vals in s["models"].items():
                for q, v in vals.items():
                    if q != "rank_distribution":
                        row[(model, q)] = v
            rows[s["name"]] = row
        frame = pd.DataFrame.from_dict(rows, orient="index")
        frame.columns = pd.MultiIndex.from_tuples(frame.columns, names=["model", "quantity"])
        frame.index.name = "system"
        return frame


@dataclass
class MultiTaskResult(Displayed):
    """Several tasks ranked with the same models; correlations averaged over tasks (the paper's Table 3).

    ``repr``: one line per task with its best system under the reference model; ``str``: each
    task's leaderboard and the mean correlations."""

    def summary(self, sections: List[Any]) -> List[Any]:
        return [s for s in sections if not s.detail and (": leaderboard under " in s.title
                                                         or s.title.startswith("Mean over"))]

    tasks: Dict[str, RankingResult]
    models: List[str]
    titles: List[str]
    spearman: np.ndarray          # mean over tasks
    kendall: np.ndarray

    @property
    def spearman_note(self) -> str:
        tied = any(r.spearman_tied.any() for r in self.tasks.values())
        return ("mean over tasks of the per-task correlations"
                + ("; some tasks have ties (average ranks, Pearson on ranks there)" if tied else ""))

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = _clean({
            "layout": result_layout("rank"),
            "tasks": {k: r.to_dict() for k, r in self.tasks.items()},
            "models": [{"name": m, "title": t} for m, t in zip(self.models, self.titles)],
            "mean_spearman": self.spearman,
            "mean_kendall_tau_b": self.kendall,
            "spearman_note": self.spearman_note,
            "versions": versions(),
            "mean_correlation_intervals": mean_intervals(self.tasks),
        })
        return out

    def __repr__(self) -> str:
        head = f"<MultiTaskResult: {len(self.tasks)} tasks x {len(self.models)} models; best system per task>"
        lines = []
        for name, r in self.tasks.items():
            k, best = r.reference_index, int(r.order[r.reference_index][0])
            lines.append(f"{name}: {len(r.systems)} systems, best {r.systems[best]} "
                         f"({r.reference} {number(r.scores[best, k])})")
        return listing(head, lines)

    def to_frame(self) -> Any:
        """pandas DataFrame: every task's :meth:`RankingResult.to_frame`, under a first index level ``task``."""
        pd = _pandas()
        return pd.concat({k: r.to_frame() for k, r in self.tasks.items()}, names=["task"])


_pandas = require_pandas


# ---------------------------------------------------------------------------
# resampling


def run_bootstrap(sm: StatsMatrix, observed_ranks: np.ndarray, resamples: int, seed_seq: np.random.SeedSequence,
                  confidence: float = 0.95, progress: Optional[Progress] = None,
                  runs: Optional[Tuple[Runs, np.random.SeedSequence]] = None) -> Bootstrap:
    """Paired bootstrap over the units of ``sm``: the same resamples for every system and model (``runs``: the
    systems' runs and the seed of the second level of the two-level bootstrap, :mod:`ts_eval.ranking.runs`)."""
    rng = np.random.default_rng(seed_seq)
    n, m = len(sm.systems), len(sm.models)
    scores = np.empty((resamples, n, m))
    sums = sm.sums()
    for a, b in _chunks(resamples):
        scores[a:b] = sm.scores(sums.bootstrap(rng, b - a))
        if progress:
            progress("bootstrap", b, resamples)
    if runs is not None:
        scores = runs[0].draw(scores, runs[1])
    return bootstrap_summary(scores, observed_ranks, sm.unit, sm.n_units, confidence)


def bootstrap_summary(scores: np.ndarray, observed_ranks: np.ndarray, unit: str, units: int,
                      confidence: float) -> Bootstrap:
    """The intervals of scores and ranks from the (resamples, systems, models) scores of the resamples."""
    resamples, n, m = scores.shape
    alpha = 1.0 - confidence
    low, high = np.quantile(scores, [alpha / 2, 1 - alpha / 2], axis=0)
    by_model = np.moveaxis(scores, 1, 2)                     # (B, models, systems)
    better, tied = _better_tied(by_model)
    ranks = np.moveaxis(better + (tied + 1) / 2.0, 2, 1)     # (B, systems, models)
    better, tied = np.moveaxis(better, 2, 1), np.moveaxis(tied, 2, 1)
    dist = np.zeros((n, m, n))
    for pos in range(1, n + 1):
        dist[:, :, pos - 1] = (((better < pos) & (pos <= better + tied)) / tied).mean(0)
    return Bootstrap(
        resamples=resamples, unit=unit, units=units, confidence=confidence,
        score_low=low, score_high=high, score_se=scores.std(0, ddof=1) if resamples > 1 else np.zeros((n, m)),
        rank_low=np.quantile(ranks, alpha / 2, axis=0, method="lower"),
        rank_high=np.quantile(ranks, 1 - alpha / 2, axis=0, method="higher"),
        keep=np.isclose(ranks, observed_ranks[None]).mean(0),
        rank_dist=dist, resample_scores=scores,
    )


def run_permutation(sm: StatsMatrix, order: np.ndarray, permutations: int, seed_seq: np.random.SeedSequence,
                    progress: Optional[Progress] = None,
                    pairs: Optional[Tuple[np.ndarray, np.ndarray]] = None) -> Permutation:
    """Paired approximate randomisation between neighbours in each model's ranking.

    Each permutation swaps the two systems' outputs on every unit with probability
    1/2; the statistic is the absolute score difference; p = (1 + #{|d*| >= |d|}) / (1 + R).
    The same swap patterns serve every pair and model.  ``pairs`` (index arrays a, b):
    more system pairs to test under every model with the same draws; all tested pairs'
    p-values are in ``pair_p`` (see :func:`ts_eval.ranking.uncertainty.pair_pvalues`).
    """
    n, m = len(sm.systems), len(sm.models)
    tests = [(order[k, :-1], order[k, 1:]) for k in range(m)]
    if pairs is not None:                                    # the neighbours among them are tested already
        pos = np.argsort(order, axis=1)
        far = [np.abs(pos[k, pairs[0]] - pos[k, pairs[1]]) != 1 for k in range(m)]
        tests = [(np.concatenate([a, pairs[0][f]]), np.concatenate([b, pairs[1][f]])) for (a, b), f in zip(tests, far)]
    p = pair_pvalues(sm, tests, permutations, seed_seq, progress)
    p_next, pair_p = np.full((n, m), np.nan), np.full((n, n, m), np.nan)
    for k, (a, b) in enumerate(tests):
        p_next[order[k, :-1], k] = p[k][:n - 1]
        pair_p[a, b, k] = pair_p[b, a, k] = p[k]
    return Permutation(permutations, sm.unit, p_next, pair_p)


# ---------------------------------------------------------------------------
# entry points


def _model_order(scores: np.ndarray, ref_ranks: np.ndarray, names: Sequence[str]) -> np.ndarray:
    """Per model (column), system indices best first; ties broken by reference rank, then name."""
    s = np.round(scores, TIE_DECIMALS)
    name_rank = np.argsort(np.argsort(np.asarray(names, dtype=object)))
    return np.stack([np.lexsort((name_rank, ref_ranks, -s[:, k])) for k in range(scores.shape[1])])


def _check_systems(names: Sequence[str]) -> None:
    seen = set()
    for n in names:
        if n in seen:
            raise OptionError(f"system name {n!r} is given twice; system names must be unique")
        seen.add(n)
    if len(names) < 2:
        raise OptionError(f"ranking needs at least two systems, got {len(names)}"
                         + (f" ({names[0]!r})" if names else ""))


def check_options(*, bootstrap: int = 1000, permutations: int = 1000, seed: Optional[int] = 0,
                  confidence: float = 0.95, alpha: float = 0.05, aso_resamples: int = 1000,
                  aso_threshold: float = 0.2, jobs: int = 1) -> None:
    """The numeric options of :func:`rank_corpus`, checked before anything is read or computed:
    an :class:`OptionError` names the option and the value (``seed=-1: ...``)."""
    if not _is_int(jobs) or jobs < 1:
        raise OptionError("expected a whole number of processes >= 1", option="jobs", value=jobs)
    if not 0 < aso_threshold <= 1:
        raise OptionError("expected a number above 0 and at most 1 (epsilon_min below it: dominance)",
                          option="aso_threshold", value=aso_threshold)
    for name, value in (("bootstrap", bootstrap), ("permutations", permutations), ("aso_resamples", aso_resamples)):
        if not _is_int(value) or value < 0:
            raise OptionError("expected a whole number >= 0 (0 = none)", option=name, value=value)
    if seed is not None and (not _is_int(seed) or seed < 0):
        raise OptionError("expected a whole number >= 0 (the seed of numpy's random generator)",
                          option="seed", value=seed)
    for name, share in (("confidence", confidence), ("alpha", alpha)):
        if not 0 < share < 1:
            raise OptionError("expected a number between 0 and 1", option=name, value=share)


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def model_set(corpus: Optional[Corpus], models: Optional[Sequence[str]], reference: str) -> Tuple[List[Model], bool]:
    """The models a ranking computes: ``models`` (None: the defaults for ``corpus``, or for any corpus), with the
    ``reference`` model put first when it is not one of them (then ``True``)."""
    model_list: List[Model] = resolve_models(models, corpus)
    get_model(reference)
    if reference in [mo.name for mo in model_list]:
        return model_list, False
    return [get_model(reference)] + model_list, True


def bootstrap_bytes(resamples: int, systems: int, models: int) -> int:
    """About the most memory :func:`run_bootstrap` and the rank analysis hold at once, in bytes.

    Per resample: the scores, their rounded copy, the better/tied counts and the ranks
    (about five float64 arrays of systems x models) and one systems x systems x models
    comparison (bool); later the scores and two models x models correlation matrices.
    Measured against tracemalloc's peak in the tests (2-28 systems, 10 models).
    """
    n, m = systems, models
    return resamples * max(40 * n * m + n * n * m, 8 * n * m + 16 * m * m)


def check_memory(bootstrap: int, systems: int, models: int, limit: Optional[int] = None) -> None:
    """Refuse a bootstrap that needs more memory than is available (``limit``, default
    :func:`ts_eval.ranking.memory.available`) before anything is allocated."""
    need = bootstrap_bytes(bootstrap, systems, models)
    limit = memory.available() if limit is None else limit
    if limit is None or need <= limit:
        return
    fit = limit // max(bootstrap_bytes(1, systems, models), 1)
    raise OptionError(f"{bootstrap:,} resamples of {systems} systems x {models} models need about "
                      f"{memory.size(need)} of memory, more than the {memory.size(limit)} available; "
                      f"at most {fit:,} resamples fit", option="bootstrap", value=bootstrap)


def rank_corpus(
    corpus: Corpus,
    *,
    models: Optional[Sequence[str]] = None,
    reference: str = REFERENCE_MODEL,
    bootstrap: int = 1000,
    permutations: int = 1000,
    unit: str = "sentence",
    seed: int = 0,
    confidence: float = 0.95,
    task: str = "task",
    systems: Optional[Sequence[str]] = None,
    progress: Optional[Progress] = None,
    alpha: float = 0.05,
    flips: Optional[Sequence[Tuple[str, str]]] = None,
    min_overlap: ThresholdLike = None,
    assignment: str = "many-to-many",
    partial_weight: float = 0.5,
    runs: Optional[Mapping[str, Sequence[str]]] = None,
    aso_resamples: int = 1000,
    aso_threshold: float = 0.2,
    jobs: int = 1,
) -> RankingResult:
    """Rank the systems of ``corpus`` under every model (see :func:`rank`).

    ``alpha``: significance level of the groups and flips; ``flips``: model pairs whose
    flips the text formats show in full (JSON has every pair's).  ``min_overlap``,
    ``assignment`` and ``partial_weight`` are ``score``'s (:func:`ts_eval.score`): the span-level
    models (overlap, constrained, contain, SemEval) read the matcher's pairs with them.  ``runs``: systems given
    as several runs (training seeds), system name -> the names of its runs among the corpus's systems
    (:mod:`ts_eval.ranking.runs`); the other systems have one run each.  With runs, every two systems are compared
    by Almost Stochastic Order (:mod:`ts_eval.ranking.aso`; ``aso_resamples``: its bootstrap resamples of the runs,
    0 = none; ``aso_threshold``: epsilon_min below it is dominance, deep-significance's recommended 0.2) instead of
    the permutation test.  ``jobs`` > 1: the permutation test in another process while the bootstrap is drawn (the
    same numbers).
    """
    check_options(aso_resamples=aso_resamples, aso_threshold=aso_threshold, jobs=jobs)
    plan = _Plan.of(corpus, systems, models, reference, bootstrap, permutations, seed, confidence, alpha, flips,
                    min_overlap, assignment, partial_weight, runs)
    sm, info, elapsed = plan_statistics(corpus, plan, unit)
    return _ranked(sm, info, plan, elapsed, task=task, bootstrap=bootstrap, permutations=permutations, unit=unit,
                   seed=seed, confidence=confidence, alpha=alpha, progress=progress, aso_resamples=aso_resamples,
                   aso_threshold=aso_threshold, jobs=jobs)


def plan_statistics(corpus: Corpus, plan: _Plan, unit: str) -> Tuple[StatsMatrix, Dict[str, Any], float]:
    """The statistics a ranking of ``plan`` resamples (per distinct row when they are whole numbers), what the
    result says about the corpus, and the seconds they took."""
    t0 = time.perf_counter()
    sm = statistics(corpus, plan.models, unit, plan.names, plan.matching)
    if integral(sm.data):         # resampled per distinct row: the same sums (whole numbers), fewer products
        table, ids = distinct(sm.data)
        sm = StatsMatrix(sm.systems, sm.models, table, sm.family_cols, sm.unit, sm.unit_sizes, ids)
    elapsed = time.perf_counter() - t0
    info = {
        "tokens": corpus.n_tokens, "sentences": corpus.n_sentences,
        "documents": (len(corpus.doc_offsets) - 1) if corpus.doc_offsets is not None else None,
        "labels": list(corpus.labels), "gold_path": corpus.gold_info.path,
    }
    return sm, info, elapsed


@dataclass
class _Plan:
    """What a ranking computes, checked before any statistics: the systems, the models (with the
    settings their scores take), the matcher's settings and the flip pairs to show."""

    names: List[str]
    models: List[Model]
    reference: str
    added: bool
    matching: Any
    weight: float
    flip_pairs: List[Tuple[str, str]]
    runs: Optional[Runs] = None

    @classmethod
    def of(cls, corpus: Corpus, systems: Optional[Sequence[str]], models: Optional[Sequence[str]], reference: str,
           bootstrap: int, permutations: int, seed: int, confidence: float, alpha: float,
           flips: Optional[Sequence[Tuple[str, str]]], min_overlap: ThresholdLike, assignment: str,
           partial_weight: float, runs: Optional[Mapping[str, Sequence[str]]] = None) -> _Plan:
        names = list(corpus.systems) if systems is None else list(systems)
        _check_systems(names)
        missing = [s for s in names if s not in corpus.systems]
        if missing:
            raise OptionError(f"no system named {', '.join(map(repr, missing))} in the corpus")
        check_options(bootstrap=bootstrap, permutations=permutations, seed=seed, confidence=confidence,
                      alpha=alpha)
        model_list, added = model_set(corpus, models, reference)
        matching = match_settings(min_overlap, assignment)
        check_matching(matching, [mo.name for mo in model_list], "ranking model")
        weight = check_partial_weight(partial_weight)
        model_list = [configure(mo, partial_weight=weight) for mo in model_list]
        check_memory(bootstrap, len(names), len(model_list))
        flip_pairs = check_flip_pairs(flips, [mo.name for mo in model_list])
        return cls(names, model_list, reference, added, matching, weight, flip_pairs, Runs.of(names, runs))


def _ranked(sm: StatsMatrix, info: Dict[str, Any], plan: _Plan, elapsed: float, *, task: str, bootstrap: int,
            permutations: int, unit: str, seed: int, confidence: float, alpha: float,
            progress: Optional[Progress], aso_resamples: int = 1000, aso_threshold: float = 0.2,
            jobs: int = 1) -> RankingResult:
    """The ranking of statistics ``sm`` (``info``: what the result says about the corpus; ``elapsed``: the
    seconds the statistics took; ``jobs`` > 1: the permutation test in another process while the bootstrap is
    drawn, from the same seeds: the same numbers)."""
    names, model_list, reference = plan.names, plan.models, plan.reference
    timings: Dict[str, float] = {"statistics": elapsed}
    t0 = time.perf_counter()
    scores = sm.scores(sm.totals)
    run_scores, runs = None, plan.runs
    if runs is not None and runs.sizes.max() == 1:     # one run each: today's ranking, the systems named as given
        names, runs = runs.systems, None
    if runs is not None:            # systems of several runs: ranked by the mean of their runs' scores
        run_scores = RunScores.of(runs, [mo.name for mo in model_list], scores)
        runs, names, scores = run_scores.runs, runs.systems, run_scores.mean
    ranks = average_ranks(scores.T).T
    ref = [mo.name for mo in model_list].index(reference)
    order = _model_order(scores, ranks[:, ref], names)
    rho, tied, tau = correlation_matrices(scores)
    timings["scores"] = time.perf_counter() - t0
    boot_seq, perm_seq, runs_seq = np.random.SeedSequence(seed).spawn(3)   # (the first two: as spawn(2) gives)
    boot = perm = None
    test = permutations and runs is None    # (runs: the pairs are compared by their runs' scores instead)
    beside = None
    if test and bootstrap and jobs > 1:
        from ..streaming.processes import start

        beside = start([lambda: _permutation(sm, order, permutations, perm_seq, None, scores)])
    if bootstrap:
        t0 = time.perf_counter()
        second = None if runs is None else (runs, runs_seq)
        boot = run_bootstrap(sm, ranks, bootstrap, boot_seq, confidence, progress, second)
        if run_scores is not None:
            run_scores.bootstrap = TWO_LEVEL.format(unit=unit)
        timings["bootstrap"] = time.perf_counter() - t0
    if test and beside is not None:
        try:
            perm, timings["permutation"] = beside.result(0)
        finally:
            beside.close()
        if progress:
            progress("permutation", permutations, permutations)
    elif test:
        perm, timings["permutation"] = _permutation(sm, order, permutations, perm_seq, progress, scores)
    if run_scores is not None and aso_resamples:
        t0 = time.perf_counter()
        compare_runs(run_scores, order, confidence=confidence, resamples=aso_resamples, seed=seed,
                     threshold=aso_threshold)
        timings["aso"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    uncertainty = analyse(scores, order, boot, perm, alpha)
    timings["rank_uncertainty"] = time.perf_counter() - t0
    settings = {"models": [mo.name for mo in model_list], "reference": reference, "reference_added": plan.added,
                "bootstrap": bootstrap, "permutations": permutations, "unit": unit, "seed": seed,
                "confidence": confidence, "units": sm.n_units, "alpha": alpha,
                "flips": [list(p) for p in plan.flip_pairs], **plan.matching.to_dict(), "partial_weight": plan.weight,
                "ranks": "1 = best; tied scores (12 decimals) share the mean of their positions",
                "model_descriptions": {mo.name: mo.description for mo in model_list},
                "versions": versions()}
    if runs is not None:    # what was run: no permutation test; the runs compared by ASO (its own settings)
        settings.update(permutations=0, runs=True)
    return RankingResult(task, names, [mo.name for mo in model_list], [mo.title for mo in model_list], reference,
                         scores, ranks, order, rho, tied, tau, info, boot, perm, settings, timings, uncertainty,
                         run_scores)


def _permutation(sm: StatsMatrix, order: np.ndarray, permutations: int, seed_seq: np.random.SeedSequence,
                 progress: Optional[Progress], scores: np.ndarray) -> Tuple[Permutation, float]:
    """(:func:`run_permutation` of neighbours and the contested pairs of ``scores``, the seconds it took)."""
    t0 = time.perf_counter()
    perm = run_permutation(sm, order, permutations, seed_seq, progress, pairs=contested_pairs(scores))
    return perm, time.perf_counter() - t0


SystemsArg = Union[Mapping[str, Any], Sequence[Tuple[str, Any]]]


def rank(
    gold: Union[Corpus, Sequence[Sequence[str]]],
    systems: Optional[SystemsArg] = None,
    *,
    scheme: str = "IOB2",
    policy: str = "conlleval",
    **options: Any,
) -> RankingResult:
    """Rank systems against gold under several evaluation models.

    ``gold``: a :class:`~ts_eval.core.corpus.Corpus` (its systems are ranked; ``systems``
    may then name a subset), or seqeval-style tag sequences (one list per sentence)
    with ``systems`` a mapping (or list of pairs) system name -> tag sequences.
    ``options`` go to :func:`rank_corpus`: ``models`` (names, default
    :func:`ts_eval.models.registry.default_models`), ``reference`` (default exact-match F1
    micro), ``bootstrap`` (resamples, default 1000; 0 = none), ``permutations``
    (default 1000; 0 = none), ``unit`` (sentence or document), ``seed``,
    ``confidence``, ``task``, ``progress``, ``runs`` (systems of several runs: system name -> the names of its
    runs among the corpus's systems, or with tag lists, -> its runs' tag lists), ``alpha`` (significance groups
    and flips, default 0.05), ``flips`` (model pairs shown in full by the text formats), and the matcher's
    settings ``min_overlap``, ``assignment`` and ``partial_weight`` (as :func:`ts_eval.score` takes them).
    """
    if isinstance(gold, Corpus):
        if systems is not None and not isinstance(systems, Mapping):
            options["systems"] = list(systems)
        return rank_corpus(gold, **options)
    runs = options.get("runs")
    if systems is None and not runs:
        raise OptionError("give the systems: a mapping of system name -> tag sequences")
    pairs = [] if systems is None else list(systems.items()) if isinstance(systems, Mapping) else [
        tuple(p) for p in systems]
    if runs:        # system name -> its runs' tag sequences: each run is a system "NAME/k" of the corpus
        pairs += [(f"{name}/{k}", seqs) for name, each in runs.items() for k, seqs in enumerate(each, 1)]
        options["runs"] = {name: [f"{name}/{k}" for k in range(1, len(each) + 1)] for name, each in runs.items()}
    _check_systems([str(n) for n, _ in pairs])
    corpus = from_sequences(gold, {str(n): seqs for n, seqs in pairs}, scheme=scheme, policy=policy)
    return rank_corpus(corpus, **options)


def rank_tasks(tasks: Union[Mapping[str, Corpus], Sequence[Tuple[str, Corpus]]], **options: Any) -> MultiTaskResult:
    """Rank every task's systems with the same models and options; average the correlations over tasks."""
    items = list(tasks.items()) if isinstance(tasks, Mapping) else list(tasks)
    if not items:
        raise OptionError("no task given")
    names = [n for n, _ in items]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise OptionError(f"task name(s) {', '.join(sorted(dup))} given twice; task names must be unique")
    results = {}
    for name, corpus in items:
        results[name] = rank_corpus(corpus, task=name, **options)
    return combine(results)


def combine(results: Mapping[str, RankingResult]) -> MultiTaskResult:
    """Several tasks' results (same models, in the same order) -> correlations averaged over tasks."""
    if not results:
        raise OptionError("no task given")
    first = next(iter(results.values()))
    for name, r in results.items():
        if r.models != first.models:
            raise OptionError(f"task {name!r} was ranked with other models than task {first.task!r}")
    rho = np.stack([r.spearman for r in results.values()])
    tau = np.stack([r.kendall for r in results.values()])
    with warnings.catch_warnings():   # a pair undefined in every task stays nan
        warnings.simplefilter("ignore", RuntimeWarning)
        mean_rho, mean_tau = np.nanmean(rho, 0), np.nanmean(tau, 0)
    return MultiTaskResult(dict(results), first.models, first.titles, mean_rho, mean_tau)
