"""How a cell's value is written, by its kind (see :data:`ts_eval.document.KINDS`).

One place for every renderer that writes numbers as text, so that a score reads the same in
every format: a ``score`` (a fraction) as a percentage with two decimals, a ``signed``
difference with its sign, a ``count`` as an integer (weighted counts keep up to two
decimals), a ``rank`` as an integer or with one decimal for ties, a ``corr`` with three
decimals, a ``p``-value with three decimals (smaller ones in scientific notation, so that
0.0004 does not read as 0).  Nothing is cut: the digits before the point are always all there.
"""
from __future__ import annotations

import math
from typing import Any, Optional

NOT_A_NUMBER = "n/a"


def _number(value: Any) -> Optional[float]:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def format_value(value: Any, kind: str) -> str:
    """``value`` written as text for its ``kind``; '' for None, 'n/a' for NaN."""
    if value is None:
        return ""
    if kind == "text" or isinstance(value, str):
        return str(value)
    v = _number(value)
    if v is None:
        return str(value)
    if math.isnan(v):
        return NOT_A_NUMBER
    if kind == "score":
        return f"{100 * v:.2f}"
    if kind == "signed":
        return f"{100 * v:+.2f}"
    if kind == "rank":
        return str(int(v)) if v.is_integer() else f"{v:.1f}"
    if kind == "corr":
        return f"{v:.3f}"
    if kind == "p":
        return f"{v:.1e}" if 0 < v < 0.001 else f"{v:.3f}"
    if v.is_integer():
        return str(int(v))
    return f"{v:.2f}".rstrip("0").rstrip(".") if kind == "count" else f"{v:.4f}".rstrip("0").rstrip(".")


def format_interval(low: Any, high: Any, kind: str) -> str:
    """'low–high' (an en dash) in the unit of ``kind``; '' when either end is missing."""
    if low is None or high is None:
        return ""
    return f"{format_value(low, kind)}–{format_value(high, kind)}"


def sort_key(value: Any) -> str:
    """The raw value as a string a script can sort by: numbers as repr, text as is, '' when missing."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    v = _number(value)
    if v is None:
        return str(value)
    return "" if math.isnan(v) else repr(v)
