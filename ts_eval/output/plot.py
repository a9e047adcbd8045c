"""Bump chart of ranks across evaluation models, with bootstrap rank intervals as bars.

matplotlib is an optional extra (``pip install 'ts_eval[plot]'``); without it
:func:`check_available` and :func:`bump_chart` raise a :class:`OptionError` that says so.
Uses matplotlib's object API (no pyplot state, no display needed).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional, Union

import numpy as np

from ..errors import OptionError

if TYPE_CHECKING:   # a figure reads the result; it needs no analysis code at run time
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ..ranking.study import MultiTaskResult, RankingResult

UNIT_INCHES = 1.3      # horizontal distance between two models
LABEL_INCHES = 0.065   # width of one character of a system label (8 pt)
MISSING = ("plotting needs matplotlib, which is not installed; install the optional extra: "
           "pip install 'ts_eval[plot]' (or pip install matplotlib)")


def check_available() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise OptionError(MISSING) from None


def bump_chart(result: Union[RankingResult, MultiTaskResult], path: Optional[str] = None,
               models: Optional[List[str]] = None, title: Optional[str] = None) -> Figure:
    """Draw (and, with ``path``, save) the ranks of every system across models; returns the Figure.

    One panel per task.  Each system is a line through its ranks (1 at the top); a
    vertical bar at each model spans its bootstrap rank interval when there is one.
    """
    check_available()
    from matplotlib.figure import Figure

    results = list(result.tasks.values()) if hasattr(result, "tasks") else [result]
    n_max = max(len(r.systems) for r in results)
    m_max = max(len(models or r.models) for r in results)
    chars = max(len(s) for r in results for s in r.systems)
    panel = UNIT_INCHES * max(m_max - 1, 1) + 2 * (LABEL_INCHES * chars + 0.5)
    fig = Figure(figsize=(0.8 + panel * len(results), 1.2 + 0.3 * n_max), constrained_layout=True)
    axes = fig.subplots(1, len(results), squeeze=False)[0]
    for ax, r in zip(axes, results):
        _panel(ax, r, models)
    if title:
        fig.suptitle(title)
    if path:
        save(fig, path)
    return fig


def save(fig: Figure, path: str) -> None:
    """``fig`` drawn in the format of ``path``'s extension (png by default) and written whole or not at all
    (:func:`ts_eval.io.sink.write_bytes`: an existing file stays as it was when writing fails)."""
    import io
    import os

    from ..io.sink import write_bytes

    ext = os.path.splitext(str(path))[1].lstrip(".").lower() or "png"
    buf = io.BytesIO()
    try:
        fig.savefig(buf, dpi=150, format=ext)
    except ValueError as err:
        raise OptionError(f"cannot write the plot to {path}: {err}") from None
    write_bytes(path, buf.getvalue())


def _panel(ax: Axes, r: RankingResult, models: Optional[List[str]]) -> None:
    from matplotlib import colormaps

    cols = [r.models.index(m) for m in (models or r.models)]
    x = np.arange(len(cols), dtype=float)
    n = len(r.systems)
    cmap = colormaps["tab20"] if n <= 20 else colormaps["turbo"]
    ref = r.reference_index
    spread = 0.25 if n > 1 else 0.0
    for rank_pos, i in enumerate(r.order[ref]):
        colour = cmap(rank_pos % 20) if n <= 20 else cmap(rank_pos / max(n - 1, 1))
        offset = (rank_pos / max(n - 1, 1) - 0.5) * spread
        y = r.ranks[i, cols]
        ax.plot(x + offset, y, "-o", color=colour, lw=1.6, ms=4, zorder=3)
        if r.bootstrap is not None:
            lo, hi = r.bootstrap.rank_low[i, cols], r.bootstrap.rank_high[i, cols]
            ax.vlines(x + offset, lo, hi, color=colour, alpha=0.35, lw=3, zorder=2)
        ax.annotate(r.systems[i], (x[0] + offset, y[0]), xytext=(-8, 0), textcoords="offset points",
                    ha="right", va="center", fontsize=8, color=colour)
        ax.annotate(r.systems[i], (x[-1] + offset, y[-1]), xytext=(8, 0), textcoords="offset points",
                    ha="left", va="center", fontsize=8, color=colour)
    ax.set_xticks(x)
    ax.set_xticklabels([r.titles[k] for k in cols], rotation=30, ha="right")
    ax.set_yticks(np.arange(1, n + 1))
    ax.set_ylim(n + 0.7, 0.3)
    chars = max(len(s) for s in r.systems)
    pad = (LABEL_INCHES * chars + 0.45) / UNIT_INCHES
    ax.set_xlim(-pad, len(cols) - 1 + pad)
    ax.set_ylabel("rank (1 = best)")
    note = ""
    if r.bootstrap is not None:
        note = f"; bars: {100 * r.bootstrap.confidence:g}% bootstrap rank intervals ({r.bootstrap.resamples} resamples)"
    ax.set_title(f"{r.task}: ranks per model{note}", fontsize=9)
    ax.grid(axis="y", alpha=0.25)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
