"""GermEval 2014 reports on the terminal: rich tables of the official Metrics 1-4, TS over both levels
and the fair error types, with the validation notes (read from the report; nothing is recomputed)."""
from __future__ import annotations

from typing import Any, Dict, List, Optional


def _f(x: Optional[float], digits: int = 2) -> str:
    if x is None:
        return "-"
    text = f"{x:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text   # no "-0.000"


def notes(report) -> List[str]:
    """Validation findings worth a line: repaired or dropped chunks, the scorer's end-of-input rule."""
    out = []
    st = report.settings
    for s in report.systems:
        v = s["validation"]
        for row, d in v["rows"].items():
            if d["ill_formed"] or d["dropped"]:
                what = []
                if d["i_start"]:
                    what.append(f"{d['i_start']} start with I-")
                if d["label_change_inside"]:
                    what.append(f"{d['label_change_inside']} change label inside")
                if d["crosses_sentence"]:
                    what.append(f"{d['crosses_sentence']} run into the next sentence")
                if d["dropped"]:
                    what.append(f"{d['dropped']} dropped")
                out.append(f"{row}: {d['ill_formed'] + d['dropped']} ill-formed IOB2 chunks "
                           f"({', '.join(what)}); policy {st['policy']}")
        if v["eof_dropped_strict"]:
            out.append(f"{v['eof_dropped_strict']} correct chunk(s) end on the last token and are not counted, "
                       "as the official scorer does (--count-last-chunk counts them)")
    return out


def _table(title: str, cols: List[str]):
    from rich import box
    from rich.table import Table

    t = Table(title=title, title_justify="left", header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False)
    for k, c in enumerate(cols):
        t.add_column(c, justify="left" if k == 0 else "right", no_wrap=True)
    return t


METRIC_ROWS = ("M1 strict, combined (official)", "M2 loose, combined", "M3 strict, outer", "M3 strict, inner")


def _metrics_tables(s: Dict[str, Any]) -> list:
    """The official numbers: Metrics 1-4, then the per-type lines (the report's ``official`` part)."""
    official = s["germeval"]["official"]
    t = _table(f"{s['name']}: GermEval 2014 metrics (official scorer's numbers, %)",
               ["metric", "gold", "found", "correct", "P", "R", "F1", "token acc (M4)"])
    for name, b in zip(METRIC_ROWS, official["blocks"]):
        t.add_row(name, str(b["gold"]), str(b["found"]), str(b["correct"]), _f(b["precision"]), _f(b["recall"]),
                  _f(b["f1"]), _f(b["accuracy"]), style="bold" if name.startswith("M1") else None)
    t2 = _table("Metric 1 per type (strict; loose rows for the base classes), %",
                ["type", "run", "gold", "found", "correct", "P", "R", "F1"])
    for typ, rows in official["per_type"].items():
        for d in rows:
            t2.add_row(typ, d["run"], str(d["gold"]), str(d["found"]), str(d["correct"]), _f(d["precision"]),
                       _f(d["recall"]), _f(d["f1"]))
    return [t, t2]


def _ts_table(ts: Dict[str, Any]):
    t = _table("TS (token & separator units), both levels at once, %", ["label", "TP", "FP", "FN", "P", "R", "F", "κ"])
    for lab, d in ts["labels"].items():
        if d["present"]:
            t.add_row(lab, f"{d['tp']:g}", f"{d['fp']:g}", f"{d['fn']:g}", _f(100 * d["precision"]),
                      _f(100 * d["recall"]), _f(100 * d["f"]), _f(d["kappa"], 3))
    mi, ma = ts["micro"], ts["macro"]
    t.add_row("micro", f"{mi['tp']:g}", f"{mi['fp']:g}", f"{mi['fn']:g}", _f(100 * mi["precision"]),
              _f(100 * mi["recall"]), _f(100 * mi["f"]), _f(mi["kappa"], 3), style="bold")
    t.add_row("macro", "", "", "", _f(100 * ma["precision"]), _f(100 * ma["recall"]), _f(100 * ma["f"]),
              _f(ma["kappa"], 3), style="bold")
    for level, d in ts["levels"].items():
        t.add_row(f"{level} level (micro)", f"{d['tp']:g}", f"{d['fp']:g}", f"{d['fn']:g}",
                  _f(100 * d["precision"]), _f(100 * d["recall"]), _f(100 * d["f"]), _f(d["kappa"], 3))
    return t


def print_germeval(report, console=None) -> None:
    from rich.console import Console

    if console is None:
        console = Console()
        if not console.is_terminal:
            console = Console(width=200)
    co, st = report.corpus, report.settings
    console.print(f"[dim]{co['tokens']} tokens, {co['sentences']} sentences; policy {st['policy']}; "
                  f"TS separator weight {st['separator_weight']:g}[/dim]")
    for n in notes(report):
        console.print(f"[yellow]{n}[/yellow]")
    for s in report.systems:
        for t in _metrics_tables(s):
            console.print(t)
        if s.get("ts"):
            console.print(_ts_table(s["ts"]))
        fair = s.get("fair")
        if fair is not None:
            if not fair.get("available"):
                console.print(f"[dim]fair error types: {fair.get('note')}[/dim]")
            elif fair.get("table"):
                ft = fair["table"]
                t = _table("Fair error types per level (Ortmann 2022)", [str(h) for h in ft["header"]])
                for r in ft["rows"]:
                    t.add_row(*[str(v) for v in r])
                console.print(t)
    console.print("[dim]M1-M4 as nereval.perl computes them (chunks: an I- tag of another label does not open "
                  "a new chunk); TS: token & separator units, outer and inner chunks in one span set[/dim]")
