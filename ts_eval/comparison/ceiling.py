"""Annotators as references: every system scored against every annotator, and every annotator against
the others (the human ceiling), so "as good as an annotator" is a number.

The annotators and the systems are sides of one :class:`~ts_eval.core.corpus.Corpus` (its gold may be one
of the annotators; :func:`ts_eval.comparison.annotators.read_annotators` reads them so, checking that every file
holds the same tokens; it lives apart so that this module reads no file and the rankings can use it).
Under every ranking model (the per-sentence statistics of :mod:`ts_eval.ranking.sufficient`, summed over
the corpus), with ``k`` annotators:

- a **system** is scored against each of the ``k`` annotators (the annotator as gold); its ``mean`` is
  over the ``k`` annotators;
- an **annotator** is scored, as a system is, against each of the ``k - 1`` *other* annotators (never
  against itself); its ``mean`` is over those ``k - 1``;
- the **ceiling** is the mean of the annotators' means; systems and annotators are ranked together by
  their means.

An annotator's mean and a system's mean are not over the same references: the annotator lacks one (itself),
and a system is also scored against that annotator.  So that the comparison is like for like, the result
also gives, for every annotator ``a``, every system's mean over the same ``k - 1`` references ``a`` is scored
against (``like_for_like``), beside ``a``'s own mean, and ``reached``: how many annotators' means a system
reaches or passes this way.  Averaged over ``a``, a system's like-for-like means are its mean over all ``k``
annotators (every annotator is left out once, so each one is in ``k - 1`` of the ``k`` means), and the
annotators' means average to the ceiling: the ranking's comparison is the average of the like-for-like ones.

A model need not be symmetric (a system's score against an annotator can differ from that annotator's score
against the system): the result only ever scores a side against a reference, the annotators in the same
direction as the systems.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from ..core.corpus import Corpus
from ..errors import OptionError
from ..ranking.sufficient import StatsMatrix, resolve_models, sentence_statistics
from .changes import as_gold


@dataclass
class CeilingRow:
    """One side (an annotator or a system) under one model: its score against every annotator it is scored
    against (``versus``), their ``mean`` and its rank (1 = best; ties share the mean rank)."""

    name: str
    role: str                                   # "annotator" or "system"
    versus: Dict[str, float]                    # reference annotator -> score
    mean: float
    rank: float = 0.0

    def to_dict(self) -> Dict[str, Any]:
        return {"name": self.name, "role": self.role, "rank": self.rank, "mean": _num(self.mean),
                "versus": {k: _num(v) for k, v in self.versus.items()}}


@dataclass
class ModelCeiling:
    """One model: the ranked rows, the ceiling, and per annotator the like-for-like comparison
    (``like_for_like[a][s]``: system ``s``'s mean over the annotators other than ``a``)."""

    model: str
    rows: List[CeilingRow]                      # systems and annotators, best mean first
    ceiling: float                              # the mean of the annotators' means
    like_for_like: Dict[str, Dict[str, float]]  # annotator -> system -> its mean over the others than it
    reached: Dict[str, int]                     # system -> annotators whose mean it reaches, like for like

    def row(self, name: str) -> CeilingRow:
        for r in self.rows:
            if r.name == name:
                return r
        raise KeyError(name)

    def to_dict(self) -> Dict[str, Any]:
        means = {r.name: r.mean for r in self.rows}
        return {"ceiling": _num(self.ceiling), "ranking": [r.to_dict() for r in self.rows],
                "like_for_like": {a: {"mean": _num(means[a]),
                                      "systems": {s: {"mean": _num(m), "difference": _num(m - means[a])}
                                                  for s, m in per.items()}}
                                  for a, per in self.like_for_like.items()},
                "systems": {s: {"reached": n} for s, n in self.reached.items()}}


@dataclass
class HumanCeiling:
    """:func:`human_ceiling`'s result: per model (``models[name]``), systems and annotators side by side."""

    annotators: List[str]
    systems: List[str]
    models: Dict[str, ModelCeiling]

    def to_dict(self) -> Dict[str, Any]:
        return {"annotators": list(self.annotators), "systems": list(self.systems),
                "model_names": list(self.models), "models": {m: c.to_dict() for m, c in self.models.items()}}


def _num(x: float) -> Optional[float]:
    return None if np.isnan(x) else float(x)


def with_gold_as_side(corpus: Corpus) -> Corpus:
    """The corpus with its gold also among the systems, under its name (so any side can be a reference)."""
    name = corpus.gold_info.name
    if name in corpus.systems:
        return corpus
    return dataclasses.replace(corpus, systems={name: corpus.gold, **corpus.systems},
                               system_info={name: corpus.gold_info, **corpus.system_info})


def human_ceiling(corpus: Corpus, annotators: Sequence[str], systems: Optional[Sequence[str]] = None, *,
                  models: Optional[Sequence[str]] = None) -> HumanCeiling:
    """Every system (``systems``; default: every side of ``corpus`` that is no annotator) scored against every
    annotator (``annotators``: two or more side names; the gold's name, ``corpus.gold_info.name``, is one
    too), and every annotator against every other, under every model of ``models`` (default: ``rank``'s
    default models), as the module docstring says."""
    work = with_gold_as_side(corpus)
    annotators = list(annotators)
    if len(annotators) < 2:
        raise OptionError("the human ceiling needs two annotators or more", option="annotators", value=annotators)
    if len(set(annotators)) != len(annotators):
        raise OptionError("an annotator is named twice", option="annotators", value=annotators)
    for n in annotators:
        if n not in work.systems:
            raise OptionError(f"no side called {n!r}; the corpus has {', '.join(work.systems)}",
                              option="annotators", value=n)
    names = [n for n in work.systems if n not in annotators and (n != corpus.gold_info.name)] \
        if systems is None else list(systems)
    for n in names:
        if n in annotators:
            raise OptionError(f"{n!r} is an annotator, not a system", option="systems", value=n)
        if n not in work.systems:
            raise OptionError(f"no side called {n!r}; the corpus has {', '.join(work.systems)}",
                              option="systems", value=n)
    chosen = resolve_models(models, work)
    # scores[reference][side] -> per model (a side is never scored against itself)
    scores: Dict[str, Dict[str, np.ndarray]] = {}
    for ref in annotators:
        sides = names + [a for a in annotators if a != ref]
        under = as_gold(work, ref, sides)
        data, cols = sentence_statistics(under, chosen, sides)
        matrix = StatsMatrix(list(sides), list(chosen), data, cols)
        with np.errstate(divide="ignore", invalid="ignore"):
            got = matrix.scores(data.sum(0, dtype=np.float64))      # (sides, models)
        scores[ref] = {s: got[k] for k, s in enumerate(sides)}
    out: Dict[str, ModelCeiling] = {}
    for j, m in enumerate(chosen):
        rows = []
        for role, group in (("annotator", annotators), ("system", names)):
            for s in group:
                versus = {r: float(scores[r][s][j]) for r in annotators if r != s}
                rows.append(CeilingRow(s, role, versus, float(np.mean(list(versus.values())))))
        _rank(rows)
        means = {r.name: r.mean for r in rows}
        like = {a: {s: float(np.mean([scores[r][s][j] for r in annotators if r != a])) for s in names}
                for a in annotators}
        reached = {s: sum(1 for a in annotators if like[a][s] >= means[a] - 1e-12) for s in names}
        ceiling = float(np.mean([means[a] for a in annotators]))
        out[m.name] = ModelCeiling(m.name, rows, ceiling, like, reached)
    return HumanCeiling(annotators, names, out)


def _rank(rows: List[CeilingRow]) -> None:
    """Sort best mean first (a NaN mean last) and give each row its rank, ties sharing the mean rank."""
    rows.sort(key=lambda r: (np.isnan(r.mean), -r.mean if not np.isnan(r.mean) else 0.0))
    k = 0
    while k < len(rows):
        end = k
        while end + 1 < len(rows) and rows[end + 1].mean == rows[k].mean:
            end += 1
        for r in rows[k:end + 1]:
            r.rank = (k + end) / 2 + 1
        k = end + 1
