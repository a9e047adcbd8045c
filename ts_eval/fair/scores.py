"""Scores from fair counts: P, R, F1 of the traditional, fair and weighted methods, and the
plain-data report that renderers (:mod:`ts_eval.output.legacy.faireval`) read."""
from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ..core.measures import prf
from ..errors import OptionError
from .types import ERROR_TYPES, TRADITIONAL_TYPES, FairResult
from .weights import PRESETS, Weights, resolve_weights


def weighted_totals(counts: Mapping[str, float], weights: Mapping[str, Mapping[str, float]]
                    ) -> Tuple[float, float, float]:
    """(TP, FP, FN) as weighted sums over the error types listed in ``weights``."""
    tp = sum(w.get("TP", 0) * counts.get(e, 0) for e, w in weights.items())
    fp = sum(w.get("FP", 0) * counts.get(e, 0) for e, w in weights.items())
    fn = sum(w.get("FN", 0) * counts.get(e, 0) for e, w in weights.items())
    return tp, fp, fn


METHODS = ("traditional", "fair", "weighted")


def method_scores(counts: Mapping[str, float], method: str, weights: Optional[Weights] = None
                  ) -> Tuple[float, float, float]:
    """P, R, F1 of one count row: traditional (TP/FP/FN), fair (eq5) or weighted (``weights``)."""
    if method == "traditional":
        return prf(counts.get("TP", 0), counts.get("FP", 0), counts.get("FN", 0))
    if method == "fair":
        return prf(*weighted_totals(counts, PRESETS["eq5"]))
    if method == "weighted":
        return prf(*weighted_totals(counts, weights if weights is not None else PRESETS["eq5"]))
    raise OptionError(f"method {method!r}: expected one of {', '.join(METHODS)}")


def fair_report(result: FairResult, *, weights: Union[str, Weights, None] = None,
                methods: Sequence[str] = METHODS) -> Dict[str, Any]:
    """Plain-data report: per label (``labels``) and summed (``micro``) counts and P/R/F1 for
    each method, in the result vocabulary (lower-case count keys ``tp``, ``fp``, ``fn``, ``le``,
    ``be``, ``bes``, ``bel``, ``beo``, ``lbe``; ``precision``, ``recall``, ``f``), the confusion
    matrix and the target label statistics.

    Only labels with gold or system spans are listed (``present_labels``, as in the reference output).
    """
    w = resolve_weights(weights)
    bad = [m for m in methods if m not in METHODS]
    if bad:
        raise OptionError(f"method {bad[0]!r}: expected one of {', '.join(METHODS)}")
    present = [k for k in np.flatnonzero(result.present).tolist()]
    out: Dict[str, Any] = {"focus": result.focus, "mode": result.mode,
                           "present_labels": [result.labels[k] for k in present], "weights": w}

    def row(counts: Dict[str, int], method: str) -> Dict[str, float]:
        p, r, f = method_scores(counts, method, w)
        return {**{k.lower(): v for k, v in counts.items()}, "precision": p, "recall": r, "f": f}

    for m in methods:
        if m == "traditional":
            per = {result.labels[k]: row(dict(zip(TRADITIONAL_TYPES, map(int, result.traditional[k]))), m)
                   for k in present}
            tot = row(result.traditional_counts(), m)
        else:
            per = {result.labels[k]: row(dict(zip(ERROR_TYPES, map(int, result.fair[k]))), m) for k in present}
            tot = row(result.counts(), m)
        out[m] = {"labels": per, "micro": tot}
    cm = result.confusion_dict()
    out["confusion"] = cm
    stats = result.target_stats()
    total = sum(n for _, n, _ in stats)
    out["target_stats"] = [{"label": lab, "gold": n, "share": n / total} for lab, n, _ in stats]   # total > 0 here
    return out
