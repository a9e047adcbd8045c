"""Report -> rich tables for the terminal. Reads only the shared tables."""
from __future__ import annotations

from typing import Optional

from rich import box
from rich.console import Console
from rich.table import Table as RichTable

from . import tables
from .documents.score import scheme_hint
from .report import Report


def _rich(t: tables.Table) -> RichTable:
    rt = RichTable(title=t.title, title_justify="left", header_style="bold", box=box.SIMPLE_HEAD,
                   pad_edge=False, padding=(0, 1))
    for k, h in enumerate(t.header):
        rt.add_column(h, justify="left" if k == 0 else "right", no_wrap=True)
    for r in t.rows:
        style = "bold" if r[0] in ("micro", "macro") else None
        rt.add_row(*[tables.cell(h, v) for h, v in zip(t.header, r)], style=style)
    return rt


def print_report(report: Report, console: Optional[Console] = None, per_label: bool = True,
                 confusion: bool = False) -> None:
    if console is None:
        console = Console()
        if not console.is_terminal:
            console = Console(width=200)
    st, co = report.settings, report.corpus
    scheme = st["scheme"] if st["scheme"] == st["scheme_requested"] else f"{st['scheme']} (detected)"
    console.print(f"[dim]{co['tokens']} tokens, {co['sentences']} sentences, labels: "
                  f"{', '.join(co['labels']) or '-'}; scheme {scheme}, policy {st['policy']}, "
                  f"separator weight {st['separator_weight']:g}, beta {st['beta']:g}[/dim]")
    notes = []
    for side in [report.gold] + [s["source"] for s in report.systems]:
        if side["repairs"] or side["discarded"] or side["unmapped"]:
            first = side.get("first_repair_line")
            at = f" (first ill-formed: {side['path']}:{first})" if first is not None and side.get("path") else ""
            notes.append(f"{side['name']}: {side['repairs']} ill-formed spans repaired, "
                         f"{side['discarded']} discarded{at}, {side['unmapped']} dropped by the label map")
        hint = scheme_hint(st["scheme"], side)
        if hint:
            notes.append(hint)
    for n in notes:
        console.print(f"[yellow]{n}[/yellow]")
    shown = tables.all_tables(report, confusion=confusion)
    for t in shown if per_label else shown[:1]:
        console.print(_rich(t))
    console.print("[dim]TS: token & separator units; ex: segment exact match (conlleval); "
                  "µ micro, M macro, κ Cohen's kappa; acc: conlleval token accuracy; fair/wtd: Ortmann's fair "
                  "and weighted scores[/dim]")
