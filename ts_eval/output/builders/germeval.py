"""GermEval 2014 Report -> Page: Metrics 1-4 and the per-type lines as the official scorer
prints them (the report's ``official`` part, already in percent: cell kind ``percent``), TS
over both levels, fair error types per level, and the validation notes.
"""
from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

from ...errors import Hint, Spelling, python_spelling, spell
from ..page import Cell, Column, Figure, Page, Section, Table, Text
from .score import ReportLike, _dict

METRIC_ROWS = ("M1 strict, combined (official)", "M2 loose, combined", "M3 strict, outer", "M3 strict, inner")
FAIR = ("tp", "fp", "le", "be", "bes", "bel", "beo", "lbe", "fn")



def metrics_table(s: Mapping[str, Any]) -> Table:
    official = s["germeval"]["official"]
    cols = [Column("metric", "metric"), Column("gold", "gold"), Column("system", "found"), Column("tp", "correct"),
            Column("precision", "P"), Column("recall", "R"), Column("f", "F1"), Column("accuracy", "token acc (M4)")]
    rows = []
    for name, b in zip(METRIC_ROWS, official["blocks"]):
        cnt = {k: b.get(k) for k in ("gold", "system", "tp")}
        rows.append([Cell(name), *[Cell(v, "count") for v in cnt.values()],
                     *[Cell(b.get(k), "percent", counts=cnt) for k in ("precision", "recall", "f")],
                     Cell(b["accuracy"], "percent")])
    return Table(f"metrics-{s['name']}", f"{s['name']}: GermEval 2014 metrics (official scorer's numbers, %)", cols,
                 rows, row_styles=["total"] + [None] * (len(rows) - 1))


def per_type_table(s: Mapping[str, Any]) -> Table:
    official = s["germeval"]["official"]
    cols = [Column("type", "type"), Column("run", "run"), Column("gold", "gold"), Column("system", "found"),
            Column("tp", "correct"), Column("precision", "P"), Column("recall", "R"), Column("f", "F1")]
    rows = []
    for typ, lines in official["per_type"].items():
        for d in lines:
            cnt = {k: d.get(k) for k in ("gold", "system", "tp")}
            rows.append([Cell(typ), Cell(d["run"]), *[Cell(v, "count") for v in cnt.values()],
                         *[Cell(d.get(k), "percent", counts=cnt) for k in ("precision", "recall", "f")]])
    return Table(f"per-type-{s['name']}", "Metric 1 per type (strict; loose rows for the base classes), %", cols, rows,
                 key_columns=2)


def ts_table(ts: Mapping[str, Any]) -> Table:
    cols = [Column("label", "label")] + [Column(k, k.upper()) for k in ("tp", "fp", "fn")] + \
        [Column(k, t) for k, t in (("precision", "P"), ("recall", "R"), ("f", "F"), ("kappa", "κ"))]

    def row(title: str, d: Mapping[str, Any], counts_too: bool = True) -> List[Cell]:
        cnt: Optional[Dict[str, Any]] = {k: d.get(k) for k in ("tp", "fp", "fn")} if counts_too else None
        return [Cell(title)] + [Cell(d.get(k) if counts_too else None, "count") for k in ("tp", "fp", "fn")] + \
            [Cell(d.get(k), "score", counts=cnt) for k in ("precision", "recall", "f")] + [Cell(d.get("kappa"), "corr")]

    rows = [row(lab, d) for lab, d in ts["labels"].items() if d["present"]]
    styles: List[Optional[str]] = [None] * len(rows)
    rows += [row("micro", ts["micro"]), row("macro", ts["macro"], False)]
    styles += ["total", "total"]
    rows += [row(f"{lv} level (micro)", d) for lv, d in ts["levels"].items()]
    styles += [None] * len(ts["levels"])
    return Table("ts", "TS (token & separator units), both levels at once (scores in %)", cols, rows,
                 row_styles=styles)


def fair_blocks(fair: Mapping[str, Any]) -> List[Any]:
    if not fair.get("available"):
        return [Text(f"fair error types: {fair.get('note')}", "note")]
    levels = fair["levels"]
    cols = [Column("level", "level")] + [Column(t, t.upper()) for t in FAIR] + \
        [Column("traditional_f", "trad F1"), Column("fair_f", "fair F1")]
    rows = []
    for lv, rep in levels.items():
        tot = rep["fair"]["micro"]
        rows.append([Cell(lv)] + [Cell(tot.get(t), "count") for t in FAIR]
                    + [Cell(rep["traditional"]["micro"].get("f"), "score"), Cell(tot.get("f"), "score")])
    parts = [t for t in FAIR if t != "be"]
    fig = Figure("fair-levels", "Fair error types per level", "stacked_bars",
                 {"labels": list(levels), "parts": [t.upper() for t in parts],
                  "values": [[rep["fair"]["micro"].get(t, 0) for t in parts] for rep in levels.values()]})
    return [Table("fair", "Fair error types per level (Ortmann 2022)", cols, rows), fig]


def notes(rep: Mapping[str, Any], spelling: Spelling = python_spelling) -> List[str]:
    """Validation findings worth a line: repaired or dropped chunks, the scorer's end-of-input rule.
    (The wording the terminal printed before the CLI rendered pages.)"""
    out = []
    for s in rep["systems"]:
        v = s["validation"]
        for row, d in v["rows"].items():
            if not (d["ill_formed"] or d["discarded"]):
                continue
            what = [f"{d[k]} {t}" for k, t in (("i_start", "start with I-"),
                                               ("label_change_inside", "change label inside"),
                                               ("crosses_sentence", "run into the next sentence"),
                                               ("discarded", "dropped")) if d[k]]
            out.append(f"{row}: {d['ill_formed'] + d['discarded']} ill-formed IOB2 chunks ({', '.join(what)}); "
                       f"policy {rep['settings']['policy']}")
        if v["eof_dropped_strict"]:
            out.append(spell([f"{v['eof_dropped_strict']} correct chunk(s) end on the last token and are not "
                              "counted, as the official scorer does (", Hint("eof_quirk", False), " counts them)"],
                             spelling))
    return out


def build(report: ReportLike, *, spell: Spelling = python_spelling) -> Page:
    """The page of a GermEval report (one block of sections per system)."""
    rep = _dict(report)
    co, st = rep["corpus"], rep["settings"]
    head = [Text(f"{co['tokens']} tokens, {co['sentences']} sentences; policy {st['policy']}; "
                 f"TS separator weight {st['separator_weight']:g}", "note")]
    head += [Text(n, "warning") for n in notes(rep, spell)]
    sections = []
    for s in rep["systems"]:
        blocks: List[Any] = head + [metrics_table(s), per_type_table(s)]
        sections.append(Section(f"{s['name']}: official metrics", blocks, id=f"official-{s['name']}"))
        head = []
        more: List[Any] = []
        if s.get("ts"):
            more.append(ts_table(s["ts"]))
        if s.get("fair") is not None:
            more += fair_blocks(s["fair"])
        if more:
            sections.append(Section(f"{s['name']}: TS and fair error types", more, id=f"more-{s['name']}"))
    sections.append(Section("Legend", [Text(
        "M1-M4 as nereval.perl computes them (chunks: an I- tag of another label does not open a new chunk); TS: "
        "token & separator units, outer and inner chunks in one span set", "note")], id="legend"))
    return Page("germeval", "GermEval 2014", sections, {"settings": st, "versions": st.get("versions", {})})
