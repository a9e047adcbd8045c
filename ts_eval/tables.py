"""Report -> tables (header + rows of plain values) shared by every tabular renderer.

Renderers (rich, Markdown, LaTeX, CSV) only format these; none of them reads the
Report on its own, so all of them show the same numbers in the same order.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Sequence

from .report import Report


@dataclass
class Table:
    title: str
    header: List[str]
    rows: List[List[Any]]
    groups: Sequence[tuple] = ()  # (label, first column, last column) for grouped headers


def summary(report: Report) -> Table:
    """One row per system: TS micro/macro P/R/F1 and kappa next to exact-match P/R/F1."""
    header = ["system",
              "TS µP", "TS µR", "TS µF", "TS MP", "TS MR", "TS MF", "TS µκ", "TS Mκ",
              "ex P", "ex R", "ex F", "ex MF", "acc"]
    rows = []
    for s in report.systems:
        ts, ex = s["ts"], s["exact"]
        rows.append([s["name"],
                     ts["micro"]["precision"], ts["micro"]["recall"], ts["micro"]["f"],
                     ts["macro"]["precision"], ts["macro"]["recall"], ts["macro"]["f"],
                     ts["micro"]["kappa"], ts["macro"]["kappa"],
                     ex["micro"]["precision"], ex["micro"]["recall"], ex["micro"]["f"], ex["macro"]["f"],
                     ex.get("token_accuracy")])
    beta = report.settings.get("beta", 1.0)
    title = "Scores in %" + (f" (F = F-beta, beta = {beta:g})" if beta != 1 else "")
    return Table(title, header, rows, groups=(("token & separator", 1, 8), ("segment exact match", 9, 13)))


def labels(report: Report, system: dict) -> Table:
    """Per-label counts next to the scores, for one system."""
    header = ["label", "TS TP", "TS FP", "TS FN", "TS P", "TS R", "TS F", "TS κ",
              "gold", "found", "correct", "ex P", "ex R", "ex F"]
    rows = []
    ts, ex = system["ts"], system["exact"]
    for lab in report.labels:
        t, e = ts["labels"][lab], ex["labels"][lab]
        rows.append([lab or '""', t["tp"], t["fp"], t["fn"], t["precision"], t["recall"], t["f"], t["kappa"],
                     e["gold"], e["found"], e["correct"], e["precision"], e["recall"], e["f"]])
    tm, em = ts["micro"], ex["micro"]
    rows.append(["micro", tm["tp"], tm["fp"], tm["fn"], tm["precision"], tm["recall"], tm["f"], tm["kappa"],
                 em["gold"], em["found"], em["correct"], em["precision"], em["recall"], em["f"]])
    tM, eM = ts["macro"], ex["macro"]
    rows.append(["macro", None, None, None, tM["precision"], tM["recall"], tM["f"], tM["kappa"],
                 None, None, None, eM["precision"], eM["recall"], eM["f"]])
    if "all_labels" in ts:
        a = ts["all_labels"]
        rows.append(["all labels", a["tp"], a["fp"], a["fn"], a["precision"], a["recall"], a["f"], a["kappa"],
                     None, None, None, None, None, None])
    return Table(f"{system['name']}: per label (scores in %)", header, rows,
                 groups=(("token & separator", 1, 7), ("segment exact match", 8, 13)))


COUNT_COLUMNS = {"TS TP", "TS FP", "TS FN", "gold", "found", "correct"}


def cell(header: str, value: Any, digits: int = 2) -> str:
    """Counts as integers (weighted counts keep their fraction); scores as percentages."""
    if value is None:
        return ""
    if header in COUNT_COLUMNS:
        v = float(value)
        return str(int(v)) if v.is_integer() else f"{v:g}"
    if isinstance(value, float):
        return f"{100 * value:.{digits}f}"
    return str(value)
