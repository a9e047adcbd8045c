"""The FairEval reference tool's tab-separated report layout (its ``eval.csv``).

Sections, in the reference's order: evaluation settings; one table per
evaluation method (traditional, fair, weighted) with per-label and overall
counts and Prec/Rec/F1 in percent; a comparison of the methods; the confusion
matrix (target labels as rows, system labels as columns, ``_`` for missing /
spurious, boundary errors on the diagonal, labels sorted as Python sorts
strings); the target label statistics in order of first appearance.  Numbers
are formatted as the reference formats them (``{:04.2f}`` of the percentage).
Rendering only reads the plain-data report of :func:`ts_eval.fair.fair_report`
(:func:`to_faireval`; ``ts-eval fair``) or the fair part of each system of a score report
(:func:`score_to_faireval`; ``ts-eval score --format faireval``).
"""
from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence

from ...fair.types import MISSING
from ...results.report import Report

FAIR_COLUMNS = ("TP", "FP", "LE", "BE", "LBE", "FN")
TRADITIONAL_COLUMNS = ("TP", "FP", "FN")


def faireval_settings(
    target_in: str,
    system_in: str,
    *,
    labels: Optional[Sequence[str]] = None,
    exclude: Sequence[str] = (),
    ignore_punct: bool = True,
    focus: str = "target",
    eval_method: Sequence[str] = ("traditional", "fair", "weighted"),
    weights: Optional[Mapping[str, Mapping[str, float]]] = None,
) -> Dict[str, Any]:
    """The settings block as the reference prints it (``weights`` only when configured;
    ``exclude`` always ends with the dummy labels NONE and EMPTY)."""
    ex = [e for e in dict.fromkeys(exclude) if e not in ("NONE", "EMPTY")] + ["NONE", "EMPTY"]
    out: Dict[str, Any] = {
        "eval_method": list(eval_method),
        "exclude": ex,
        "focus": focus,
        "ignore_punct": bool(ignore_punct),
        "labels": list(labels) if labels else ["all"],
        "system_in": system_in,
        "target_in": target_in,
    }
    if weights is not None:
        out["weights"] = {k: dict(v) for k, v in weights.items()}
    return out


def _pct(x: float) -> str:
    return f"{x * 100:04.2f}"


def _table(lines: List[str], title: str, cats: Sequence[str], rows: Mapping[str, Mapping[str, Any]],
           overall: Mapping[str, Any]) -> None:
    lines.append("")
    lines.append(f"### {title} evaluation:")
    lines.append("\t".join(["Label", *cats, "Prec", "Rec", "F1"]))
    for label in sorted(rows):
        r = rows[label]
        lines.append("\t".join([label, *(str(r.get(c.lower(), 0)) for c in cats),
                                _pct(r["precision"]), _pct(r["recall"]), _pct(r["f"])]))
    lines.append("\t".join(["overall", *(str(overall.get(c.lower(), 0)) for c in cats),
                            _pct(overall["precision"]), _pct(overall["recall"]), _pct(overall["f"])]))


def to_faireval(report: Mapping[str, Any], settings: Optional[Mapping[str, Any]] = None) -> str:
    """Render a :func:`ts_eval.fair.fair_report` in the reference tool's layout.

    ``settings`` (see :func:`faireval_settings`) decides which methods are shown
    (``eval_method``) and, when it holds ``weights``, the columns of the weighted
    table (the error types of the weights, in their order); without weights the
    weighted table, if asked for, has the fair columns.
    """
    settings = dict(settings or {})
    methods = list(settings.get("eval_method") or [m for m in ("traditional", "fair", "weighted") if m in report])
    lines: List[str] = ["### Evaluation settings:"]
    for key in sorted(settings):
        lines.append(f"{key}: {settings[key]}")
    lines.append("")
    for m in methods:
        if m not in report:
            raise ValueError(f"the report has no {m!r} results (computed: "
                             f"{', '.join(k for k in ('traditional', 'fair', 'weighted') if k in report)})")
        if m == "traditional":
            cats: Sequence[str] = TRADITIONAL_COLUMNS
        elif m == "fair" or not settings.get("weights"):
            cats = FAIR_COLUMNS
        else:
            cats = list(settings["weights"])
        _table(lines, m.title(), cats, report[m]["labels"], report[m]["micro"])
    lines.append("")
    lines.append("### Comparison:")
    lines.append("Version\tPrec\tRec\tF1")
    for m in methods:
        o = report[m]["micro"]
        lines.append("\t".join([m.title(), _pct(o["precision"]), _pct(o["recall"]), _pct(o["f"])]))
    lines.append("")
    lines.append("### Confusion matrix:")
    conf = report["confusion"]
    labels = sorted(set(conf) | {s for row in conf.values() for s in row} | {MISSING})
    lines.append("\t".join(["Target\\System", *labels]))
    for t in labels:
        row = conf.get(t, {})
        lines.append("\t".join([t, *(str(row.get(s, 0)) for s in labels)]))
    lines.append("")
    lines.append("### Target data stats:")
    lines.append("Label\tFreq\t%")
    total = sum(st["gold"] for st in report["target_stats"])
    for st in report["target_stats"]:   # FairEval's percentage, computed from the counts in its order
        lines.append(f"{st['label']}\t{st['gold']}\t{100.0 * st['gold'] / total:04.2f}")
    return "\n".join(lines) + "\n"


def score_to_faireval(report: Report) -> str:
    """A score report (:class:`~ts_eval.results.report.Report` with the fair model) in the FairEval reference
    tool's layout, one block per system (``ts-eval score --format faireval``)."""
    st = report.settings
    inp = st.get("input", {})
    blocks = []
    for s in report.systems:
        if "fair" not in s:
            raise ValueError("the faireval format needs the fair model")
        settings = faireval_settings(
            target_in=str(inp.get("gold") or inp.get("file") or report.gold.get("path") or "gold"),
            system_in=str(s["source"].get("path") or s["name"]), ignore_punct=False,
            focus=st["fair"]["focus"], weights=st["fair"]["weights"])
        text = to_faireval(s["fair"], settings)
        blocks.append(text if len(report.systems) == 1 else f"# system: {s['name']}\n{text}")
    return "\n".join(blocks)
