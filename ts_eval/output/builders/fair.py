"""Fair report (``ts-eval fair``'s data: :func:`ts_eval.fair.fair_report`, optionally with its
``settings``) -> Page: one table per evaluation method (traditional, fair, weighted),
the comparison of the methods, the error types as bars, the confusion matrix (table and
heatmap) and the target label statistics, under the result vocabulary's keys.
"""
from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

from ...errors import Spelling, python_spelling
from ..page import Block, Cell, Column, Figure, Page, Section, Table, Text

METHODS = ("traditional", "fair", "weighted")
TRADITIONAL = ("tp", "fp", "fn")
FAIR = ("tp", "fp", "le", "be", "bes", "bel", "beo", "lbe", "fn")



def method_table(rep: Mapping[str, Any], method: str) -> Table:
    block = rep[method]
    types = [t for t in (TRADITIONAL if method == "traditional" else FAIR)
             if any(r.get(t) is not None for r in [*block["labels"].values(), block["micro"]])]
    cols = [Column("label", "label")] + [Column(t, t.upper(), "counts") for t in types] + \
        [Column(k, t, "scores") for k, t in (("precision", "P"), ("recall", "R"), ("f", "F1"))]

    def row(title: str, d: Mapping[str, Any]) -> List[Cell]:
        cnt = {t: d[t] for t in types if d.get(t) is not None}
        return [Cell(title)] + [Cell(d.get(t), "count") for t in types] + \
            [Cell(d.get(k), "score", counts=cnt) for k in ("precision", "recall", "f")]

    rows = [row(lab, block["labels"][lab]) for lab in sorted(block["labels"])]
    rows.append(row("micro", block["micro"]))
    return Table(f"fair-{method}", f"{method.title()} evaluation (scores in %)", cols, rows,
                 row_styles=[None] * (len(rows) - 1) + ["total"])


def comparison_table(rep: Mapping[str, Any], methods: List[str]) -> Table:
    cols = [Column("method", "method"), Column("precision", "P"), Column("recall", "R"), Column("f", "F1")]
    rows = [[Cell(m)] + [Cell(rep[m]["micro"].get(k), "score") for k in ("precision", "recall", "f")]
            for m in methods]
    return Table("fair-methods", "Comparison of the methods (micro, %)", cols, rows)


def stats_table(rep: Mapping[str, Any], tid: str = "fair-target-stats") -> Table:
    cols = [Column("label", "label"), Column("gold", "gold spans"), Column("share", "share %")]
    rows = [[Cell(st["label"]), Cell(st["gold"], "count"), Cell(st["share"], "score")]
            for st in rep.get("target_stats", [])]
    return Table(tid, "Target label statistics", cols, rows)


def build(report: Mapping[str, Any], name: str = "system", *, spell: Spelling = python_spelling) -> Page:
    """The page of a fair report (``settings`` optional, as ``ts-eval fair --format json`` writes it)."""
    rep: Dict[str, Any] = dict(report)
    methods = [m for m in METHODS if m in rep]
    st = rep.get("settings", {})
    about = f"focus {rep.get('focus')}, mode {rep.get('mode')}"
    if st:
        about = f"target {st.get('target_in')}, system {st.get('system_in')}; " + about
    blocks: List[Block] = [Text(about, "note"), *(method_table(rep, m) for m in methods),
                           comparison_table(rep, methods)]
    sections = [Section("Fair evaluation", blocks, id="methods")]
    if "fair" in rep:
        tot = rep["fair"]["micro"]
        sections.append(Section("Error types", [Figure("fair-error-bars", "Fair error types (micro)", "bars",
                                                       {"labels": [t.upper() for t in FAIR],
                                                        "values": [tot.get(t, 0) for t in FAIR], "kind": "count"})],
                                id="error-types"))
    sections.append(Section("Confusion matrix", confusion_blocks(name, rep["confusion"], "fair-confusion"),
                            id="confusion"))
    sections.append(Section("Target data", [stats_table(rep)], id="target-stats"))
    return Page("fair", "Fair evaluation (Ortmann 2022)", sections, {"settings": st})


def confusion_blocks(name: str, cm: Mapping[str, Mapping[str, float]], tid: str, title: Optional[str] = None,
                     corner: str = "target \\ system", order: Optional[List[str]] = None,
                     off_scale: Optional[str] = None, columns: Optional[List[str]] = None,
                     scale_diagonal: bool = True, note: str = "") -> List[Any]:
    """A confusion matrix (rows gold/target, columns system) as a table and its heatmap; by default
    Ortmann's (labels sorted, _ = missing / spurious); ``order``: the rows' and columns' order
    (``columns``: the columns' own order, when they differ from the rows'); ``off_scale``: a
    row/column name whose diagonal cell stays out of the colour scale (drawn in the darkest colour),
    so that one huge cell (TS's outside x outside) does not pale every other; ``scale_diagonal``
    False: every diagonal cell (row and column of one name) stays out of it, so that the errors
    off the diagonal keep their shades; ``note``: the table's note."""
    rows_ = list(order) if order is not None else sorted(cm)
    cols_ = (list(columns) if columns is not None else list(order) if order is not None
             else sorted({c for row in cm.values() for c in row}))
    cols = [Column("target", corner)] + [Column(c, c) for c in cols_]   # keyed by the label: the CSV names it
    rows = [[Cell(r)] + [Cell(cm[r].get(c, 0), "count") for c in cols_] for r in rows_]
    title = title or f"{name}: fair confusion matrix (diagonal: boundary errors)"
    values = [[cm[r].get(c, 0) for c in cols_] for r in rows_]

    def scaled(r: str, c: str) -> bool:
        return not ((off_scale is not None and r == c == off_scale) or (not scale_diagonal and r == c))

    hi = max([v for i, row in enumerate(values) for j, v in enumerate(row) if scaled(rows_[i], cols_[j])] + [0])
    fig = Figure(f"{tid}-heatmap", title, "heatmap", {"rows": rows_, "columns": cols_, "values": values, "low": None,
                                                      "high": None, "kind": "count", "range": [0, hi]})
    return [Table(tid, title, cols, rows, sortable=False, note=note), fig]
