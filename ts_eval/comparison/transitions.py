"""Counting transitions: a ratio with the zero-division rule of the comparison (0.0), and the
most frequent transitions of a change class as Transitions (:class:`~ts_eval.comparison.results.Transition`)."""
from __future__ import annotations

from typing import Callable, List, Mapping, Optional, Tuple, TypeVar

import numpy as np

from ..core.measures import Number
from .results import Transition

K = TypeVar("K")


def _ratio(a: Number, b: Number) -> float:
    return float(a) / float(b) if b else 0.0


def _top_transitions(keys: np.ndarray, names: Callable[[int], Tuple[str, ...]], total_diff: int,
                     top: Optional[int]) -> Tuple[int, List[Transition]]:
    """Distinct keys by count (descending, ties by name), the first ``top`` as Transitions."""
    uniq, cnt = np.unique(keys, return_counts=True)
    return _top_counts(dict(zip(uniq.tolist(), cnt.tolist())), names, total_diff, top)


def _top_counts(counts: Mapping[K, int], names: Callable[[K], Tuple[str, ...]], total_diff: int,
                top: Optional[int]) -> Tuple[int, List[Transition]]:
    """The transitions counted in ``counts`` (key -> count; a count of 0 is no transition) by count
    (descending, ties by name), the first ``top`` as Transitions; and how many there are."""
    named = sorted(((c, names(u)) for u, c in counts.items() if c), key=lambda t: (-t[0], t[1]))
    n_class = sum(c for c, _ in named)
    shown = named if top is None else named[:top]
    return len(named), [Transition(lab, c, c / n_class, c / total_diff if total_diff else 0.0) for c, lab in shown]
