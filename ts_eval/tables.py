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


OTHER_SEGMENT = (("overlap", "ov"), ("constrained", "co"), ("contain", "ct"))


def summary(report: Report) -> Table:
    """One row per system: TS micro/macro P/R/F1 and kappa next to exact-match P/R/F1,
    then F1 micro/macro of every further model."""
    models = report.settings.get("models", ["ts", "exact"])
    header, groups, getters = ["system"], [], []

    def add(group, cols):
        first = len(header)
        for h, g in cols:
            header.append(h)
            getters.append(g)
        groups.append((group, first, len(header) - 1))

    if "ts" in models:
        add("token & separator", [
            ("TS µP", lambda s: s["ts"]["micro"]["precision"]), ("TS µR", lambda s: s["ts"]["micro"]["recall"]),
            ("TS µF", lambda s: s["ts"]["micro"]["f"]), ("TS MP", lambda s: s["ts"]["macro"]["precision"]),
            ("TS MR", lambda s: s["ts"]["macro"]["recall"]), ("TS MF", lambda s: s["ts"]["macro"]["f"]),
            ("TS µκ", lambda s: s["ts"]["micro"]["kappa"]), ("TS Mκ", lambda s: s["ts"]["macro"]["kappa"])])
    if "exact" in models:
        add("segment exact match", [
            ("ex P", lambda s: s["exact"]["micro"]["precision"]), ("ex R", lambda s: s["exact"]["micro"]["recall"]),
            ("ex F", lambda s: s["exact"]["micro"]["f"]), ("ex MF", lambda s: s["exact"]["macro"]["f"]),
            ("acc", lambda s: s["exact"].get("token_accuracy"))])
    for model, short in OTHER_SEGMENT:
        if model in models:
            add(model, [(f"{short} µF", lambda s, m=model: s[m]["micro"]["f"]),
                        (f"{short} MF", lambda s, m=model: s[m]["macro"]["f"])])
    if "fair" in models:
        add("fair error types", [("fair P", lambda s: s["fair"]["fair"]["micro"]["precision"]),
                                 ("fair R", lambda s: s["fair"]["fair"]["micro"]["recall"]),
                                 ("fair F1", lambda s: s["fair"]["fair"]["micro"]["f"]),
                                 ("wtd F1", lambda s: s["fair"]["weighted"]["micro"]["f"])])
    rows = [[s["name"]] + [g(s) for g in getters] for s in report.systems]
    beta = report.settings.get("beta", 1.0)
    # Ortmann's fair and weighted F are F1 by definition (their columns say so): beta is not theirs
    title = "Scores in %" + (f" (F = F-beta, beta = {beta:g}; F1 columns: beta = 1)" if beta != 1 else "")
    return Table(title, header, rows, groups=tuple(groups))


def labels(report: Report, system: dict) -> Table:
    """Per-label counts next to the scores of the TS and exact models, for one system."""
    header, rows = ["label"], [[lab or '""'] for lab in report.labels] + [["micro"], ["macro"]]
    groups = []
    ts, ex = system.get("ts"), system.get("exact")
    if ts is not None:
        groups.append(("token & separator", len(header), len(header) + 6))
        header += ["TS TP", "TS FP", "TS FN", "TS P", "TS R", "TS F", "TS κ"]
        for row, lab in zip(rows, report.labels):
            t = ts["labels"][lab]
            row += [t["tp"], t["fp"], t["fn"], t["precision"], t["recall"], t["f"], t["kappa"]]
        tm, tM = ts["micro"], ts["macro"]
        rows[-2] += [tm["tp"], tm["fp"], tm["fn"], tm["precision"], tm["recall"], tm["f"], tm["kappa"]]
        rows[-1] += [None, None, None, tM["precision"], tM["recall"], tM["f"], tM["kappa"]]
    if ex is not None:
        groups.append(("segment exact match", len(header), len(header) + 5))
        header += ["gold", "found", "correct", "ex P", "ex R", "ex F"]
        for row, lab in zip(rows, report.labels):
            e = ex["labels"][lab]
            row += [e["gold"], e["system"], e["tp"], e["precision"], e["recall"], e["f"]]
        em, eM = ex["micro"], ex["macro"]
        rows[-2] += [em["gold"], em["system"], em["tp"], em["precision"], em["recall"], em["f"]]
        rows[-1] += [None, None, None, eM["precision"], eM["recall"], eM["f"]]
    if ts is not None and "all_labels" in ts:
        a = ts["all_labels"]
        rows.append(["all labels", a["tp"], a["fp"], a["fn"], a["precision"], a["recall"], a["f"], a["kappa"]]
                    + [None] * (len(header) - 8))
    return Table(f"{system['name']}: per label (scores in %)", header, rows, groups=tuple(groups))


def segment_labels(report: Report, system: dict, model: str) -> Table:
    """Per-label hit counts and scores of an overlap-type segment model."""
    m = system[model]
    header = ["label", "gold", "gold hit", "found", "found hit", "P", "R", "F"]
    keys = ["gold", "gold_hit", "system", "system_hit", "precision", "recall", "f"]
    rows = [[lab or '""'] + [m["labels"][lab][k] for k in keys] for lab in report.labels]
    rows.append(["micro"] + [m["micro"][k] for k in keys])
    rows.append(["macro", None, None, None, None, m["macro"]["precision"], m["macro"]["recall"], m["macro"]["f"]])
    lim = m.get("limits", {})
    note = f" (k1 = {lim.get('max_spurious')}, k2 = {lim.get('max_missing')})" if model != "overlap" else ""
    return Table(f"{system['name']}: {model} model{note}, per label (scores in %)", header, rows)


FAIR_TYPES = ("TP", "FP", "LE", "BE", "BES", "BEL", "BEO", "LBE", "FN")


def fair_labels(system: dict) -> Table:
    """Per-label fair error counts with fair and weighted P/R/F1, for one system."""
    f = system["fair"]
    header = ["label", *FAIR_TYPES, "fair P", "fair R", "fair F1", "wtd P", "wtd R", "wtd F1"]
    rows = []
    for lab in f["present_labels"] + ["overall"]:
        fr = f["fair"]["micro"] if lab == "overall" else f["fair"]["labels"][lab]
        wr = f["weighted"]["micro"] if lab == "overall" else f["weighted"]["labels"][lab]
        rows.append([lab or '""', *[fr.get(t.lower()) for t in FAIR_TYPES], fr["precision"], fr["recall"], fr["f"],
                     wr["precision"], wr["recall"], wr["f"]])
    return Table(f"{system['name']}: fair error types (focus {f['focus']}), per label (scores in %)", header, rows)


def fair_confusion(system: dict) -> Table:
    """Ortmann's confusion matrix: target labels x system labels, _ = missing / spurious."""
    cm = system["fair"]["confusion"]
    cols = sorted({c for row in cm.values() for c in row})
    header = ["target \\ system", *cols]
    rows = [[r, *[cm[r].get(c, 0) for c in cols]] for r in sorted(cm)]
    return Table(f"{system['name']}: fair confusion matrix (diagonal: boundary errors)", header, rows)


def all_tables(report: Report, confusion: bool = False) -> List[Table]:
    """Every table of a report, in display order."""
    out = [summary(report)]
    models = report.settings.get("models", ["ts", "exact"])
    for s in report.systems:
        if "ts" in models or "exact" in models:
            out.append(labels(report, s))
        for model, _ in OTHER_SEGMENT:
            if model in models:
                out.append(segment_labels(report, s, model))
        if "fair" in models:
            out.append(fair_labels(s))
            if confusion:
                out.append(fair_confusion(s))
    return out


COUNT_COLUMNS = {"TS TP", "TS FP", "TS FN", "gold", "found", "correct", "gold hit", "found hit", *FAIR_TYPES}


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
