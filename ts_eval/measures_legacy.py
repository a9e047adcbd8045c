"""Percentages in a legacy scorer's order of operations, so that printed numbers round alike.

``nereval.perl`` (GermEval 2014's official scorer, version 2014-05-19) computes
precision as ``100*correct/found`` and recall as ``100*correct/gold`` (0 when the
denominator is 0), and F1 from those percentages.  ``100*k/f`` and ``100*(k/f)`` can
differ in the last bit, and a last-bit difference can change a ``%6.2f`` rounding,
so reproducing the scorer's report byte for byte needs its order.  F1 from precision
and recall is :func:`ts_eval.measures.f_from_pr` (``2PR/(P+R)`` is the same on either
scale).  To be folded into :mod:`ts_eval.measures` as its named legacy variant.
"""
from __future__ import annotations

from typing import Tuple

from . import measures


def percent(num: float, den: float) -> float:
    """``100*num/den`` (multiply first, as the scorer does), 0.0 when ``den`` is 0."""
    return 100 * num / den if den > 0 else 0.0


def percent_of_ratio(num: float, den: float) -> float:
    """``100*(num/den)`` (divide first: the scorer's order for one level's token accuracy), 0.0 when ``den`` is 0."""
    return 100 * (num / den) if den > 0 else 0.0


def prf_percent(correct: int, found: int, gold: int) -> Tuple[float, float, float]:
    """Precision, recall and F1 in percent as nereval.perl computes them."""
    p, r = percent(correct, found), percent(correct, gold)
    return p, r, float(measures.f_from_pr(p, r))
