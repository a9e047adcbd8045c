"""How a result shows itself in Python: ``str``, ``repr``, ``_repr_html_`` (Jupyter) and pandas.

Every result class (:class:`~ts_eval.results.report.Report`, :class:`~ts_eval.ranking.study.RankingResult`,
:class:`~ts_eval.ranking.study.MultiTaskResult`, :class:`~ts_eval.comparison.results.Comparison`) mixes in
:class:`Displayed`:

- ``str(result)``: the summary of the result's page (its first section(s)) as the terminal
  table renderer writes it at 100 columns, without colour -- what ``print(result)`` shows;
- ``result._repr_html_()``: the whole page through the HTML renderer as a fragment (one
  ``<div>`` with its CSS scoped to it, no script): what a notebook shows;
- ``repr(result)``: each class's own short text, one line per system with its main scores.

The views are registered by :mod:`ts_eval.output.views` (imported by the package ``__init__``), which
imports the page and renderer modules only when a view is asked for: a result module
imports no page or renderer (the pipeline runs one way), and ``ts-eval score`` does not pay
for them.
"""
from __future__ import annotations

import importlib
import math
from types import ModuleType
from typing import Any, Callable, Dict, Iterable, List, Optional, Protocol, TypeVar

#: console width of ``str(result)``
STR_WIDTH = 100
#: systems listed by ``repr`` before "... and N more"
REPR_SYSTEMS = 12


#: the views, registered by :mod:`ts_eval.output.views` (imported by the package): kind -> fn(result) -> str
VIEWS: Dict[str, Callable[[Displayed], str]] = {}


class _Section(Protocol):
    """What :meth:`Displayed.summary` reads of a page's section (the page model sits above the results)."""

    detail: bool


_SectionT = TypeVar("_SectionT", bound=_Section)


def register_view(kind: str, fn: Callable[[Displayed], str]) -> None:
    """Register how results are shown as ``kind`` ("text" for ``str``, "html" for Jupyter).

    The results sit below the pages and renderers in the pipeline, so they cannot import
    them; the top of the package (:mod:`ts_eval.output.views`) registers the views instead."""
    VIEWS[kind] = fn


class Displayed:
    """``__str__`` and ``_repr_html_`` from the result's page (see the module docstring)."""

    #: how many leading sections of the page ``str`` shows
    summary_sections: int = 1

    def __str__(self) -> str:
        if "text" not in VIEWS:      # ts_eval.output.views not imported (cannot happen through the package)
            return repr(self)
        return VIEWS["text"](self)

    def summary(self, sections: List[_SectionT]) -> List[_SectionT]:
        """The sections ``str`` shows: the first :attr:`summary_sections` that are not details."""
        return [s for s in sections if not s.detail][: self.summary_sections]

    def _repr_html_(self) -> Optional[str]:
        return VIEWS["html"](self) if "html" in VIEWS else None


def number(value: Any) -> str:
    """A score for ``repr``: a fraction with four decimals, 'n/a' when missing or undefined."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        return "n/a"
    return "n/a" if math.isnan(v) else f"{v:.4f}"


def listing(head: str, lines: Iterable[str]) -> str:
    """``head`` and one indented line per system, cut after :data:`REPR_SYSTEMS`."""
    lines = list(lines)
    shown: List[str] = lines[:REPR_SYSTEMS]
    if len(lines) > REPR_SYSTEMS:
        shown.append(f"... and {len(lines) - REPR_SYSTEMS} more")
    return "\n".join([head] + [f"  {line}" for line in shown])


def require_pandas() -> ModuleType:
    """The pandas module (untyped: its names are ``Any`` to a type checker), or an ImportError that says
    how to get it."""
    try:
        return importlib.import_module("pandas")
    except ImportError:
        raise ImportError("to_frame() needs pandas: pip install pandas (or pip install ts_eval[frame]); "
                          "to_dict() works without it") from None
