"""Several runs per system (training seeds): the scores over runs and the two-level bootstrap.

A system given as several runs is several columns of the statistics matrix, one per run, read like
any other system (:mod:`ts_eval.ranking.sufficient`); :class:`Runs` says which columns make up which
system.  Per system and model the ranking reports the mean of its runs' scores (what it is ranked by),
their standard deviation (``ddof=1``; undefined for one run), minimum, maximum and the runs' own scores.

The **two-level bootstrap** draws, on every resample, the test set's units (sentences or documents) with
replacement -- one draw for all runs of all systems, so the resamples stay paired -- and then, for each
system independently, as many runs as it has with replacement; the system's resample score is the mean
of its drawn runs' scores on the resampled units.  Its intervals therefore hold both sources of variance
(the test sentences and the seeds; a system of one run has only the first).  Within a system the runs are
kept in the order of their observed scores (under the models in their order, then by name), so neither the
order in which runs are given nor their names change a drawn number.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Sequence

import numpy as np

from ..errors import OptionError

TWO_LEVEL = ("two-level: on every resample the {unit}s are drawn with replacement (one draw for every run of "
             "every system: paired), then each system's runs are drawn with replacement; a system's resample "
             "score is the mean of its drawn runs' scores")


@dataclass
class Runs:
    """Which runs (columns of the statistics: the corpus's system names) make up which system."""

    systems: List[str]                 # in the order of their first run among the corpus's systems
    runs: List[List[str]]              # each system's runs (sorted by name; :meth:`by_scores`: by score)
    columns: List[np.ndarray]          # each system's runs as indices into the corpus's systems

    @classmethod
    def of(cls, names: Sequence[str], runs: Optional[Mapping[str, Sequence[str]]], least: int = 2) -> Optional[Runs]:
        """The systems of ``runs`` (system name -> its runs among ``names``, the systems read); a name of
        ``names`` that is no system's run is a system of one run.  None when every system has one run and no
        system was given as runs (today's ranking).  Fewer than ``least`` systems are an error (a ranking
        needs two; scoring the runs, one)."""
        if not runs:
            return None
        owner: Dict[str, str] = {}
        for system, members in runs.items():
            if isinstance(members, str) or not len(members):
                raise OptionError(f"system {system!r}: expected a list of its runs, got {members!r}", option="runs")
            for run in members:
                if run not in names:
                    raise OptionError(f"system {system!r}: no run named {run!r} among the systems read "
                                      f"({', '.join(names)})", option="runs")
                if run in owner:
                    raise OptionError(f"run {run!r} is given for two systems ({owner[run]!r} and {system!r})",
                                      option="runs")
                owner[run] = system
        clash = [s for s in runs if s in names and owner.get(s) != s]
        if clash:
            raise OptionError(f"system name {clash[0]!r} is both a system given as runs and another system read",
                              option="runs")
        order: List[str] = []
        for name in names:
            system = owner.get(name, name)
            if system not in order:
                order.append(system)
        if len(order) < least:
            raise OptionError(f"ranking needs at least two systems, got {len(order)} ({order[0]!r}) with its runs",
                              option="runs")
        position = {n: i for i, n in enumerate(names)}
        members_of = {s: sorted(runs.get(s, [s])) for s in order}
        return cls(order, [members_of[s] for s in order],
                   [np.array([position[r] for r in members_of[s]], dtype=np.intp) for s in order])

    def by_scores(self, run_scores: np.ndarray) -> Runs:
        """The same runs, each system's in the order of their observed ``run_scores`` (runs read x models: every
        model's score in the models' order, ascending, then the name)."""
        runs, columns = [], []
        for names, cols in zip(self.runs, self.columns):
            keys = [np.asarray(names, dtype=object)] + [run_scores[cols, k] for k in range(run_scores.shape[1])][::-1]
            order = np.lexsort(keys)
            runs.append([names[i] for i in order])
            columns.append(cols[order])
        return Runs(self.systems, runs, columns)

    @property
    def sizes(self) -> np.ndarray:
        return np.array([len(c) for c in self.columns])

    def means(self, run_scores: np.ndarray) -> np.ndarray:
        """(..., runs, models) scores of every run -> (..., systems, models) each system's mean over its runs."""
        return np.stack([run_scores[..., c, :].mean(-2) for c in self.columns], axis=-2)

    def draw(self, run_scores: np.ndarray, seed_seq: np.random.SeedSequence) -> np.ndarray:
        """The second level of the two-level bootstrap: (resamples, runs, models) scores on the resampled units
        -> (resamples, systems, models) each system's mean over runs drawn with replacement.  Each system draws
        from a stream of its own, named by ``seed_seq`` and the system's name, so that its numbers depend on
        gold and that system only (not on the other systems or their order)."""
        b = run_scores.shape[0]
        out = np.empty((b, len(self.systems), run_scores.shape[2]))
        rows = np.arange(b)[:, None]
        for s, cols in enumerate(self.columns):
            own = np.random.SeedSequence(seed_seq.entropy,
                                         spawn_key=tuple(seed_seq.spawn_key) + tuple(self.systems[s].encode()))
            rng = np.random.default_rng(own)
            drawn = cols[rng.integers(0, len(cols), size=(b, len(cols)))]       # (resamples, runs of s)
            out[:, s] = run_scores[rows, drawn].mean(1)
        return out


@dataclass
class RunScores:
    """Each system's runs and their scores under every model (arrays systems x models)."""

    runs: Runs
    models: List[str]
    run_scores: np.ndarray      # (runs read, models): every run's score, in the order of the corpus's systems
    mean: np.ndarray
    sd: np.ndarray              # ddof = 1; nan for a system of one run
    low: np.ndarray             # the lowest run's score
    high: np.ndarray
    bootstrap: Optional[str] = None     # how the intervals were drawn (:data:`TWO_LEVEL`), None without them
    # the pairwise comparison of the runs' scores (set by the ranking when it compares them, else None):
    eps_min: Optional[np.ndarray] = None    # (systems, systems, models): ASO's epsilon_min of row over column
    beat: Optional[np.ndarray] = None       # (systems, systems, models): P(a random run of row beats one of column)
    groups: Optional[np.ndarray] = None     # (systems, models): significance groups from eps_min, 1 = top
    aso: Optional[Dict[str, Any]] = None    # ASO's settings: confidence, resamples, threshold, seed, correction

    @classmethod
    def of(cls, runs: Runs, models: Sequence[str], run_scores: np.ndarray) -> RunScores:
        """The scores of ``runs`` from every run's ``run_scores`` (runs read x models); the runs kept in the
        order of their scores (:meth:`Runs.by_scores`)."""
        runs = runs.by_scores(run_scores)
        mean = runs.means(run_scores)
        sd = np.stack([run_scores[c].std(0, ddof=1) if len(c) > 1 else np.full(run_scores.shape[1], np.nan)
                       for c in runs.columns])
        low = np.stack([run_scores[c].min(0) for c in runs.columns])
        high = np.stack([run_scores[c].max(0) for c in runs.columns])
        return cls(runs, list(models), run_scores, mean, sd, low, high)

    def scores_of(self, system: int, model: int) -> np.ndarray:
        """The scores of one system's runs under one model, in the order of :attr:`runs`."""
        return np.asarray(self.run_scores[self.runs.columns[system], model])

    def to_dict(self) -> Dict[str, Any]:
        systems = []
        names = self.runs.systems
        for i, name in enumerate(names):
            per = {}
            for k, m in enumerate(self.models):
                d: Dict[str, Any] = {"score_mean": self.mean[i, k], "score_sd": self.sd[i, k],
                                     "score_min": self.low[i, k], "score_max": self.high[i, k],
                                     "run_scores": self.scores_of(i, k)}
                if self.eps_min is not None and self.beat is not None and self.groups is not None:
                    d.update(group=self.groups[i, k], versus={
                        o: {"eps_min": self.eps_min[i, j, k], "beat_probability": self.beat[i, j, k]}
                        for j, o in enumerate(names) if j != i})
                per[m] = d
            systems.append({"name": name, "runs": self.runs.runs[i], "models": per})
        return {"systems": systems, "ranked_by": "the mean of the runs' scores", "sd": "standard deviation, ddof = 1",
                "bootstrap": self.bootstrap, "aso": self.aso}


ASO_RULE = ("under each model, walking down the ranking by the mean, a new group starts below a system when "
            "it is almost stochastically dominant over the next one: epsilon_min (row over column, at the "
            "Bonferroni-raised confidence of deep-significance's multi_aso) below the threshold; a system of "
            "one run has no epsilon_min and shares the group of the system above it")


def compare_runs(rs: RunScores, order: np.ndarray, *, confidence: float, resamples: int, seed: int,
                 threshold: float) -> None:
    """Fill ``rs``'s pairwise comparison: under every model, ASO's epsilon_min of every ordered pair of systems
    with at least two runs (:func:`ts_eval.ranking.aso.aso_matrix`, Bonferroni-raised as ``multi_aso``), the
    probability that a random run of one beats a random run of the other, and the significance groups of
    the ranking ``order`` (models x systems, best first) from them (:data:`ASO_RULE`).  The systems are
    compared in the order of their names, so the order in which they are given never changes a number."""
    from .aso import aso_matrix, beat_probability, bonferroni_confidence

    n, m = rs.mean.shape
    several = [i for i in range(n) if len(rs.runs.columns[i]) > 1]
    several.sort(key=lambda i: rs.runs.systems[i])
    eps = np.full((n, n, m), np.nan)
    beat = np.full((n, n, m), np.nan)
    for k in range(m):
        if len(several) > 1:
            got = aso_matrix([rs.scores_of(i, k) for i in several], confidence=confidence, resamples=resamples,
                             seed=seed)
            eps[np.ix_(several, several, [k])] = got[:, :, None]
        for i in range(n):
            for j in range(n):
                if i != j:
                    beat[i, j, k] = beat_probability(rs.scores_of(i, k), rs.scores_of(j, k))
    groups = np.empty((n, m), int)
    for k in range(m):
        down = order[k]
        split = [bool(eps[a, b, k] < threshold) for a, b in zip(down[:-1], down[1:])]
        groups[down, k] = 1 + np.concatenate([[0], np.cumsum(split)]).astype(int)
    rs.eps_min, rs.beat, rs.groups = eps, beat, groups
    rs.aso = {"confidence": confidence, "bonferroni_confidence": bonferroni_confidence(confidence, len(several)),
              "resamples": resamples, "seed": seed, "threshold": threshold, "correction": "Bonferroni (multi_aso)",
              "rule": ASO_RULE, "reference": "deep-significance (deepsig) aso / multi_aso"}
