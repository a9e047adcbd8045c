"""Counting transitions: a ratio with the zero-division rule of the comparison (0.0), and the
most frequent transitions of a change class as Transitions (:class:`~ts_eval.comparison.results.Transition`)."""
from __future__ import annotations

from typing import Callable, List, Optional, Tuple

import numpy as np

from ..core.measures import Number
from .results import Transition


def _ratio(a: Number, b: Number) -> float:
    return float(a) / float(b) if b else 0.0


def _top_transitions(keys: np.ndarray, names: Callable[[int], Tuple[str, ...]], total_diff: int,
                     top: Optional[int]) -> Tuple[int, List[Transition]]:
    """Distinct keys by count (descending, ties by name), the first ``top`` as Transitions."""
    if not len(keys):
        return 0, []
    uniq, cnt = np.unique(keys, return_counts=True)
    named = sorted(((int(c), names(int(u))) for u, c in zip(uniq, cnt)), key=lambda t: (-t[0], t[1]))
    n_class = int(cnt.sum())
    shown = named if top is None else named[:top]
    return len(uniq), [Transition(lab, c, c / n_class, c / total_diff if total_diff else 0.0) for c, lab in shown]
