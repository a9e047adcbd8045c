"""What a second reference of the same tokens does to every system (:func:`compare_references`; the module
docstring of :mod:`ts_eval.comparison.references` says what is counted), apart from the reading of the
files, so that the studies of several references (:mod:`ts_eval.analysis.reference_steps`) can use it
without the readers."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from ..core.corpus import Corpus, SpanSet
from ..core.matching import match
from ..ranking.sufficient import resolve_models, sentence_statistics
from .changes import CHANGE_KINDS, ReferenceChanges, _same_bounds, _side, as_gold, reference_changes, reference_systems


@dataclass
class SystemUnderReferences:
    """One system under A and B: the errors that change sides, its scores per model (``scores[model]``:
    ``score_a``, ``score_b``, ``difference`` = B - A, and the same on ``changed`` and ``unchanged`` sentences)."""

    name: str
    errors_a: int
    errors_b: int
    wrong_a_right_b: int
    right_a_wrong_b: int
    scores: Dict[str, Dict[str, Dict[str, float]]]  # model -> part (whole, changed, unchanged) -> numbers
    kinds: Dict[str, Dict[str, int]] = field(default_factory=dict)   # kind of change -> the two counts

    def to_dict(self) -> Dict[str, Any]:
        return {"name": self.name, "errors_a": self.errors_a, "errors_b": self.errors_b,
                "wrong_a_right_b": self.wrong_a_right_b, "right_a_wrong_b": self.right_a_wrong_b, "kinds": self.kinds,
                "models": {m: {part: {k: None if np.isnan(v) else v for k, v in numbers.items()}
                               for part, numbers in per.items()} for m, per in self.scores.items()}}


@dataclass
class ReferenceComparison:
    """:func:`compare_references`'s result: the changes and every system under both references."""

    changes: ReferenceChanges
    models: List[str]
    systems: List[SystemUnderReferences]

    def system(self, name: str) -> SystemUnderReferences:
        for s in self.systems:
            if s.name == name:
                return s
        raise KeyError(name)

    def to_dict(self) -> Dict[str, Any]:
        return {"changes": self.changes.to_dict(), "model_names": list(self.models),
                "systems": [s.to_dict() for s in self.systems]}


# ---------------------------------------------------------------------------
# the systems


def _members(rows: np.ndarray, system: SpanSet) -> np.ndarray:
    """Which (start, last, label, ...) rows the system has (boundaries and label the same)."""
    if not len(rows):
        return np.zeros(0, bool)
    ref = SpanSet(rows[:, 0].copy(), rows[:, 1].copy(), rows[:, 2].astype(np.int32))
    p = match(ref, system)
    has = np.zeros(len(rows), bool)
    has[p.gold[_same_bounds(p) & p.same_label]] = True
    return has


def _exact_errors(reference: SpanSet, system: SpanSet) -> int:
    """False positives + false negatives of exact match (boundaries and label the same)."""
    p = match(reference, system)
    hits = int(np.count_nonzero(_same_bounds(p) & p.same_label))
    return len(reference) + len(system) - 2 * hits


def compare_references(corpus: Corpus, b: str, a: Optional[str] = None, systems: Optional[Sequence[str]] = None,
                       models: Optional[Sequence[str]] = None) -> ReferenceComparison:
    """What changed from reference A (``a``: a side of ``corpus``; None: its gold) to reference B (the side
    ``b``) and every system (``systems``; default: every side but the references) under both: its errors
    that change sides and its scores under every model of ``models`` (default: ``rank``'s default models)
    on the whole corpus, the changed sentences and the unchanged ones (see the module docstring)."""
    changes = reference_changes(corpus, b, a)
    names = reference_systems(corpus, a, b, systems)
    under_a = corpus if a is None else as_gold(corpus, a, names)
    under_b = as_gold(corpus, b, names)
    chosen = resolve_models(models, under_a)
    changed = np.zeros(corpus.n_sentences, bool)
    changed[changes.changed_sentences] = True
    scored = [_scores(c, chosen, names, changed) for c in (under_a, under_b)]
    out = []
    for k, name in enumerate(names):
        ss = corpus.systems[name]
        # a span only A has is an error under A when the system lacks it; one only B has when it has it
        right_b = np.r_[~_members(changes.only_a, ss), _members(changes.only_b, ss)]
        kind = np.r_[changes.only_a[:, 3], changes.only_b[:, 3]]
        per_kind = {w: {"wrong_a_right_b": int(np.count_nonzero(right_b & (kind == j))),
                        "right_a_wrong_b": int(np.count_nonzero(~right_b & (kind == j)))}
                    for j, w in enumerate(CHANGE_KINDS)}
        per = {m.name: _parts(scored[0][:, k, j], scored[1][:, k, j]) for j, m in enumerate(chosen)}
        errors = _exact_errors(_side(corpus, a), ss), _exact_errors(corpus.systems[b], ss)
        out.append(SystemUnderReferences(name, *errors, int(np.count_nonzero(right_b)),
                                         int(np.count_nonzero(~right_b)), per, per_kind))
    return ReferenceComparison(changes, [m.name for m in chosen], out)


def _scores(corpus: Corpus, models: Sequence[Any], names: Sequence[str], changed: np.ndarray) -> np.ndarray:
    """(3, systems, models): every model's score of every system on the whole corpus, the changed sentences
    and the unchanged ones."""
    from ..ranking.sufficient import StatsMatrix

    data, cols = sentence_statistics(corpus, models, names)
    matrix = StatsMatrix(list(names), list(models), data, cols)
    sums = np.stack([data.sum(0), data[changed].sum(0), data[~changed].sum(0)]).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        scores: np.ndarray = matrix.scores(sums)
    return scores


def _parts(a: np.ndarray, b: np.ndarray) -> Dict[str, Dict[str, float]]:
    """score_a, score_b and their difference on the whole corpus, changed and unchanged sentences."""
    return {part: {"score_a": float(a[k]), "score_b": float(b[k]), "difference": float(b[k] - a[k])}
            for k, part in enumerate(("whole", "changed", "unchanged"))}
