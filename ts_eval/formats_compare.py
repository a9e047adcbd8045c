"""Comparison -> tables (shared by every renderer), rich terminal output with the examples
styled inline, and JSON / CSV / Markdown text.

Columns whose header holds ``%`` carry fractions and are shown as percentages (the CSV
writes the percentage too); every other column is a count, a name or a text.  CSV is in
long form, one value per line: ``table,row,column,value``, so every table fits one file.
"""
from __future__ import annotations

import csv
import io
import json
from typing import Any, Callable, Dict, List

from .compare.results import CLASS_TITLES, Comparison, Example
# the tables live with the comparison's document builder; the renderers below still read them
from .documents.compare_tables import (CTable, Table, _is_pct, _num, _where, all_tables,  # noqa: F401
                                       ROLE_NAMES, cell, inline_text)


# ---------------------------------------------------------------------------
# text formats

def to_json(c: Comparison) -> str:
    return json.dumps(c.to_dict(), indent=2, ensure_ascii=False) + "\n"


def _csv_value(pct: bool, v: Any) -> Any:
    if v is None:
        return ""
    if pct and _num(v):
        return round(100 * float(v), 6)
    return v


def to_csv(c: Comparison) -> str:
    """Long form: one line per cell, ``table,row,column,value`` (rows numbered from 1)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["table", "row", "column", "value"])
    for t in all_tables(c):
        for i, r in enumerate(t.rows, 1):
            for k, (h, v) in enumerate(zip(t.header, r)):
                w.writerow([t.title, i, h or "item", _csv_value(_is_pct(t, h) and k > 0, v)])
    return out.getvalue()


def _md(s: str) -> str:
    return s.replace("|", "\\|")


def to_markdown(c: Comparison) -> str:
    st = c.settings
    parts = [f"_{c.corpus['tokens']} tokens, {c.corpus['sentences']} sentences, {c.corpus['gold_spans']} gold spans; "
             f"token view {st['view']}, scheme {st['scheme']}, policy {st['policy']}_\n"]
    for t in all_tables(c, with_examples=False):
        parts.append(f"**{_md(t.title)}**\n")
        parts.append("| " + " | ".join(_md(h) for h in t.header) + " |")
        parts.append("|" + "|".join(["---"] + ["---:" if _numeric(t, k) else "---"
                                               for k in range(1, len(t.header))]) + "|")
        for r in t.rows:
            parts.append("| " + " | ".join(_md(cell(h, v, getattr(t, "digits", 2), _is_pct(t, h) and k > 0))
                                            for k, (h, v) in enumerate(zip(t.header, r))) + " |")
        parts.append("")
    if c.pair is not None and c.pair.examples:
        parts.append("**Examples** (spans as `[tokens]LABEL`, changed tokens in bold)\n")
        for e in c.pair.examples:
            parts.append(f"- {e.level} · {CLASS_TITLES[e.change_class].lower()} · `{e.transition}` · sentence "
                         f"{e.sentence + 1} · " + "; ".join(f"{r} `{_where(w)}`" for r, w in e.where.items()))
            for role in ROLE_NAMES:
                parts.append(f"  - {role}: " + _md(inline_text(e, role, ("**", "**"))))
        parts.append("")
    return "\n".join(parts)


def _numeric(t: Table, k: int) -> bool:
    vals = [r[k] for r in t.rows if r[k] is not None]
    return bool(vals) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals)


FORMATS: Dict[str, Callable[[Comparison], str]] = {"json": to_json, "csv": to_csv, "markdown": to_markdown}


# ---------------------------------------------------------------------------
# rich

PALETTE = ("cyan", "magenta", "green", "yellow", "blue", "red", "bright_cyan", "bright_magenta")


def styled_inline(e: Example, role: str, labels: List[str]):
    """A rich Text of one side's sentence: spans coloured by label, bracketed, label after the
    closing bracket; the tokens the transition is about in reverse video."""
    from rich.text import Text

    opens: Dict[int, List[str]] = {}
    closes: Dict[int, List[str]] = {}
    inside = [[] for _ in e.tokens]
    for lab, st, en in e.spans[role]:
        opens.setdefault(st, []).append(lab)
        closes.setdefault(en, []).append(lab)
        for i in range(st, en + 1):
            inside[i].append(lab)
    focus = set(e.focus)
    colour = {lab: PALETTE[k % len(PALETTE)] for k, lab in enumerate(labels)}
    t = Text()
    if e.clipped_left:
        t.append("… ", style="dim")
    for i, tok in enumerate(e.tokens):
        if i:
            t.append(" ")
        for lab in opens.get(i, []):
            t.append("[", style=f"bold {colour.get(lab, 'white')}")
        style = colour.get(inside[i][-1], "white") if inside[i] else ""
        if i in focus:
            style = (style + " reverse bold").strip()
        t.append(tok, style=style or None)
        for lab in closes.get(i, []):
            t.append("]", style=f"bold {colour.get(lab, 'white')}")
            t.append(lab, style=f"dim {colour.get(lab, 'white')}")
    if e.clipped_right:
        t.append(" …", style="dim")
    return t


def _rich_table(t: Table):
    from rich import box
    from rich.table import Table as RichTable

    rt = RichTable(title=t.title, title_justify="left", header_style="bold", box=box.SIMPLE_HEAD,
                   pad_edge=False, padding=(0, 0) if getattr(t, "percent", False) else (0, 1))
    for k, h in enumerate(t.header):
        rt.add_column(h, justify="right" if k and _numeric(t, k) else "left", no_wrap=k == 0)
    limit = getattr(t, "terminal_rows", None)
    rows = t.rows if limit is None or len(t.rows) <= limit else t.rows[:limit]
    digits = getattr(t, "digits", 2)
    for r in rows:
        style = "bold" if r and r[0] in ("overall", "difference", "total") else None
        rt.add_row(*[cell(h, v, digits, _is_pct(t, h) and k > 0) for k, (h, v) in enumerate(zip(t.header, r))],
                   style=style)
    if len(rows) < len(t.rows):
        rt.caption = f"first {len(rows)} of {len(t.rows)} rows; --format json/csv/markdown give all"
        rt.caption_justify = "left"
    return rt


def print_comparison(c: Comparison, console=None, case_limit: int = 10) -> None:
    """The comparison on the terminal: every table, then the examples styled inline."""
    from rich.console import Console

    if console is None:
        console = Console()
        if not console.is_terminal:
            console = Console(width=200)
    st = c.settings
    console.print(f"[dim]{c.corpus['tokens']} tokens, {c.corpus['sentences']} sentences, "
                  f"{c.corpus['gold_spans']} gold spans, labels {', '.join(c.corpus['labels']) or '-'}; "
                  f"token view {st['view']}, scheme {st['scheme']}, policy {st['policy']}[/dim]")
    for t in all_tables(c, case_limit=case_limit, with_examples=False):
        console.print(_rich_table(t))
    if c.pair is not None and c.pair.examples:
        console.print("[bold]Examples[/bold] [dim](spans \\[tokens]LABEL; the tokens the transition is about "
                      "in reverse video)[/dim]")
        labels = list(c.corpus["labels"])
        last = None
        for e in c.pair.examples:
            head = (e.level, e.change_class, e.transition)
            if head != last:
                console.print(f"\n[bold]{e.level} · {CLASS_TITLES[e.change_class].lower()} · {e.transition}[/bold]")
                last = head
            from rich.text import Text
            console.print(Text(f"sentence {e.sentence + 1}: " +
                               "  ".join(f"{r} {_where(w, short=True)}" for r, w in e.where.items()), style="dim"))
            for role in ROLE_NAMES:
                line = Text(f"  {role:>4} ", style="bold")
                line.append(styled_inline(e, role, labels))
                console.print(line)
    if c.multi is None and c.pair is not None:
        console.print("[dim]corrections: A wrong, B right; new errors: A right, B wrong; changed errors: both "
                      "wrong, differently. Span outcomes: Ortmann's fair error types.[/dim]")
