"""How sure a rank study is: intervals of the rank correlations, order flips, significance groups.

Three questions a ranking leaves open, answered from the resampling that
:mod:`ts_eval.ranking.study` already does:

- **Correlation intervals.**  On every bootstrap resample the systems' scores are
  recomputed under every model (:func:`ts_eval.ranking.study.run_bootstrap`); on each
  resample Spearman's rho (Pearson's r on average ranks, ties averaged, which equals
  the paper's formula when there are no ties) and Kendall's tau-b are computed between
  every two models, and the interval is the percentile interval of those values at the
  run's confidence level (its bounds are values that occurred).  A resample on which a model gives every system the same
  score has no defined coefficient for that model; such resamples are left out of
  that pair's interval and counted (``undefined_resamples``).
- **Flips between two models A and B.**  A system pair *changes order* when A puts one
  system strictly above the other and B strictly the other way round (a pair tied
  under exactly one of them is counted apart, not as a change).  Each changed pair
  carries the paired approximate-randomisation p-value under A and under B; it is
  *significant under both* when both p-values are below ``alpha`` (uncorrected: the
  p-values are reported for the reader to judge).
- **Significance groups.**  Under each model, walking down its ranking, a new group
  starts below a system when the paired test against the next system rejects after
  Holm's step-down correction over that model's n - 1 adjacent-pair tests (adjusted
  p < ``alpha``); otherwise the next system shares the group.

The paired tests of arbitrary system pairs (:func:`pair_pvalues`) use the same swap
draws for every pair and model, so the p-value of two neighbours is the same number
whether it was asked for as a neighbour test or as a flip.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Protocol, Sequence, Tuple

import numpy as np

from ..errors import OptionError
from .rows import swaps as swaps  # (re-exported: its callers import it from here)
from .statistics import TIE_DECIMALS, Progress, _chunks, _clean, average_ranks

if TYPE_CHECKING:   # pragma: no cover
    from .runs import RunScores
    from .statistics import Bootstrap, Permutation
    from .sufficient import StatsMatrix

CORR_CHUNK = 100   # resamples per vectorised correlation step (bounds memory; results do not depend on it)
Pairs = Tuple[np.ndarray, np.ndarray]

CORRELATION_METHOD = (
    "on every bootstrap resample the systems' scores are recomputed under every model; Spearman = Pearson's r on "
    "average ranks (ties averaged), Kendall = tau-b; percentile interval over the resamples (bounds: observed values, "
    "quantile methods lower/higher); a resample on which "
    "a model scores every system the same has no defined coefficient for that model and is left out of (and "
    "counted in undefined_resamples for) that pair's interval")
FLIP_RULE_RUNS = ("with runs: a changed pair is settled by the runs when each model's order of it is almost "
                  "stochastic dominance of its runs' scores (ASO epsilon_min below the threshold under each model); "
                  "otherwise the seeds do not settle it")
FLIP_RULE = ("a pair changes order when one model puts one system strictly above the other and the other model "
             "strictly the other way round; significant under both: the paired permutation test's p < alpha under "
             "each model (uncorrected)")
GROUP_RULE = ("a new group starts below a system when the paired permutation test against the next system has "
              "Holm-adjusted p < alpha (Holm's step-down correction over the model's n - 1 adjacent-pair tests); "
              "otherwise the next system shares its group")


class RankingLike(Protocol):
    """What the functions here read of a ranking (:class:`ts_eval.ranking.study.RankingResult`; named by what
    it holds so that this module, which the study imports, does not import the study back)."""

    systems: List[str]
    models: List[str]
    scores: np.ndarray
    order: np.ndarray
    permutation: Optional[Permutation]
    uncertainty: Optional[RankUncertainty]
    runs: Optional[RunScores]


# ---------------------------------------------------------------------------
# the paired test for any system pairs


def pair_pvalues(sm: StatsMatrix, pairs: Sequence[Pairs], permutations: int, seed_seq: np.random.SeedSequence,
                 progress: Optional[Progress] = None) -> List[np.ndarray]:
    """Paired approximate randomisation for the system pairs ``pairs[k] = (a, b)`` under model k.

    Each permutation swaps the two systems' outputs on every unit with probability 1/2
    (one 0/1 pattern per permutation, shared by all pairs and models); the statistic is
    the absolute score difference; p = (1 + #{|d*| >= |d|}) / (1 + R), two-sided.
    Returns one array of p-values per model, aligned with its pairs.
    """
    rng = np.random.default_rng(seed_seq)
    tot = sm.totals
    blocks, observed = [], []
    for k, model in enumerate(sm.models):
        a, b = pairs[k]
        tb = sm.block(tot, model)                            # (systems, k)
        blocks.append(tb)
        observed.append(np.abs(np.asarray(model.score(tb[a]), float) - np.asarray(model.score(tb[b]), float)))
    exceed = [np.zeros(len(a)) for a, _ in pairs]
    sums = sm.swap_sums()          # only the differences between systems are read
    for lo, hi in _chunks(permutations):
        zx = sums.swapped(rng, hi - lo)
        for k, model in enumerate(sm.models):
            a, b = pairs[k]
            if not len(a):
                continue
            tb, zb = blocks[k], sm.block(zx, model)          # (systems, k), (R, systems, k)
            moved = zb[:, b] - zb[:, a]                      # what A gains (and B loses) by the swaps
            sa = np.asarray(model.score(tb[a][None] + moved), float)
            sb = np.asarray(model.score(tb[b][None] - moved), float)
            exceed[k] += (np.abs(sa - sb) >= observed[k][None] - 1e-12).sum(0)
        if progress:
            progress("permutation", hi, permutations)
    return [(e + 1) / (permutations + 1) for e in exceed]


def _order_signs(scores: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(a, b, signs): every system pair a < b and sign(score_a - score_b) per model, (pairs, models)."""
    s = np.round(np.asarray(scores, float), TIE_DECIMALS)
    a, b = np.triu_indices(s.shape[0], 1)
    return a, b, np.sign(s[a] - s[b])


def contested_pairs(scores: np.ndarray) -> Pairs:
    """System pairs (a < b) that two of the models (columns of ``scores``) put in opposite strict orders."""
    a, b, sg = _order_signs(scores)
    keep = (sg > 0).any(1) & (sg < 0).any(1)
    return a[keep], b[keep]


# ---------------------------------------------------------------------------
# rank correlations on every resample


def resample_correlations(scores: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """(resamples, systems, models) scores -> (resamples, models, models) Spearman and Kendall tau-b.

    Undefined coefficients (a model whose scores are all equal on that resample) are nan.
    """
    s = np.moveaxis(np.asarray(scores, float), 1, 2)        # (B, models, systems); average_ranks rounds ties
    n_res, m, n = s.shape
    ia, ib = np.triu_indices(n, 1)
    rho, tau = np.empty((n_res, m, m)), np.empty((n_res, m, m))
    for lo in range(0, n_res, CORR_CHUNK):
        r = average_ranks(s[lo:lo + CORR_CHUNK])
        # Kendall from the ranks (same order and ties as the scores); float32 is exact here:
        # halves of integers up to n, sums of at most n (n - 1) / 2 signs
        r32 = r.astype(np.float32)
        sg = np.sign(r32[..., ib] - r32[..., ia])              # (b, models, pairs)
        tau[lo:lo + CORR_CHUNK] = _normalised((sg @ np.swapaxes(sg, -1, -2)).astype(float),
                                              np.abs(sg).sum(-1, dtype=float))
        r -= r.mean(-1, keepdims=True)
        rho[lo:lo + CORR_CHUNK] = _normalised(r @ np.swapaxes(r, -1, -2), (r * r).sum(-1))
    return rho, tau


def _normalised(cross: np.ndarray, own: np.ndarray) -> np.ndarray:
    """cross[i, j] / sqrt(own[i] own[j]), nan where the denominator is 0."""
    den = np.sqrt(own[..., :, None] * own[..., None, :])
    ok = den > 0
    return np.where(ok, cross / np.where(ok, den, 1.0), np.nan)


def percentile_interval(values: np.ndarray, confidence: float) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(low, high, undefined count) over axis 0, leaving nan values out (all nan -> nan).

    The bounds are values that occurred (quantile methods ``lower`` and ``higher``, as for
    the rank intervals): a rank correlation of few systems takes few values, and an
    interpolated bound between two of them would be a coefficient no ranking can have.
    """
    alpha = 1.0 - confidence
    undefined = np.isnan(values).sum(0)
    with warnings.catch_warnings():   # a cell undefined on every resample stays nan
        warnings.simplefilter("ignore", RuntimeWarning)
        low = np.nanquantile(values, alpha / 2, axis=0, method="lower")
        high = np.nanquantile(values, 1 - alpha / 2, axis=0, method="higher")
    return low, high, undefined


# ---------------------------------------------------------------------------
# significance groups


def holm(p: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjusted p-values: the i-th smallest of m becomes max_{j<=i} min(1, (m - j + 1) p_(j)).

    nan entries are not tests: they stay nan and do not count in m.
    """
    pv = np.asarray(p, float)
    out = np.full(pv.shape, np.nan)
    ok = ~np.isnan(pv)
    q = pv[ok]
    m = len(q)
    if m:
        idx = np.argsort(q, kind="stable")
        adj = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * q[idx]))
        filled = np.empty(m)
        filled[idx] = adj
        out[ok] = filled
    return out


def significance_groups(order: np.ndarray, p_next: np.ndarray, alpha: float) -> Tuple[np.ndarray, np.ndarray]:
    """Groups (1 = top) and Holm-adjusted neighbour p-values, both per system, of one model.

    ``order``: system indices best first; ``p_next``: per system, the p-value against the
    next system in that order (nan for the last).
    """
    adj_in_order = holm(p_next[order[:-1]])
    groups_in_order = 1 + np.concatenate([[0], np.cumsum(adj_in_order < alpha)])
    groups = np.empty(len(order), int)
    groups[order] = groups_in_order
    p_adj = np.full(len(order), np.nan)
    p_adj[order[:-1]] = adj_in_order
    return groups, p_adj


# ---------------------------------------------------------------------------
# results


@dataclass
class FlipPair:
    better_under_a: str
    better_under_b: str
    p_a: Optional[float]          # paired test p-value under model A (None without a permutation test)
    p_b: Optional[float]
    eps_a: Optional[float] = None  # runs: ASO's epsilon_min of the system better under A over the other, under A
    eps_b: Optional[float] = None  # runs: of the system better under B over the other, under B

    def significant_under_both(self, alpha: float) -> bool:
        return self.p_a is not None and self.p_b is not None and self.p_a < alpha and self.p_b < alpha

    def settled_by_runs(self, threshold: float) -> Optional[bool]:
        """Runs: whether each model's order of the pair is almost stochastic dominance (epsilon_min below
        ``threshold`` under each); None where a system has one run."""
        if self.eps_a is None or self.eps_b is None or np.isnan(self.eps_a) or np.isnan(self.eps_b):
            return None
        return self.eps_a < threshold and self.eps_b < threshold


@dataclass
class Flips:
    """The system pairs two models put in opposite orders."""

    model_a: str
    model_b: str
    pairs_compared: int           # all system pairs
    tied_under_one: int           # pairs tied under exactly one of the two models (not counted as changes)
    pairs: List[FlipPair]
    alpha: float
    tested: bool                  # whether p-values exist (permutation test run)
    threshold: Optional[float] = None   # runs: ASO's threshold (the pairs carry epsilon_min instead of p-values)

    @property
    def changed(self) -> int:
        return len(self.pairs)

    @property
    def settled_by_runs(self) -> Optional[int]:
        if self.threshold is None:
            return None
        return sum(1 for f in self.pairs if f.settled_by_runs(self.threshold))

    @property
    def significant_under_both(self) -> Optional[int]:
        if not self.tested:
            return None
        return sum(1 for f in self.pairs if f.significant_under_both(self.alpha))

    @property
    def summary(self) -> str:
        line = f"{self.changed} of {self.pairs_compared} pairs change order"
        if self.tested:
            line += (f"; {self.significant_under_both} of them significantly under both models "
                     f"(paired permutation test, p < {self.alpha:g} under each, uncorrected)")
        elif self.threshold is not None:
            unsettled = self.changed - (self.settled_by_runs or 0)
            line += (f"; {self.settled_by_runs} of them settled by the runs under both models (ASO epsilon_min < "
                     f"{self.threshold:g} under each), {unsettled} not settled by the runs (seed variance)")
        else:
            line += " (no permutation test: significance not known)"
        if self.tied_under_one:
            line += f"; {self.tied_under_one} more tied under one model only"
        return line

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = _clean({
            "model_a": self.model_a, "model_b": self.model_b, "pairs_compared": self.pairs_compared,
            "changed": self.changed, "significant_under_both": self.significant_under_both,
            "tied_under_one": self.tied_under_one, "alpha": self.alpha, "summary": self.summary,
            "pairs": [{"better_under_a": f.better_under_a, "better_under_b": f.better_under_b, "p_a": f.p_a,
                       "p_b": f.p_b, "significant_under_both": (None if not self.tested else
                                                                f.significant_under_both(self.alpha)),
                       **({} if self.threshold is None else {
                           "eps_a": f.eps_a, "eps_b": f.eps_b,
                           "settled_by_runs": f.settled_by_runs(self.threshold)})}
                      for f in self.pairs],
        })
        if self.threshold is not None:
            out["settled_by_runs"], out["threshold"] = self.settled_by_runs, self.threshold
        return out


@dataclass
class RankUncertainty:
    """Correlation intervals, per-model significance groups and the inputs of any flip analysis."""

    alpha: float
    confidence: Optional[float] = None
    resamples: int = 0
    spearman_low: Optional[np.ndarray] = None      # models x models
    spearman_high: Optional[np.ndarray] = None
    kendall_low: Optional[np.ndarray] = None
    kendall_high: Optional[np.ndarray] = None
    undefined: Optional[np.ndarray] = None         # models x models: resamples without a defined coefficient
    resample_spearman: Optional[np.ndarray] = None  # resamples x models x models (kept for means over tasks)
    resample_kendall: Optional[np.ndarray] = None
    groups: Optional[np.ndarray] = None            # systems x models, 1 = top group
    p_next_holm: Optional[np.ndarray] = None       # systems x models, Holm-adjusted p against the next system

    def correlation_dict(self) -> Optional[Dict[str, Any]]:
        if self.spearman_low is None:
            return None
        return {"confidence": self.confidence, "resamples": self.resamples, "interval": "percentile",
                "method": CORRELATION_METHOD,
                "spearman_low": self.spearman_low, "spearman_high": self.spearman_high,
                "kendall_tau_b_low": self.kendall_low, "kendall_tau_b_high": self.kendall_high,
                "undefined_resamples": self.undefined}


def analyse(scores: np.ndarray, order: np.ndarray, boot: Optional[Bootstrap], perm: Optional[Permutation],
            alpha: float) -> RankUncertainty:
    """The uncertainty of a ranking from its observed scores, bootstrap (with resample scores) and tests."""
    out = RankUncertainty(alpha=alpha)
    if boot is not None and boot.resample_scores is not None:
        rho, tau = resample_correlations(boot.resample_scores)
        out.confidence, out.resamples = boot.confidence, boot.resamples
        out.spearman_low, out.spearman_high, out.undefined = percentile_interval(rho, boot.confidence)
        out.kendall_low, out.kendall_high, _ = percentile_interval(tau, boot.confidence)
        out.resample_spearman, out.resample_kendall = rho, tau
    if perm is not None:
        n, m = scores.shape
        out.groups, out.p_next_holm = np.empty((n, m), int), np.empty((n, m))
        for k in range(m):
            out.groups[:, k], out.p_next_holm[:, k] = significance_groups(order[k], perm.p_next[:, k], alpha)
    return out


def flips(result: RankingLike, model_a: str, model_b: str, alpha: Optional[float] = None) -> Flips:
    """The system pairs that ``model_a`` and ``model_b`` order differently, with both paired p-values.

    Pairs are listed in ``model_a``'s order of the system it puts higher, then of the other.
    """
    ka, kb = result.models.index(model_a), result.models.index(model_b)
    if alpha is None:
        alpha = result.uncertainty.alpha if result.uncertainty is not None else 0.05
    a, b, sg = _order_signs(result.scores[:, [ka, kb]])
    changed = sg[:, 0] * sg[:, 1] < 0
    tied_one = int(np.count_nonzero((sg[:, 0] == 0) != (sg[:, 1] == 0)))
    pos = np.empty(len(result.systems), int)
    pos[result.order[ka]] = np.arange(len(result.systems))
    pair_p = result.permutation.pair_p if result.permutation is not None else None
    runs = result.runs
    eps = runs.eps_min if runs is not None else None
    out = []
    for i, j in zip(a[changed], b[changed]):
        hi, lo = (i, j) if pos[i] < pos[j] else (j, i)       # hi: better under A
        p_a = p_b = None
        if pair_p is not None:
            p_a, p_b = float(pair_p[hi, lo, ka]), float(pair_p[hi, lo, kb])
        pair = FlipPair(result.systems[hi], result.systems[lo], p_a, p_b)
        if eps is not None:          # runs: hi over lo under A, lo over hi under B
            pair.eps_a, pair.eps_b = float(eps[hi, lo, ka]), float(eps[lo, hi, kb])
        out.append((pos[hi], pos[lo], pair))
    out.sort(key=lambda t: (t[0], t[1]))
    threshold = None if runs is None or runs.aso is None else float(runs.aso["threshold"])
    return Flips(model_a, model_b, len(a), tied_one, [t[2] for t in out], alpha, pair_p is not None, threshold)


def check_flip_pairs(pairs: Optional[Sequence[Sequence[str]]], models: Sequence[str]) -> List[Tuple[str, str]]:
    """Model pairs asked for in full, checked against the ranked models (OptionError naming the bad one)."""
    out = []
    for pair in pairs or ():
        pair = tuple(pair)
        if len(pair) != 2 or pair[0] == pair[1]:
            raise OptionError(f"flips: expected two different model names, got {','.join(map(str, pair))!r}")
        for name in pair:
            if name not in models:
                raise OptionError(f"flips: model {name!r} is not among the ranked models ({', '.join(models)})")
        out.append((str(pair[0]), str(pair[1])))
    return out


def all_flips(result: RankingLike) -> List[Flips]:
    """Flips between every two models, in the result's model order."""
    m = result.models
    return [flips(result, m[i], m[j]) for i in range(len(m)) for j in range(i + 1, len(m))]


def to_dict(result: RankingLike) -> Dict[str, Any]:
    """The JSON sections of a ranking's uncertainty (added to :meth:`RankingResult.to_dict`)."""
    u = result.uncertainty
    groups = None
    if u is not None and u.groups is not None and u.p_next_holm is not None:   # (set together)
        at, holm = u.groups, u.p_next_holm
        groups = {"alpha": u.alpha, "correction": "Holm", "rule": GROUP_RULE, "models": {
            mo: {"groups": [[result.systems[i] for i in result.order[k] if at[i, k] == g]
                            for g in range(1, int(at[:, k].max()) + 1)],
                 "p_next_holm": [holm[i, k] for i in result.order[k]]}
            for k, mo in enumerate(result.models)}}
    return {
        "correlation_intervals": None if u is None else u.correlation_dict(),
        "flips": {"rule": FLIP_RULE if result.runs is None else FLIP_RULE_RUNS, "alpha": None if u is None else u.alpha,
                  "pairs": [f.to_dict() for f in all_flips(result)]},
        "significance_groups": groups,
    }


def mean_intervals(tasks: Mapping[str, RankingLike]) -> Optional[Dict[str, Any]]:
    """Intervals of the correlations averaged over tasks: the b-th resamples of all tasks (each task
    resampled independently) are averaged, then the percentile interval is taken.  None unless every
    task has the same number of bootstrap resamples and confidence."""
    found = [r.uncertainty for r in tasks.values()]
    # (resamples, confidence, Spearman's and Kendall's coefficients per resample) of each task: a bootstrap
    # sets them together
    drawn = [(u.resamples, u.confidence, u.resample_spearman, u.resample_kendall) for u in found
             if u is not None and u.confidence is not None and u.resample_spearman is not None
             and u.resample_kendall is not None]
    if not drawn or len(drawn) != len(found):
        return None
    if len({(n, c) for n, c, _, _ in drawn}) != 1:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        rho = np.nanmean(np.stack([s for _, _, s, _ in drawn]), 0)
        tau = np.nanmean(np.stack([t for _, _, _, t in drawn]), 0)
    resamples, conf = drawn[0][0], drawn[0][1]
    s_low, s_high, undef = percentile_interval(rho, conf)
    k_low, k_high, _ = percentile_interval(tau, conf)
    return {"confidence": conf, "resamples": resamples, "interval": "percentile",
            "method": "per resample, the mean over tasks of the per-task coefficients (tasks resampled "
                      "independently; a coefficient undefined in a task is left out of that mean)",
            "spearman_low": s_low, "spearman_high": s_high, "kendall_tau_b_low": k_low,
            "kendall_tau_b_high": k_high, "undefined_resamples": undef}
