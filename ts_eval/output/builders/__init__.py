"""Page builders: one module per kind of result, each ``build(result, **options) -> Page``.

- :mod:`.score`: a score :class:`~ts_eval.results.report.Report` (or its dict);
- :mod:`.fair`: ``ts-eval fair``'s report (:func:`ts_eval.fair.fair_report`, with settings);
- :mod:`.rank`: a :class:`~ts_eval.ranking.study.RankingResult` or :class:`~ts_eval.ranking.study.MultiTaskResult`;
- :mod:`.compare`: a :class:`~ts_eval.comparison.Comparison`;
- :mod:`.germeval`: the GermEval report (:func:`ts_eval.germeval.evaluate.evaluate_germeval`);
- :mod:`.analyze`: an :class:`~ts_eval.analysis.result.Analysis`;
- :mod:`.analysis_errors`: an :class:`~ts_eval.analysis.errors.ErrorAnalysis` (its sections also sit on
  the analysis page).
- :mod:`.agree`: an :class:`~ts_eval.agreement.results.Agreement`;
- :mod:`.references`: a :class:`~ts_eval.ranking.references.ReferenceRanking`;
- :mod:`.validate`: a :class:`~ts_eval.validation.result.Validation`.

:func:`build` picks the builder by the result's type (a GermEval report by its settings).
A builder selects, orders and labels numbers the result holds; it computes none.
"""
from __future__ import annotations

import importlib
from typing import Any

from ...errors import Spelling, python_spelling
from ..page import Page

KINDS = ("score", "fair", "rank", "compare", "germeval", "analyze", "analysis_errors", "agree", "references",
         "validate")


def kind_of(result: Any) -> str:
    """Which builder reads ``result``."""
    from ...results.report import Report

    name = type(result).__name__
    if name in ("RankingResult", "MultiTaskResult"):
        return "rank"
    if name == "Comparison":
        return "compare"
    if name == "Analysis":
        return "analyze"
    if name == "ErrorAnalysis":
        return "analysis_errors"
    if name == "Agreement":
        return "agree"
    if name == "ReferenceRanking":
        return "references"
    if name == "Validation":
        return "validate"
    if isinstance(result, Report):
        return "germeval" if result.settings.get("command") == "germeval" else "score"
    if isinstance(result, dict):
        if "confusion" in result and "target_stats" in result:
            return "fair"
        if "systems" in result and "settings" in result:
            return "germeval" if result["settings"].get("command") == "germeval" else "score"
    raise TypeError(f"no page builder for {name}; expected a score or GermEval Report, a fair report, "
                    "a RankingResult, a MultiTaskResult, a Comparison, an Analysis, an ErrorAnalysis or an "
                    "Agreement")


def build(result: Any, kind: str = "", *, spell: Spelling = python_spelling, **options: Any) -> Page:
    """The page of any result (``kind``: force a builder, one of :data:`KINDS`).

    ``spell``: how a note that names an option writes it (default: as a Python keyword,
    ``scheme='IOB1'``; the command line passes its flags, ``--scheme IOB1``); ``options`` go to the
    builder."""
    kind = kind or kind_of(result)
    if kind not in KINDS:
        raise ValueError(f"page kind {kind!r}: expected one of {', '.join(KINDS)}")
    page: Page = importlib.import_module(f".{kind}", __name__).build(result, spell=spell, **options)
    return page
