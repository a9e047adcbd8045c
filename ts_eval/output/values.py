"""How every text-based renderer writes a cell's value: one function per cell kind.

All renderers (terminal, Markdown, LaTeX, CSV, HTML) show a value the same way, so a
number printed in one format can be found in another: a ``score`` (a fraction) as a
percentage with two decimals, a ``percent`` as is with two decimals, a ``count`` as an
integer (a weighted count keeps its fraction), a ``rank`` as an integer or with one
decimal for ties, a ``corr`` with three decimals, a ``p``-value with three decimals (in
scientific notation below 0.001, so that no p-value prints as 0.000).  A missing value is
empty; an undefined one (NaN) is ``n/a``.
"""
from __future__ import annotations

import math
from typing import Any, Optional

from .page import Cell

DASH = "–"   # between the bounds of an interval


def _undefined(v: Any) -> bool:
    return isinstance(v, float) and math.isnan(v)


def _plain(v: float) -> str:
    """A non-integer in positional notation with up to six decimals (never ``1.23457e+06``,
    which would cut digits of a weighted count)."""
    return f"{v:.6f}".rstrip("0").rstrip(".")


def value(v: Any, kind: str = "text") -> str:
    """``v`` written as its kind asks."""
    if v is None:
        return ""
    if kind == "text" or isinstance(v, str):
        return str(v)
    if isinstance(v, bool):
        return "yes" if v else "no"
    if _undefined(v):
        return "n/a"
    v = float(v)
    if kind == "score":
        return f"{100 * v:.2f}"
    if kind == "signed":
        return f"{100 * v:+.2f}"
    if kind == "percent":
        return f"{v:.2f}"
    if kind == "count":
        return str(int(v)) if v.is_integer() else _plain(v)
    if kind == "rank":
        return str(int(v)) if v.is_integer() else f"{v:.1f}"
    if kind == "corr":
        return f"{v:.3f}"
    if kind == "p":
        return f"{v:.3f}" if v >= 0.001 or v == 0 else f"{v:.1e}"
    return str(int(v)) if v.is_integer() else _plain(v)


def interval(low: Optional[float], high: Optional[float], kind: str) -> str:
    """``low–high`` in the kind's format; '' without an interval."""
    if low is None or high is None:
        return ""
    return f"{value(low, kind)}{DASH}{value(high, kind)}"


def text(cell: Cell) -> str:
    """The cell's value alone."""
    return value(cell.value, cell.kind)


def inline(cell: Cell) -> str:
    """Value with its interval on one line: ``87.84 [86.90–88.70]``."""
    out = text(cell)
    if cell.has_interval:
        out += f" [{interval(cell.low, cell.high, cell.kind)}]"
    return out
